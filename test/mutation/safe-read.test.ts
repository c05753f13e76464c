import { describe, expect, it } from 'vitest';
import { safeArray, safeRead, usableNumber } from '../../src/guard/safe-read.js';

function revoked<T extends object>(target: T): T {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
}

describe('safeRead', () => {
  it('reads own and inherited properties of objects and functions', () => {
    expect(safeRead({ name: 'a' }, 'name')).toBe('a');
    expect(safeRead(Object.create({ text: 'inherited' }), 'text')).toBe('inherited');
    expect(safeRead(Object.assign(() => 1, { toolCalls: [1] }), 'toolCalls')).toEqual([1]);
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

  it('reads a throwing getter or a revoked proxy as undefined', () => {
    const hostile = Object.defineProperty({}, 'name', {
      get() {
        throw new Error('no');
      },
    });
    expect(safeRead(hostile, 'name')).toBeUndefined();
    expect(safeRead(revoked({ name: 'a' }), 'name')).toBeUndefined();
  });
});

describe('safeArray', () => {
  it('returns the items of an array', () => {
    expect(safeArray([1, 'two', null])).toEqual([1, 'two', null]);
    expect(safeArray([])).toEqual([]);
  });

  it('returns an empty list for anything that is not an array, array-likes and strings included', () => {
    for (const value of ['abc', { length: 2, 0: 'a', 1: 'b' }, new Set([1]), 5, null, undefined, () => 1]) {
      expect(safeArray(value)).toEqual([]);
    }
  });

  it('returns an empty list for a revoked array proxy', () => {
    expect(safeArray(revoked([1, 2]))).toEqual([]);
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
});

describe('usableNumber', () => {
  it('keeps finite numbers of zero or more', () => {
    expect(usableNumber(0)).toBe(0);
    expect(usableNumber(12.5)).toBe(12.5);
    expect(usableNumber(Number.MAX_VALUE)).toBe(Number.MAX_VALUE);
  });

  it('drops negative, non-finite and non-number values', () => {
    for (const value of [-1, -Number.MIN_VALUE, Number.NaN, Infinity, -Infinity, '5', 5n, null, undefined, {}]) {
      expect(usableNumber(value)).toBeUndefined();
    }
  });
});
