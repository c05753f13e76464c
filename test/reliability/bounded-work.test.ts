import { describe, expect, it } from 'vitest';
import { canonicalize, createGuard, stableHash } from '../../src/index.js';
import type { GuardOptions } from '../../src/index.js';
import { normalizeFinishReason } from '../../src/detectors/normalize-finish-reason.js';
import { normalizeText } from '../../src/guard/normalize-text.js';

/*
 * Huge inputs must cost bounded work and never overflow the stack. Work is asserted by counting the reads a proxy
 * sees, not by timing. Where only time can tell (text normalisation), the inputs are a megabyte or more: an
 * algorithm that is quadratic in them needs about 10^12 steps, hours rather than the seconds the timeout allows.
 */

/** The spec's cut-offs. */
const MAX_VALUES = 200_000;
const MAX_DEPTH = 64;

/** Wraps an array or object so the test can count how many of its entries are read. */
function countingReads<T extends object>(target: T): { value: T; reads: () => number } {
  let reads = 0;
  const value = new Proxy(target, {
    get(inner, key, receiver) {
      if (typeof key === 'string' && key !== 'length') reads++;
      return Reflect.get(inner, key, receiver) as unknown;
    },
  });
  return { value, reads: () => reads };
}

function nested(depth: number, leaf: unknown): unknown {
  let value: unknown = leaf;
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? { inner: value } : [value];
  return value;
}

function objectWithKeys(count: number, lastValue: unknown): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  // Zero-padded so the keys sort in creation order and the last one is last in canonical order too.
  for (let index = 0; index < count - 1; index++) value[`k${String(index).padStart(7, '0')}`] = index;
  value[`k${String(count - 1).padStart(7, '0')}`] = lastValue;
  return value;
}

const ONLY_REPEATS: GuardOptions = { maxSteps: false, oscillation: false, noProgress: false, finishReason: false };

describe('bounded work on huge inputs', () => {
  it('reads at most the cut-off number of items of a 5,000,000-element array', () => {
    const big = new Array<number>(5_000_000).fill(7);
    const { value, reads } = countingReads(big);
    expect(typeof canonicalize(value)).toBe('string');
    expect(reads()).toBeGreaterThan(0);
    expect(reads()).toBeLessThanOrEqual(MAX_VALUES + 1);
  });

  it('cuts a 5,000,000-element array off: values that differ only past the cut compare equal, earlier ones do not', () => {
    const left = new Array<number>(5_000_000).fill(1);
    const right = left.slice();
    right[4_999_999] = 2;
    expect(canonicalize(right)).toBe(canonicalize(left));
    right[10] = 2;
    expect(canonicalize(right)).not.toBe(canonicalize(left));
  });

  it('checks a step with a 5,000,000-element argument and sees the repeat', () => {
    const args = { rows: new Array<number>(5_000_000).fill(0) };
    const guard = createGuard({ ...ONLY_REPEATS, repeatedToolCall: { threshold: 2 } });
    expect(guard.check({ toolCalls: [{ name: 'load', args }] })).toEqual({ stop: false });
    expect(guard.check({ toolCalls: [{ name: 'load', args }] })).toMatchObject({ stop: true, reason: 'repeated-tool-call' });
  });

  it('handles nesting 200,000 levels deep without a stack overflow, cutting it at the depth limit', () => {
    const deep = nested(200_000, 'bottom');
    const otherBottom = nested(200_000, 'elsewhere');
    const form = canonicalize(deep);
    expect(typeof form).toBe('string');
    // A stack overflow caught and turned into a placeholder would never compare equal: equality proves the cut.
    expect(canonicalize(otherBottom)).toBe(form);
    expect(stableHash(otherBottom)).toBe(stableHash(deep));
    expect(canonicalize(nested(MAX_DEPTH - 2, 'a'))).not.toBe(canonicalize(nested(MAX_DEPTH - 2, 'b')));
  });

  it('reads a bounded number of levels of a 200,000-level structure', () => {
    let levels = 0;
    let value: unknown = 'bottom';
    for (let level = 0; level < 200_000; level++) {
      const inner = value;
      value = new Proxy({ inner }, { get: (target, key) => (key === 'inner' ? (levels++, target.inner) : undefined) });
    }
    canonicalize(value);
    expect(levels).toBeGreaterThan(0);
    expect(levels).toBeLessThanOrEqual(MAX_DEPTH + 1);
  });

  it('checks steps with 200,000-level arguments, results and errors', () => {
    const deep = nested(200_000, 0);
    const guard = createGuard({ ...ONLY_REPEATS, repeatedToolCall: { threshold: 2 } });
    expect(guard.check({ toolCalls: [{ name: 'walk', args: deep, result: deep, error: deep }] })).toEqual({ stop: false });
    expect(guard.check({ toolCalls: [{ name: 'walk', args: nested(200_000, 1) }] })).toMatchObject({ stop: true });
  });

  it('reads at most the cut-off number of values of an object with 300,000 keys', () => {
    const { value, reads } = countingReads(objectWithKeys(300_000, 0));
    expect(typeof canonicalize(value)).toBe('string');
    expect(reads()).toBeLessThanOrEqual(MAX_VALUES + 1);
  });

  it('cuts an object with 300,000 keys off after the cut-off number of values', () => {
    const left = objectWithKeys(300_000, 'last');
    expect(canonicalize(objectWithKeys(300_000, 'other last'))).toBe(canonicalize(left));
    const early = objectWithKeys(300_000, 'last');
    early.k0000003 = 'changed';
    expect(canonicalize(early)).not.toBe(canonicalize(left));
  });

  it('compares 2 MB string arguments in full, by length and hash', () => {
    const text = 'x'.repeat(2 * 1024 * 1024);
    const changedAtEnd = `${text.slice(0, -1)}y`;
    expect(canonicalize(changedAtEnd)).not.toBe(canonicalize(text));
    expect(stableHash(changedAtEnd)).not.toBe(stableHash(text));
    const guard = createGuard({ ...ONLY_REPEATS, repeatedToolCall: { threshold: 2 } });
    guard.check({ toolCalls: [{ name: 'write', args: { text } }] });
    expect(guard.check({ toolCalls: [{ name: 'write', args: { text: changedAtEnd } }] })).toEqual({ stop: false });
    const verdict = guard.check({ toolCalls: [{ name: 'write', args: { text: changedAtEnd } }] });
    expect(verdict).toMatchObject({ stop: true, reason: 'repeated-tool-call', evidence: { count: 2 } });
    // Evidence stays short however long the argument is.
    expect(JSON.stringify(verdict).length).toBeLessThan(1_000);
  });

  it('normalises 1 MB of whitespace in step text in linear time and compares it as one space', () => {
    const megabyte = 1024 * 1024;
    const whitespace = ' \t\n\r\u00a0\u2003'.repeat(megabyte / 6);
    expect(normalizeText(`Same${whitespace}TEXT`)).toBe('same text');
    expect(normalizeText(whitespace)).toBe('');
    const guard = createGuard({ maxSteps: false, noProgress: { threshold: 2 }, finishReason: false });
    expect(guard.check({ text: `Same${whitespace}text` })).toEqual({ stop: false });
    expect(guard.check({ text: ' same text ' })).toMatchObject({ stop: true, reason: 'no-progress', evidence: { textPreview: 'same text' } });
  });

  it('normalises text built to make a backtracking expression go quadratic', () => {
    const half = 512 * 1024;
    // Whitespace runs that never end in a match a naive trim or collapse expression would retry from each position.
    expect(normalizeText(`a${' '.repeat(half)}\u0000`)).toBe('a \u0000');
    expect(normalizeText(' a'.repeat(half))).toBe(`a${' a'.repeat(half - 1)}`);
    expect(normalizeText(`${' \t'.repeat(half)}x`)).toBe('x');
    expect(normalizeFinishReason(`${' '.repeat(half)}TOOL_CALLS${'\t'.repeat(half)}`)).toBe('tool-calls');
    expect(normalizeFinishReason(`_${' x'.repeat(half)}`)).toBe(`-${' x'.repeat(half)}`);
  });

  it('checks a step whose text and finish reason are megabytes long', () => {
    const huge = `${' '.repeat(1024 * 1024)}Other${'_'.repeat(1024 * 1024)}`;
    const guard = createGuard({ finishReason: { otherPolicy: 'stop' } });
    const verdict = guard.check({ text: huge, finishReason: huge });
    expect(verdict).toMatchObject({ stop: true, code: 'FINISH_OTHER' });
  });
});
