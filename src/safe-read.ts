/** Reads a property of anything without ever throwing: hostile getters and revoked proxies read as `undefined`. */
export function safeRead(target: unknown, key: string): unknown {
  if (target === null || (typeof target !== 'object' && typeof target !== 'function')) return undefined;
  try {
    return (target as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** The items of an array, or `[]` for anything that is not one (or throws when looked at). */
export function safeArray(value: unknown): readonly unknown[] {
  let length: number;
  try {
    // Both can throw on a revoked proxy.
    if (!Array.isArray(value)) return [];
    length = (value as unknown[]).length;
  } catch {
    return [];
  }
  const items: unknown[] = [];
  for (let index = 0; index < length; index++) {
    try {
      items.push((value as unknown[])[index]);
    } catch {
      items.push(undefined);
    }
  }
  return items;
}

/** A finite, non-negative number, else `undefined`. */
export function usableNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
