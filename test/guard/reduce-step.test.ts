import { describe, expect, it } from 'vitest';
import { createHashKey } from '../../src/canonical/hash-key.js';
import { reduceStep as reduceWithKey } from '../../src/guard/reduce-step.js';
import { canonicalize, createGuard, stableHash, type GuardOptions, type GuardStep } from '../../src/index.js';
import { nested } from '../support/huge-values.js';
import { forgeCollision } from '../support/murmur-forgery.js';
import { murmurMulticollision } from '../support/murmur-multicollision.js';
import { dangerousPayloads, expectPrototypesUntouched } from '../support/prototype-pollution.js';

const KEY = createHashKey();
const reduceStep = (raw: unknown) => reduceWithKey(raw, KEY, 0);

describe('reduceStep keeps only what was given', () => {
  it('leaves out every field that was not supplied', () => {
    const reduced = reduceStep({});
    expect(reduced.step).toStrictEqual({});
    expect(Object.keys(reduced.step)).toEqual([]);
    expect(reduced).toStrictEqual({ step: {}, calls: [], blockedCalls: [], finishReason: undefined, warnings: undefined });
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

  it("lists the top-level keys of the result's form, never those of the arguments or the error read around it", () => {
    const [both] = reduceStep({ toolCalls: [{ name: 'a', args: { q: 1 }, result: { b: 1, a: 2 }, error: { code: 5 } }] }).calls;
    expect(both?.resultKeys).toEqual(['a', 'b']);
    const [noResult] = reduceStep({ toolCalls: [{ name: 'a', args: { q: 1 }, error: { code: 5 } }] }).calls;
    expect(noResult?.resultKeys).toBeUndefined();
    const [text] = reduceStep({ toolCalls: [{ name: 'a', args: { q: 1 }, result: 'ok' }] }).calls;
    expect(text?.resultKeys).toBeUndefined();
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

describe('reduceStep compares with the guard key', () => {
  it('gives repeated calls equal signatures and outcomes however their keys are ordered, and tells results apart', () => {
    const page = 'result text '.repeat(20_000);
    const { calls } = reduceStep({
      toolCalls: [
        { name: 'search', args: { q: 'loops', limit: 10 }, result: page },
        { name: 'search', args: { limit: 10, q: 'loops' }, result: page },
        { name: 'search', args: { limit: 10, q: 'loops' }, result: `${page}!` },
        { name: 'fetch', args: { q: 'loops', limit: 10 }, error: new Error('down') },
      ],
    });
    const [first, second, third, fourth] = calls;
    expect(first?.signature).toBe(second?.signature);
    expect(first?.outcome).toBe(second?.outcome);
    expect(third?.signature).toBe(first?.signature);
    expect(third?.outcome).not.toBe(first?.outcome);
    expect(fourth?.signature).not.toBe(first?.signature);
    expect(first?.argsPreview).toBe('{"limit":10,"q":"loops"}');
    // A string result is read as itself, never escaped.
    expect(first?.resultText).toBe(page);
  });

  it('reads a non-string result as its form, with strings over 1,024 characters as tokens', () => {
    const [call] = reduceWithKey({ toolCalls: [{ name: 'read', result: { short: 'a"b', long: 'l'.repeat(1_025) } }] }, KEY, 0).calls;
    expect(call?.resultText).toMatch(/^\{"long":#s1025:[0-9a-f]{28},"short":"a\\"b"\}$/);
  });

  it('says whether the result and the error are text, and reads an error with a string message as name: message', () => {
    const reduced = reduceWithKey(
      {
        toolCalls: [
          { name: 'a', result: 'plain', error: 'timed out' },
          { name: 'b', result: { rows: [] }, error: new TypeError('bad "x"') },
          { name: 'c', error: { message: 'no name' } },
          { name: 'd', error: { code: 'ENOENT', message: 7 } },
          { name: 'e' },
        ],
      },
      KEY,
      0,
    );
    expect(reduced.calls.map(({ resultText, resultIsText, errorText, errorIsText }) => ({ resultText, resultIsText, errorText, errorIsText }))).toEqual([
      { resultText: 'plain', resultIsText: true, errorText: 'timed out', errorIsText: true },
      { resultText: '{"rows":[]}', resultIsText: false, errorText: 'TypeError: bad "x"', errorIsText: true },
      { resultText: undefined, resultIsText: false, errorText: 'no name', errorIsText: true },
      { resultText: undefined, resultIsText: false, errorText: '{"code":"ENOENT","message":7}', errorIsText: false },
      { resultText: undefined, resultIsText: false, errorText: undefined, errorIsText: false },
    ]);
  });

  it('compares alike under one key and differently under another', () => {
    const step = { toolCalls: [{ name: 'n'.repeat(300), args: { text: 'a'.repeat(5000) }, result: { rows: ['r'.repeat(3000)] } }] };
    expect(reduceWithKey(step, KEY, 0).calls).toEqual(reduceWithKey(step, KEY, 5).calls);
    expect(reduceWithKey(step, createHashKey(), 0).calls[0]?.outcome).not.toBe(reduceWithKey(step, KEY, 0).calls[0]?.outcome);
  });

  it('cannot be made to take two results for one by a collision forged against the public seed', () => {
    // Building a MurmurHash collision for a known seed takes milliseconds; stableHash keeps its public seed.
    const [one, other] = forgeCollision(2_000);
    expect(one).not.toBe(other);
    expect(stableHash(one)).toBe(stableHash(other));
    expect(stableHash({ page: one })).toBe(stableHash({ page: other }));

    const options: GuardOptions = { ...ONLY_REPEATS, stagnation: false, repeatedToolCall: { threshold: 2, requireIdenticalResults: true } };
    for (const [first, second] of [[one, other], [{ page: one }, { page: other }]]) {
      const guard = createGuard(options);
      expect(guard.check({ toolCalls: [{ name: 'read', args: { page: 1 }, result: first }] })).toEqual({ stop: false });
      expect(guard.check({ toolCalls: [{ name: 'read', args: { page: 1 }, result: second }] })).toEqual({ stop: false });
      expect(guard.check({ toolCalls: [{ name: 'read', args: { page: 1 }, result: second }] })).toMatchObject({ stop: true, evidence: { identicalResults: true } });
    }
  });

  it('cannot be made to take two results for one by a collision that holds under every MurmurHash seed', () => {
    // Keying MurmurHash3 by its seeds was not enough: these strings collide whatever the seeds, so a guard that hashed
    // with keyed MurmurHash stopped here on the second step. SipHash keyed with the run's key tells them apart.
    const strings = murmurMulticollision(2_000, 2);
    expect(new Set(strings).size).toBe(4);
    const options: GuardOptions = { ...ONLY_REPEATS, stagnation: false, repeatedToolCall: { threshold: 2, requireIdenticalResults: true } };
    for (const wrap of [(text: string): unknown => text, (text: string): unknown => ({ page: text })]) {
      const guard = createGuard(options);
      for (const text of strings) expect(guard.check({ toolCalls: [{ name: 'read', args: { page: 1 }, result: wrap(text) }] })).toEqual({ stop: false });
      expect(guard.check({ toolCalls: [{ name: 'read', args: { page: 1 }, result: wrap(strings[3] ?? '') }] })).toMatchObject({ stop: true, evidence: { identicalResults: true } });
    }
  });

  it('keeps the key of a restored guard: a snapshot carries it', () => {
    const options: GuardOptions = { ...ONLY_REPEATS, stagnation: false, repeatedToolCall: { threshold: 2, requireIdenticalResults: true } };
    const long = 'z'.repeat(5_000);
    const guard = createGuard(options);
    guard.check({ toolCalls: [{ name: 'read', result: long }] });
    const restored = createGuard(options, { snapshot: JSON.parse(JSON.stringify(guard.snapshot())) as unknown });
    expect(restored.check({ toolCalls: [{ name: 'read', result: long }] })).toMatchObject({ stop: true, evidence: { identicalResults: true } });
  });
});

describe("reduceStep within one step's reading budget", () => {
  // 99,998 numbers, the array and the result: 100,000 values a call, so 20 calls spend the 2,000,000 a step may read.
  const calls = (count: number): { name: string; args: number[]; result: string }[] =>
    Array.from({ length: count }, (_, index) => ({ name: 'dump', args: new Array<number>(99_998).fill(index), result: 'ok' }));

  it('reads 20 calls whole and says nothing', () => {
    const reduced = reduceStep({ toolCalls: calls(20) });
    expect(reduced.warnings).toBeUndefined();
    expect(new Set(reduced.calls.map((call) => call.signature)).size).toBe(20);
  });

  it('makes each call read in part unlike every other, and says how many there were', () => {
    const reduced = reduceWithKey({ toolCalls: calls(25) }, KEY, 7);
    expect(reduced.calls.slice(20).map((call) => call.signature.slice(-9))).toEqual(['\u0000cut:7:20', '\u0000cut:7:21', '\u0000cut:7:22', '\u0000cut:7:23', '\u0000cut:7:24']);
    expect(reduced.calls.slice(19).map((call) => call.resultText)).toEqual(['ok', undefined, undefined, undefined, undefined, undefined]);
    expect(reduced.warnings).toEqual([
      {
        code: 'INPUT_LIMIT',
        limit: 'readPerStep',
        maximumValues: 2_000_000,
        maximumCharacters: 67_108_864,
        cutCalls: 5,
        detail: "The step's tool calls held more than one step may read (2000000 values or 67108864 characters); 5 calls were read in part and compared with no other.",
      },
    ]);
    expect(reduceWithKey({ toolCalls: calls(21) }, KEY, 0).warnings?.[0]).toMatchObject({ cutCalls: 1, detail: expect.stringMatching(/; 1 call was read in part/) as unknown });
  });

  it('never takes calls read in part for repeats, and the verdict says they were cut', () => {
    // Without the mark, the five cut calls would all read "[Truncated]" and repeat each other.
    const guard = createGuard({ ...ONLY_REPEATS, stagnation: false, repeatedToolCall: { threshold: 5 } });
    expect(guard.check({ toolCalls: calls(25) })).toMatchObject({ stop: false, warnings: [{ code: 'INPUT_LIMIT', limit: 'readPerStep', cutCalls: 5 }] });
  });

  it('reads a step of 1,000 calls that share one sparse million-slot array within the budget', () => {
    const sparse = new Array<unknown>(1_000_000);
    sparse[999_999] = 'end';
    const guard = createGuard({ ...ONLY_REPEATS, stagnation: false });
    const verdict = guard.check({ toolCalls: Array.from({ length: 1_000 }, (_, index) => ({ name: 'load', args: { sparse, index } })) });
    expect(verdict.stop).toBe(false);
    expect(verdict.warnings).toMatchObject([{ code: 'INPUT_LIMIT', limit: 'readPerStep' }]);
    expect(guard.summary().toolCalls).toBe(1_000);
  });
});

describe('reduceStep tool names', () => {
  it('shows at most 1,024 characters of a name, and keys it by the whole name', () => {
    const [call, other] = reduceStep({ toolCalls: [{ name: `${'n'.repeat(2_000)}a` }, { name: `${'n'.repeat(2_000)}b` }] }).calls;
    expect(call?.name).toBe(`${'n'.repeat(1_023)}…`);
    expect(call?.signature).not.toBe(other?.signature);
    expect(reduceStep({ toolCalls: [{ name: 'n'.repeat(1_024) }] }).calls[0]?.name).toBe('n'.repeat(1_024));
  });
});
