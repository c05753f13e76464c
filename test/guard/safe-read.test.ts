import { describe, expect, it } from 'vitest';
import { MAX_ARRAY_ITEMS, safeArray, safeRead, usableNumber } from '../../src/guard/safe-read.js';
import { createGuard } from '../../src/index.js';
import type { GuardStep } from '../../src/index.js';

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

/** An array proxy whose `length` reads as `length`, whatever that is. */
function arrayClaimingLength(length: unknown): unknown[] {
  return new Proxy(['first', 'second', 'third'], {
    get(target, key, receiver) {
      return key === 'length' ? length : (Reflect.get(target, key, receiver) as unknown);
    },
  });
}

describe('safeArray bounds the work a hostile length can cause', () => {
  it('reads a real array up to the cap and no further', () => {
    const atCap = Array.from({ length: MAX_ARRAY_ITEMS }, (_, index) => index);
    expect(safeArray(atCap)).toEqual(atCap);
    const overCap = Array.from({ length: MAX_ARRAY_ITEMS + 1 }, (_, index) => index);
    const read = safeArray(overCap);
    expect(read).toHaveLength(MAX_ARRAY_ITEMS);
    expect(read.at(-1)).toBe(MAX_ARRAY_ITEMS - 1);
  });

  it('reads a sparse array of 2^32 - 1 slots as the capped number of items, holes as undefined', () => {
    const sparse: unknown[] = [];
    sparse.length = 2 ** 32 - 1;
    sparse[1] = 'kept';
    const read = safeArray(sparse);
    expect(read).toHaveLength(MAX_ARRAY_ITEMS);
    expect(read.slice(0, 3)).toEqual([undefined, 'kept', undefined]);
  });

  it('caps a proxy that claims an endless length', () => {
    const read = safeArray(arrayClaimingLength(Infinity));
    expect(read).toHaveLength(MAX_ARRAY_ITEMS);
    expect(read.slice(0, 4)).toEqual(['first', 'second', 'third', undefined]);
  });

  it('reads a length that is not a number as empty, without coercing it', () => {
    let coerced = false;
    const trap = {
      valueOf(): number {
        coerced = true;
        throw new Error('coerced');
      },
    };
    expect(safeArray(arrayClaimingLength(trap))).toEqual([]);
    expect(coerced).toBe(false);
    expect(safeArray(arrayClaimingLength(Symbol('length')))).toEqual([]);
    expect(safeArray(arrayClaimingLength('3'))).toEqual([]);
  });

  it('reads a negative or NaN length as empty', () => {
    expect(safeArray(arrayClaimingLength(-1))).toEqual([]);
    expect(safeArray(arrayClaimingLength(Number.NaN))).toEqual([]);
  });

  it('lets check() take a step whose toolCalls is a huge sparse array', () => {
    const toolCalls: unknown[] = [];
    toolCalls.length = 2 ** 32 - 1;
    toolCalls[2] = { name: 'search', args: { query: 'x' } };
    const guard = createGuard();
    expect(guard.check({ toolCalls } as unknown as GuardStep)).toEqual({
      stop: false,
      warnings: [
        {
          code: 'INPUT_LIMIT',
          limit: 'toolCallsPerStep',
          maximum: 10_000,
          given: 2 ** 32 - 1,
          detail: 'The step held 4294967295 tool calls; only the first 10000 were read.',
        },
      ],
    });
    expect(guard.history[0]?.toolCalls).toEqual([{ name: 'search', args: { query: 'x' } }]);
    expect(guard.summary().toolCalls).toBe(1);
  });
});
