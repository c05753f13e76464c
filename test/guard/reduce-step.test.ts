import { describe, expect, it } from 'vitest';
import { reduceStep } from '../../src/guard/reduce-step.js';
import { canonicalize, createGuard, stableHash, type GuardOptions, type GuardStep } from '../../src/index.js';
import { nested } from '../support/huge-values.js';
import { dangerousPayloads, expectPrototypesUntouched } from '../support/prototype-pollution.js';

describe('reduceStep keeps only what was given', () => {
  it('leaves out every field that was not supplied', () => {
    const reduced = reduceStep({});
    expect(reduced.step).toStrictEqual({});
    expect(Object.keys(reduced.step)).toEqual([]);
    expect(reduced).toStrictEqual({ step: {}, calls: [], blockedCalls: [], finishReason: undefined });
  });

  it('leaves out fields that are unusable', () => {
    const reduced = reduceStep({ toolCalls: undefined, text: 5, finishReason: 7, usage: 5, durationMs: -1, timestamp: Infinity });
    expect(Object.keys(reduced.step)).toEqual([]);
  });

  it('does not invent usage from a non-object or a function', () => {
    expect(Object.keys(reduceStep({ usage: 'lots' }).step)).toEqual([]);
    expect(Object.keys(reduceStep({ usage: null }).step)).toEqual([]);
    expect(Object.keys(reduceStep({ usage: Object.assign(() => 1, { inputTokens: 3 }) }).step)).toEqual([]);
  });

  it('keeps only the usable usage figures, and an empty usage object when none is usable', () => {
    expect(reduceStep({ usage: { inputTokens: 3, outputTokens: Number.NaN, costUsd: 0 } }).step.usage).toStrictEqual({ inputTokens: 3, costUsd: 0 });
    expect(reduceStep({ usage: {} }).step.usage).toStrictEqual({});
  });

  it('keeps a finite timestamp and duration, zero included', () => {
    expect(reduceStep({ durationMs: 0, timestamp: 0 }).step).toStrictEqual({ durationMs: 0, timestamp: 0 });
    expect(reduceStep({ timestamp: -5 }).step).toStrictEqual({ timestamp: -5 });
  });

  it('records a call with only the fields it had', () => {
    const { step } = reduceStep({ toolCalls: [{ name: 'a' }, { name: 'b', args: 1 }, { name: 'c', result: 2 }, { name: 'd', error: null }] });
    expect(step.toolCalls).toStrictEqual([{ name: 'a' }, { name: 'b', args: 1 }, { name: 'c', result: 2 }, { name: 'd', error: null }]);
  });
});

describe('reduceStep call facts', () => {
  it('makes the outcome equal the signature when neither result nor error was supplied', () => {
    const [facts] = reduceStep({ toolCalls: [{ name: 'a', args: { q: 1 } }] }).calls;
    expect(facts?.outcome).toBe(facts?.signature);
    expect(facts?.failed).toBe(false);
  });

  it('treats a null error like no error at all', () => {
    const [withNull] = reduceStep({ toolCalls: [{ name: 'a', error: null }] }).calls;
    const [without] = reduceStep({ toolCalls: [{ name: 'a' }] }).calls;
    expect(withNull?.outcome).toBe(without?.outcome);
    expect(withNull?.failed).toBe(false);
  });

  it('adds the result and the error to the outcome, kept apart', () => {
    const [result] = reduceStep({ toolCalls: [{ name: 'a', result: 'x' }] }).calls;
    const [error] = reduceStep({ toolCalls: [{ name: 'a', error: 'x' }] }).calls;
    expect(result?.outcome).not.toBe(result?.signature);
    expect(error?.outcome).not.toBe(error?.signature);
    expect(result?.outcome).not.toBe(error?.outcome);
    expect(error?.failed).toBe(true);
  });
});

const ONLY_REPEATS: GuardOptions = { maxSteps: false, oscillation: false, noProgress: false, finishReason: false };

describe('reading steps: bounded work on huge inputs', { timeout: 60_000 }, () => {
  it('checks a step with a 5,000,000-element argument and sees the repeat', () => {
    const args = { rows: new Array<number>(5_000_000).fill(0) };
    const guard = createGuard({ ...ONLY_REPEATS, repeatedToolCall: { threshold: 2 } });
    expect(guard.check({ toolCalls: [{ name: 'load', args }] })).toEqual({ stop: false });
    expect(guard.check({ toolCalls: [{ name: 'load', args }] })).toMatchObject({ stop: true, reason: 'repeated-tool-call' });
  });

  it('checks steps with 200,000-level arguments, results and errors', () => {
    const deep = nested(200_000, 0);
    const guard = createGuard({ ...ONLY_REPEATS, repeatedToolCall: { threshold: 2 } });
    expect(guard.check({ toolCalls: [{ name: 'walk', args: deep, result: deep, error: deep }] })).toEqual({ stop: false });
    expect(guard.check({ toolCalls: [{ name: 'walk', args: nested(200_000, 1) }] })).toMatchObject({ stop: true });
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

  it('checks a step whose text and finish reason are megabytes long', () => {
    const huge = `${' '.repeat(1024 * 1024)}Other${'_'.repeat(1024 * 1024)}`;
    const guard = createGuard({ finishReason: { otherPolicy: 'stop' } });
    const verdict = guard.check({ text: huge, finishReason: huge });
    expect(verdict).toMatchObject({ stop: true, code: 'FINISH_OTHER' });
  });
});

describe('reading steps: no prototype pollution', () => {
  expectPrototypesUntouched();

  it('leaves Object.prototype untouched after arguments, results and errors with dangerous own keys', () => {
    const guard = createGuard({ maxSteps: false, custom: (history) => (history.length > 100 ? { stop: true } : undefined) });
    for (const payload of dangerousPayloads()) {
      const step = { toolCalls: [{ name: 'merge', args: payload, result: payload, error: payload }], text: 'x' };
      guard.check(step);
      guard.check(JSON.parse(JSON.stringify({ ...step, toolCalls: [{ name: 'merge', args: { nested: payload } }] })) as GuardStep);
      canonicalize(payload);
      stableHash(payload);
    }
    guard.summary();
    expect(guard.history.length).toBeGreaterThan(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('counts repeats of calls whose arguments differ only under __proto__ correctly', () => {
    const guard = createGuard({ repeatedToolCall: { threshold: 2 } });
    guard.check({ toolCalls: [{ name: 'merge', args: JSON.parse('{"__proto__": {"role": "user"}}') }] });
    expect(guard.check({ toolCalls: [{ name: 'merge', args: JSON.parse('{"__proto__": {"role": "admin"}}') }] })).toEqual({ stop: false });
    expect(guard.check({ toolCalls: [{ name: 'merge', args: JSON.parse('{"__proto__": {"role": "admin"}}') }] })).toMatchObject({
      stop: true,
      reason: 'repeated-tool-call',
    });
  });

  it('does not take a tool call name from an own __proto__ key', () => {
    const guard = createGuard();
    guard.check({ toolCalls: [JSON.parse('{"__proto__": {"name": "injected"}}') as never] });
    expect(guard.history[0]?.toolCalls).toEqual([]);
    expect(guard.summary().toolCalls).toBe(0);
  });

  it('keeps dangerous keys of arguments and results as data in history', () => {
    const args = JSON.parse('{"__proto__": {"x": 1}, "constructor": 2, "prototype": 3}') as Record<string, unknown>;
    const guard = createGuard();
    guard.check({ toolCalls: [{ name: 'merge', args, result: args }] });
    const recorded = guard.history[0]?.toolCalls?.[0];
    expect(recorded?.args).toBe(args);
    expect(Object.keys(recorded?.args as object)).toEqual(['__proto__', 'constructor', 'prototype']);
  });
});
