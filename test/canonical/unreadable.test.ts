import { describe, expect, it, vi } from 'vitest';
import { UNREADABLE_COUNTER_KEY, sharedCounter, unreadablePlaceholder } from '../../src/canonical/unreadable.js';

const numberOf = (placeholder: string): number => Number(/^\[Unreadable:(\d+)\]$/.exec(placeholder)?.[1]);

describe('the unreadable counter', () => {
  it('is registered on globalThis under a global symbol', () => {
    const first = numberOf(unreadablePlaceholder());
    expect(UNREADABLE_COUNTER_KEY).toBe(Symbol.for('agent-loopguard.unreadable'));
    const registered = Reflect.get(globalThis, UNREADABLE_COUNTER_KEY) as { count: number };
    expect(registered.count).toBe(first);
    expect(Object.keys(globalThis)).not.toContain(UNREADABLE_COUNTER_KEY);
  });

  it('continues across a second copy of the module, as the ESM and CJS builds are', async () => {
    const before = numberOf(unreadablePlaceholder());
    vi.resetModules();
    const copy = await import('../../src/canonical/unreadable.js');
    expect(copy.unreadablePlaceholder).not.toBe(unreadablePlaceholder);
    expect(numberOf(copy.unreadablePlaceholder())).toBe(before + 1);
    expect(numberOf(unreadablePlaceholder())).toBe(before + 2);
  });

  it('never repeats a number, even when the shared count is set back or spoiled', () => {
    const registered = Reflect.get(globalThis, UNREADABLE_COUNTER_KEY) as { count: number };
    const before = numberOf(unreadablePlaceholder());
    registered.count = 0;
    expect(numberOf(unreadablePlaceholder())).toBe(before + 1);
    registered.count = Number.NaN;
    expect(numberOf(unreadablePlaceholder())).toBe(before + 2);
    registered.count = before + 10;
    expect(numberOf(unreadablePlaceholder())).toBe(before + 11);
  });

  it('falls back to a counter of its own where the global cannot hold one', () => {
    const frozen = Object.freeze({});
    const own = sharedCounter(frozen);
    expect(own).toEqual({ count: 0 });
    expect(sharedCounter(frozen)).not.toBe(own);
    const taken = { [UNREADABLE_COUNTER_KEY]: 'something else' };
    expect(sharedCounter(taken)).toEqual({ count: 0 });
    expect(taken[UNREADABLE_COUNTER_KEY]).toBe('something else');
    const fresh = {};
    const registered = sharedCounter(fresh);
    expect(sharedCounter(fresh)).toBe(registered);
  });
});
