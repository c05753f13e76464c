import { describe, expect, it } from 'vitest';
import { createGuard } from '../../src/index.js';
import { MAX_ARRAY_ITEMS, safeArray } from '../../src/guard/safe-read.js';
import type { GuardStep } from '../../src/index.js';

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
    expect(guard.check({ toolCalls } as unknown as GuardStep)).toEqual({ stop: false });
    expect(guard.history[0]?.toolCalls).toEqual([{ name: 'search', args: { query: 'x' } }]);
    expect(guard.summary().toolCalls).toBe(1);
  });
});
