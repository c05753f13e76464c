import { describe, expect, it } from 'vitest';
import { arrayLength, isFiniteNumber, isSafeInteger, MAX_ARRAY_ITEMS, readArray, safeArray, safeRead, usableNumber } from '../../src/utils/read.js';

function revoked<T extends object>(target: T): T {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
}

/** An array proxy whose `length` reads as `length`, whatever that is. */
function arrayClaimingLength(length: unknown): unknown[] {
  return new Proxy(['first', 'second', 'third'], {
    get(target, key, receiver) {
      return key === 'length' ? length : (Reflect.get(target, key, receiver) as unknown);
    },
  });
}

describe('safeRead', () => {
  it('reads own and inherited properties of objects and functions', () => {
    expect(safeRead({ name: 'a' }, 'name')).toBe('a');
    expect(safeRead(Object.create({ text: 'inherited' }), 'text')).toBe('inherited');
    expect(safeRead(Object.assign(() => 1, { toolCalls: [1] }), 'toolCalls')).toEqual([1]);
    expect(safeRead({}, 'missing')).toBeUndefined();
  });

  it('reads nothing from primitives, not even what their wrappers have', () => {
    expect(safeRead('text', 'length')).toBeUndefined();
    expect(safeRead(5, 'toFixed')).toBeUndefined();
    expect(safeRead(true, 'valueOf')).toBeUndefined();
    expect(safeRead(10n, 'toString')).toBeUndefined();
    expect(safeRead(Symbol('s'), 'description')).toBeUndefined();
    expect(safeRead(null, 'name')).toBeUndefined();
    expect(safeRead(undefined, 'name')).toBeUndefined();
  });

  it('reads a throwing getter, a throwing trap or a revoked proxy as undefined', () => {
    const hostile = Object.defineProperty({}, 'name', {
      get() {
        throw new Error('no');
      },
    });
    expect(safeRead(hostile, 'name')).toBeUndefined();
    expect(safeRead(new Proxy({}, { get: () => { throw new Error('trap'); } }), 'name')).toBeUndefined();
    expect(safeRead(revoked({ name: 'a' }), 'name')).toBeUndefined();
  });
});

describe('readArray', () => {
  it('gives the items of an array with the length it claimed', () => {
    expect(readArray([1, 'two', null])).toEqual({ items: [1, 'two', null], length: 3 });
    expect(readArray([])).toEqual({ items: [], length: 0 });
  });

  it('gives undefined for anything that is not an array, array-likes, strings and revoked proxies included', () => {
    for (const value of ['abc', { length: 2, 0: 'a', 1: 'b' }, new Set([1]), 5, null, undefined, () => 1, revoked([1, 2])]) {
      expect(readArray(value)).toBeUndefined();
    }
  });

  it('reads a real array up to the cap and no further, keeping the length it claimed', () => {
    const atCap = Array.from({ length: MAX_ARRAY_ITEMS }, (_, index) => index);
    expect(readArray(atCap)).toEqual({ items: atCap, length: MAX_ARRAY_ITEMS });
    const overCap = Array.from({ length: MAX_ARRAY_ITEMS + 1 }, (_, index) => index);
    const read = readArray(overCap);
    expect(read?.length).toBe(MAX_ARRAY_ITEMS + 1);
    expect(read?.items).toHaveLength(MAX_ARRAY_ITEMS);
    expect(read?.items.at(-1)).toBe(MAX_ARRAY_ITEMS - 1);
  });

  it('caps a proxy that claims an endless length at 2^32 - 1, reading only the capped number of items', () => {
    const read = readArray(arrayClaimingLength(Infinity));
    expect(read?.length).toBe(2 ** 32 - 1);
    expect(read?.items).toHaveLength(MAX_ARRAY_ITEMS);
    expect(read?.items.slice(0, 4)).toEqual(['first', 'second', 'third', undefined]);
  });

  it('reads a length that is not a positive number as empty, without coercing it', () => {
    let coerced = false;
    const trap = {
      valueOf(): number {
        coerced = true;
        throw new Error('coerced');
      },
    };
    for (const length of [trap, Symbol('length'), '3', -1, Number.NaN, 0]) expect(readArray(arrayClaimingLength(length))).toEqual({ items: [], length: 0 });
    expect(coerced).toBe(false);
  });

  it('reads an array whose length read throws as no array', () => {
    const throwing = new Proxy([1], {
      get(target, key, receiver) {
        if (key === 'length') throw new Error('no length');
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    expect(readArray(throwing)).toBeUndefined();
  });
});

describe('arrayLength', () => {
  it('is the length of an array, and undefined for anything else (array-likes, strings, revoked proxies)', () => {
    expect(arrayLength([1, 2])).toBe(2);
    expect(arrayLength([])).toBe(0);
    for (const value of [{ length: 2 }, 'ab', null, undefined, revoked([1, 2])]) expect(arrayLength(value)).toBeUndefined();
  });

  it('reads what a proxy claims as a whole number from 0 to 2^32 - 1', () => {
    expect(arrayLength(arrayClaimingLength(2.7))).toBe(2);
    expect(arrayLength(arrayClaimingLength(0.5))).toBe(0);
    expect(arrayLength(arrayClaimingLength(2 ** 32 - 1))).toBe(2 ** 32 - 1);
    expect(arrayLength(arrayClaimingLength(2 ** 32))).toBe(2 ** 32 - 1);
    expect(arrayLength(arrayClaimingLength(Infinity))).toBe(2 ** 32 - 1);
    for (const length of ['3', -1, Number.NaN, -Infinity, 0]) expect(arrayLength(arrayClaimingLength(length))).toBe(0);
  });
});

describe('safeArray', () => {
  it('gives the items of an array, or an empty list for anything else', () => {
    expect(safeArray([1, 'two', null])).toEqual([1, 'two', null]);
    for (const value of ['abc', { length: 2, 0: 'a' }, 5, null, undefined, revoked([1, 2])]) expect(safeArray(value)).toEqual([]);
  });

  it('keeps the position of an item whose read throws, as undefined', () => {
    const items = new Proxy(['a', 'b', 'c'], {
      get(target, key, receiver) {
        if (key === '1') throw new Error('no');
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    expect(safeArray(items)).toEqual(['a', undefined, 'c']);
  });

  it('reads a sparse array of 2^32 - 1 slots as the capped number of items, holes as undefined', () => {
    const sparse: unknown[] = [];
    sparse.length = 2 ** 32 - 1;
    sparse[1] = 'kept';
    const read = safeArray(sparse);
    expect(read).toHaveLength(MAX_ARRAY_ITEMS);
    expect(read.slice(0, 3)).toEqual([undefined, 'kept', undefined]);
  });
});

describe('numbers', () => {
  it('usableNumber keeps finite numbers of zero or more, and drops everything else', () => {
    expect(usableNumber(0)).toBe(0);
    expect(usableNumber(12.5)).toBe(12.5);
    expect(usableNumber(Number.MAX_VALUE)).toBe(Number.MAX_VALUE);
    for (const value of [-1, -Number.MIN_VALUE, Number.NaN, Infinity, -Infinity, '5', 5n, null, undefined, {}, Object(5)]) {
      expect(usableNumber(value)).toBeUndefined();
    }
  });

  it('isFiniteNumber and isSafeInteger never coerce', () => {
    expect([1.5, -0, Number.MAX_VALUE, '1', Infinity, Number.NaN, 1n].map(isFiniteNumber)).toEqual([true, true, true, false, false, false, false]);
    expect([0, -5, 2 ** 53 - 1, 2 ** 53, 1.5, '1', 1n].map(isSafeInteger)).toEqual([true, true, true, false, false, false, false]);
  });
});
