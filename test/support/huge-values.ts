/*
 * Huge inputs for tests that must cost bounded work and never overflow the stack. Work is asserted by counting the
 * reads a proxy sees, not by timing. Where only time can tell (text normalisation), the inputs are a megabyte or more:
 * an algorithm that is quadratic in them needs about 10^12 steps, hours rather than the seconds a test may take.
 */

/** Wraps an array or object so the test can count how many of its entries are read. */
export function countingReads<T extends object>(target: T): { value: T; reads: () => number } {
  let reads = 0;
  const value = new Proxy(target, {
    get(inner, key, receiver) {
      if (typeof key === 'string' && key !== 'length') reads++;
      return Reflect.get(inner, key, receiver) as unknown;
    },
  });
  return { value, reads: () => reads };
}

export function nested(depth: number, leaf: unknown): unknown {
  let value: unknown = leaf;
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? { inner: value } : [value];
  return value;
}

export function objectWithKeys(count: number, lastValue: unknown): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  // Zero-padded so the keys sort in creation order and the last one is last in canonical order too.
  for (let index = 0; index < count - 1; index++) value[`k${String(index).padStart(7, '0')}`] = index;
  value[`k${String(count - 1).padStart(7, '0')}`] = lastValue;
  return value;
}
