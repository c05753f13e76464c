/**
 * A deep copy of a value with every object's keys, every Map's entries and every Set's values in a different
 * insertion order. Arrays keep their order (it is meaningful); other objects (Dates, typed arrays...) are shared.
 * Cycles and shared references are kept.
 */
export function reorderKeys(value: unknown, seed: number): unknown {
  let state = seed >>> 0 || 1;
  const nextRandom = (): number => {
    // xorshift32: deterministic, so a failing case replays exactly.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 2 ** 32;
  };
  const shuffle = <T>(items: T[]): T[] => {
    for (let index = items.length - 1; index > 0; index--) {
      const other = Math.floor(nextRandom() * (index + 1));
      [items[index], items[other]] = [items[other] as T, items[index] as T];
    }
    return items;
  };

  const copies = new Map<object, unknown>();
  const copy = (inner: unknown): unknown => {
    if (inner === null || typeof inner !== 'object') return inner;
    const known = copies.get(inner);
    if (known !== undefined) return known;
    if (Array.isArray(inner)) {
      const result = new Array<unknown>(inner.length);
      copies.set(inner, result);
      for (const key of Object.keys(inner)) result[Number(key)] = copy((inner as unknown[])[Number(key)]);
      return result;
    }
    if (inner instanceof Map) {
      const result = new Map<unknown, unknown>();
      copies.set(inner, result);
      for (const [key, item] of shuffle([...inner.entries()])) result.set(copy(key), copy(item));
      return result;
    }
    if (inner instanceof Set) {
      const result = new Set<unknown>();
      copies.set(inner, result);
      for (const item of shuffle([...inner.values()])) result.add(copy(item));
      return result;
    }
    const prototype: unknown = Object.getPrototypeOf(inner);
    if (prototype !== Object.prototype && prototype !== null) return inner;
    const result = Object.create(prototype) as Record<string, unknown>;
    copies.set(inner, result);
    for (const [key, item] of shuffle(Object.entries(inner))) {
      Object.defineProperty(result, key, { value: copy(item), enumerable: true, writable: true, configurable: true });
    }
    return result;
  };
  return copy(value);
}
