/** How the report writes figures. */

/** A whole number with thousands separators: `12,345`. */
export function count(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A share in per cent with one decimal, or `–` when the whole is zero. */
export function percent(part: number, whole: number): string {
  return whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`;
}

/** `part / whole (p%)`, or `–` when the whole is zero. */
export function ratio(part: number, whole: number): string {
  return whole === 0 ? '–' : `${count(part)} / ${count(whole)} (${percent(part, whole)})`;
}

/** A large count shortened: `3.2M`, `41k`, `950`. */
export function short(value: number): string {
  if (value >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (value >= 1e4) return `${(value / 1e3).toFixed(0)}k`;
  return count(value);
}

/** A count and a noun, the noun in the plural unless the count is 1: `1 run`, `3 runs`. */
export function plural(value: number, noun: string): string {
  return `${count(value)} ${noun}${value === 1 ? '' : 's'}`;
}
