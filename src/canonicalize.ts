/**
 * Deterministic, key-order-insensitive text form of any value. PLACEHOLDER: replaced by the full normaliser.
 * @param value - anything
 * @returns the canonical form
 */
export function canonicalize(value: unknown): string {
  try {
    const form: string | undefined = JSON.stringify(value, (_key, inner: unknown) =>
      inner !== null && typeof inner === 'object' && !Array.isArray(inner)
        ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : inner,
    );
    return form ?? 'undefined';
  } catch {
    return '[Unreadable]';
  }
}
