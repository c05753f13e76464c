import { describe, expect, it } from 'vitest';
import { canonicalize, createGuard, stableHash, type GuardOptions, type GuardStep } from '../../src/index.js';
import { nested } from '../support/huge-values.js';
import { expectPlainJson } from '../support/plain-json.js';
import { dangerousPayloads, expectPrototypesUntouched } from '../support/prototype-pollution.js';
import { memoryOf } from '../support/snapshot-memory.js';
import { ALL_OFF, factsOf } from '../support/step-builder.js';

/** The step as the guard records it, from the facts detectors get. */
const recorded = (raw: unknown): GuardStep => factsOf(raw as GuardStep).step;
/** The facts of each call that ran. */
const callsOf = (raw: unknown, index = 0) => factsOf(raw as GuardStep, index).calls;

const ONLY_REPEATS: GuardOptions = { ...ALL_OFF, repeatedToolCall: { threshold: 2 } };

describe('reading a step keeps only what was given and usable', () => {
  it('leaves out every field that was not supplied', () => {
    expect(recorded({})).toStrictEqual({});
    expect(callsOf({})).toEqual([]);
    expect(createGuard().check({})).toStrictEqual({ stop: false });
  });

  it('leaves out fields that are unusable', () => {
    expect(recorded({ toolCalls: undefined, text: 5, finishReason: 7, usage: 5, durationMs: -1, timestamp: Infinity })).toStrictEqual({});
    expect(recorded({ durationMs: Number.NaN, timestamp: '5', usage: null })).toStrictEqual({});
  });

  it('does not invent usage from a non-object or a function', () => {
    expect(recorded({ usage: 'lots' })).toStrictEqual({});
    expect(recorded({ usage: Object.assign(() => 1, { inputTokens: 3 }) })).toStrictEqual({});
  });

  it('keeps only the usable usage figures, and an empty usage object when none is usable', () => {
    expect(recorded({ usage: { inputTokens: 3, outputTokens: Number.NaN, totalTokens: -1, costUsd: 0 } }).usage).toStrictEqual({ inputTokens: 3, costUsd: 0 });
    expect(recorded({ usage: {} }).usage).toStrictEqual({});
    expect(recorded({ usage: { costUsd: '1', extra: 5 } }).usage).toStrictEqual({});
  });

  it('keeps a finite timestamp (negative too) and a duration of zero or more', () => {
    expect(recorded({ durationMs: 0, timestamp: 0 })).toStrictEqual({ durationMs: 0, timestamp: 0 });
    expect(recorded({ timestamp: -5 })).toStrictEqual({ timestamp: -5 });
  });

  it('records a call with only the fields it had, and blocked only when it is true', () => {
    const { toolCalls } = recorded({
      toolCalls: [{ name: 'a' }, { name: 'b', args: 1 }, { name: 'c', result: 2 }, { name: 'd', error: null }, { name: 'e', blocked: 'yes', extra: 1 }, { name: 'f', blocked: true }],
    });
    expect(toolCalls).toStrictEqual([{ name: 'a' }, { name: 'b', args: 1 }, { name: 'c', result: 2 }, { name: 'd', error: null }, { name: 'e' }, { name: 'f', blocked: true }]);
  });

  it('leaves out calls without a string name, and items that are not calls', () => {
    expect(recorded({ toolCalls: [{ name: 3 }, null, 'x', { args: 1 }, { name: 'ok' }] }).toolCalls).toStrictEqual([{ name: 'ok' }]);
    expect(recorded({ toolCalls: { name: 'a' } })).toStrictEqual({});
  });

  it('freezes the step, its calls and its usage, and keeps arguments and results as given', () => {
    const args = { q: 1 };
    const step = recorded({ toolCalls: [{ name: 'a', args }], usage: { inputTokens: 1 } });
    expect([Object.isFrozen(step), Object.isFrozen(step.toolCalls), Object.isFrozen(step.toolCalls?.[0]), Object.isFrozen(step.usage)]).toEqual([true, true, true, true]);
    expect(step.toolCalls?.[0]?.args).toBe(args);
    expect(Object.isFrozen(args)).toBe(false);
  });
});

describe('the facts of each call', () => {
  it('make the outcome equal the signature when neither result nor error was supplied', () => {
    const [facts] = callsOf({ toolCalls: [{ name: 'a', args: { q: 1 } }] });
    expect(facts?.outcome).toBe(facts?.signature);
    expect(facts).toMatchObject({ name: 'a', argsPreview: '{"q":1}', argsLength: 7, resultKey: '', errorKey: '', failed: false });
  });

  it('treat a null error like no error at all', () => {
    const [withNull] = callsOf({ toolCalls: [{ name: 'a', error: null }] });
    const [without] = callsOf({ toolCalls: [{ name: 'a' }] });
    expect(withNull?.outcome).toBe(without?.outcome);
    expect(withNull?.failed).toBe(false);
    expect(withNull?.errorText).toBeUndefined();
  });

  it('add the result and the error to the outcome, kept apart', () => {
    const [result, error, both] = callsOf({ toolCalls: [{ name: 'a', result: 'x' }, { name: 'a', error: 'x' }, { name: 'a', result: 'x', error: 'x' }] });
    expect(new Set([result?.signature, error?.signature, both?.signature]).size).toBe(1);
    expect(new Set([result?.signature, result?.outcome, error?.outcome, both?.outcome]).size).toBe(4);
    expect([result?.failed, error?.failed, both?.failed]).toEqual([false, true, true]);
    expect(result?.resultKey).toBe('"x"');
    expect(error?.errorKey).toBe('"x"');
  });

  it('give repeated calls equal signatures and outcomes however their keys are ordered, and tell results apart', () => {
    const page = 'result text '.repeat(20_000);
    const [first, second, third, fourth] = callsOf({
      toolCalls: [
        { name: 'search', args: { q: 'loops', limit: 10 }, result: page },
        { name: 'search', args: { limit: 10, q: 'loops' }, result: page },
        { name: 'search', args: { limit: 10, q: 'loops' }, result: `${page}!` },
        { name: 'fetch', args: { q: 'loops', limit: 10 }, error: new Error('down') },
      ],
    });
    expect(first?.signature).toBe(second?.signature);
    expect(first?.outcome).toBe(second?.outcome);
    expect(third?.signature).toBe(first?.signature);
    expect(third?.outcome).not.toBe(first?.outcome);
    expect(fourth?.signature).not.toBe(first?.signature);
    expect(first?.argsPreview).toBe('{"limit":10,"q":"loops"}');
    // A string result is read as itself, never escaped; past 1,024 characters it is keyed by its length and raw hash.
    expect(first?.resultText).toBe(page);
    expect(first?.resultKey).toMatch(new RegExp(`^#s${String(page.length)}:[0-9a-f]{28}$`));
  });

  it('read a non-string result as its form, with strings over 1,024 characters as tokens', () => {
    const [facts] = callsOf({ toolCalls: [{ name: 'read', result: { short: 'a"b', long: 'l'.repeat(1_025) } }] });
    expect(facts?.resultText).toMatch(/^\{"long":#s1025:[0-9a-f]{28},"short":"a\\"b"\}$/);
  });

  it('say whether the result and the error are text, and read an error with a string message as name: message', () => {
    const facts = callsOf({
      toolCalls: [
        { name: 'a', result: 'plain', error: 'timed out' },
        { name: 'b', result: { rows: [] }, error: new TypeError('bad "x"') },
        { name: 'c', error: { message: 'no name' } },
        { name: 'd', error: { code: 'ENOENT', message: 7 } },
        { name: 'e', error: { name: '', message: 'empty name' } },
        { name: 'f' },
      ],
    });
    expect(facts.map(({ resultText, resultIsText, errorText, errorIsText, failed }) => ({ resultText, resultIsText, errorText, errorIsText, failed }))).toEqual([
      { resultText: 'plain', resultIsText: true, errorText: 'timed out', errorIsText: true, failed: true },
      { resultText: '{"rows":[]}', resultIsText: false, errorText: 'TypeError: bad "x"', errorIsText: true, failed: true },
      { resultText: undefined, resultIsText: false, errorText: 'no name', errorIsText: true, failed: true },
      { resultText: undefined, resultIsText: false, errorText: '{"code":"ENOENT","message":7}', errorIsText: false, failed: true },
      { resultText: undefined, resultIsText: false, errorText: 'empty name', errorIsText: true, failed: true },
      { resultText: undefined, resultIsText: false, errorText: undefined, errorIsText: false, failed: false },
    ]);
  });

  it('read alike at any step index', () => {
    const step = { toolCalls: [{ name: 'n'.repeat(300), args: { text: 'a'.repeat(5000) }, result: { rows: ['r'.repeat(3000)] } }] };
    expect(callsOf(step, 0)).toEqual(callsOf(step, 5));
  });

  it('show at most 1,024 characters of a name, and key it by the whole name', () => {
    const [call, other] = callsOf({ toolCalls: [{ name: `${'n'.repeat(2_000)}a` }, { name: `${'n'.repeat(2_000)}b` }] });
    expect(call?.name).toBe(`${'n'.repeat(1_023)}…`);
    expect(call?.signature).not.toBe(other?.signature);
    expect(callsOf({ toolCalls: [{ name: 'n'.repeat(1_024) }] })[0]?.name).toBe('n'.repeat(1_024));
  });
});

describe('each run compares with a key of its own', () => {
  const longResult = { toolCalls: [{ name: 'read', result: 'z'.repeat(5_000) }] };
  const outcomeKeys = (guard: ReturnType<typeof createGuard>): string[] => memoryOf(guard).outcomes.map(([key]) => key);

  it('so two runs key a long result differently, and a restored run as the one that saved it', () => {
    const first = createGuard();
    const second = createGuard();
    first.check(longResult);
    second.check(longResult);
    expect(outcomeKeys(first)).toHaveLength(1);
    expect(outcomeKeys(first)).not.toEqual(outcomeKeys(second));
    const restored = createGuard({}, { snapshot: JSON.parse(JSON.stringify(first.snapshot())) as unknown });
    restored.check({ toolCalls: [{ name: 'other' }] });
    restored.check(longResult);
    expect(outcomeKeys(restored)).toHaveLength(2);
    expect(outcomeKeys(restored)[1]).toBe(outcomeKeys(first)[0]);
    expect(restored.summary().detectors['no-progress']).toMatchObject({ distinctOutcomes: 2 });
  });

  it('and a restored run goes on telling repeats by it', () => {
    const options: GuardOptions = { ...ONLY_REPEATS, repeatedToolCall: { threshold: 2, requireIdenticalResults: true } };
    const guard = createGuard(options);
    guard.check(longResult);
    const restored = createGuard(options, { snapshot: JSON.parse(JSON.stringify(guard.snapshot())) as unknown });
    expect(restored.check(longResult)).toMatchObject({ stop: true, evidence: { identicalResults: true } });
  });
});

describe('the totals a step adds to', () => {
  const HUGE = Number.MAX_VALUE;
  const totalsAfter = (...steps: GuardStep[]) => {
    const guard = createGuard({ ...ALL_OFF, now: () => 0 });
    for (const step of steps) guard.check(step);
    return guard.summary().totals;
  };

  it('add input plus output for a step without totalTokens, and totalTokens when given', () => {
    expect(totalsAfter({ usage: { inputTokens: 1, outputTokens: 2, totalTokens: 4, costUsd: 0.25 }, durationMs: 7 }, { usage: { inputTokens: 10 }, durationMs: 3 })).toEqual({
      inputTokens: 11,
      outputTokens: 2,
      totalTokens: 14,
      costUsd: 0.25,
      durationMs: 10,
    });
    expect(totalsAfter({ usage: { outputTokens: 5 } }, {}, { usage: {} })).toEqual({ inputTokens: 0, outputTokens: 5, totalTokens: 5, costUsd: 0, durationMs: 0 });
  });

  it('stop at the largest finite number, the input plus output fallback of a single step too', () => {
    const step = { usage: { inputTokens: HUGE, outputTokens: HUGE, costUsd: HUGE }, durationMs: HUGE };
    expect(totalsAfter(step, step)).toEqual({ inputTokens: HUGE, outputTokens: HUGE, totalTokens: HUGE, costUsd: HUGE, durationMs: HUGE });
    expect(totalsAfter({ usage: { inputTokens: HUGE, outputTokens: HUGE } }).totalTokens).toBe(HUGE);
  });

  it('keep summaries and budget evidence plain JSON after huge usage', () => {
    const guard = createGuard({ budget: { maxTotalTokens: 1e300 }, now: () => 0 });
    expect(guard.check({ usage: { totalTokens: HUGE } })).toMatchObject({ stop: true, code: 'BUDGET_TOTAL_TOKENS', evidence: { metric: 'totalTokens', value: HUGE, limit: 1e300 } });
    const verdict = guard.check({ usage: { inputTokens: HUGE } });
    expect(verdict).toMatchObject({ stop: true, evidence: { value: HUGE } });
    expectPlainJson(verdict);
    expectPlainJson(guard.summary());
    expect(guard.summary().totals).toEqual({ inputTokens: HUGE, outputTokens: 0, totalTokens: HUGE, costUsd: 0, durationMs: 0 });
  });

  it('are not changed by a peek', () => {
    const guard = createGuard({ ...ALL_OFF, budget: { maxCostUsd: 1 } });
    guard.check({ usage: { costUsd: 0.5 } });
    expect(guard.peek({ usage: { costUsd: 0.5 } })).toMatchObject({ stop: true, evidence: { value: 1 } });
    expect(guard.summary().totals.costUsd).toBe(0.5);
  });
});

describe('reading a step: bounded work on huge inputs', () => {
  it('reads at most 10,000 tool calls of a step, and says how many it held', () => {
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
        // The holes before the one call are calls without a name: a caller's mistake, named once.
        {
          code: 'INPUT_SHAPE',
          field: 'toolCalls[].name',
          detail: 'The step\'s "toolCalls[].name" was not read: a call without a string "name" is not read.',
        },
      ],
    });
    expect(guard.history[0]?.toolCalls).toEqual([{ name: 'search', args: { query: 'x' } }]);
    expect(guard.summary().toolCalls).toBe(1);
    const exactly = Array.from({ length: 10_000 }, () => ({ name: 'a' }));
    expect(createGuard(ALL_OFF).check({ toolCalls: exactly })).toEqual({ stop: false });
  });

  it('checks a step with a 1,000,000-element argument (five times what one value may read) and sees the repeat', () => {
    const args = { rows: new Array<number>(1_000_000).fill(0) };
    const guard = createGuard(ONLY_REPEATS);
    expect(guard.check({ toolCalls: [{ name: 'load', args }] })).toEqual({ stop: false });
    expect(guard.check({ toolCalls: [{ name: 'load', args }] })).toMatchObject({ stop: true, reason: 'repeated-tool-call' });
  });

  it('checks steps with 200,000-level arguments, results and errors', () => {
    const deep = nested(200_000, 0);
    const guard = createGuard(ONLY_REPEATS);
    expect(guard.check({ toolCalls: [{ name: 'walk', args: deep, result: deep, error: deep }] })).toEqual({ stop: false });
    // Beyond the depth read, the leaves differ unseen: the same call, with the same answer.
    const deeper = nested(200_000, 1);
    expect(guard.check({ toolCalls: [{ name: 'walk', args: deeper, result: deeper, error: deeper }] })).toMatchObject({ stop: true });
  });

  it('compares 2 MB string arguments in full, by length and hash, with evidence that stays short', () => {
    const text = 'x'.repeat(2 * 1024 * 1024);
    const changedAtEnd = `${text.slice(0, -1)}y`;
    expect(canonicalize(changedAtEnd)).not.toBe(canonicalize(text));
    expect(stableHash(changedAtEnd)).not.toBe(stableHash(text));
    const guard = createGuard(ONLY_REPEATS);
    guard.check({ toolCalls: [{ name: 'write', args: { text } }] });
    expect(guard.check({ toolCalls: [{ name: 'write', args: { text: changedAtEnd } }] })).toEqual({ stop: false });
    const verdict = guard.check({ toolCalls: [{ name: 'write', args: { text: changedAtEnd } }] });
    expect(verdict).toMatchObject({ stop: true, reason: 'repeated-tool-call', evidence: { count: 2 } });
    expect(JSON.stringify(verdict).length).toBeLessThan(1_000);
  });

  it('checks a step whose text and finish reason are megabytes long', () => {
    const huge = `${' '.repeat(512 * 1024)}Other${'_'.repeat(512 * 1024)}`;
    const verdict = createGuard({ finishReason: { otherPolicy: 'stop' } }).check({ text: huge, finishReason: huge });
    expect(verdict).toMatchObject({ stop: true, code: 'FINISH_OTHER' });
  });
});

describe("reading a step within one step's reading budget", () => {
  // 99,998 numbers, the array and the result: 100,000 values a call, so 20 calls spend the 2,000,000 a step may read.
  const dumps = (count: number): { name: string; args: number[]; result: string }[] =>
    Array.from({ length: count }, (_, index) => ({ name: 'dump', args: new Array<number>(99_998).fill(index), result: 'ok' }));

  it('makes each call read in part unlike every other, read no result of it, and says how many there were', () => {
    const calls = callsOf({ toolCalls: dumps(22) }, 7);
    expect(new Set(calls.map((call) => call.signature)).size).toBe(22);
    expect(calls.slice(20).map((call) => call.signature.slice(-9))).toEqual(['\u0000cut:7:20', '\u0000cut:7:21']);
    expect(calls.slice(19).map((call) => [call.resultText, call.errorText])).toEqual([['ok', undefined], [undefined, undefined], [undefined, undefined]]);
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: { threshold: 2 } });
    expect(guard.check({ toolCalls: dumps(22) })).toEqual({
      stop: false,
      warnings: [
        {
          code: 'INPUT_LIMIT',
          limit: 'readPerStep',
          maximumValues: 2_000_000,
          maximumCharacters: 67_108_864,
          cutCalls: 2,
          detail: "The step's tool calls held more than one step may read (2000000 values or 67108864 characters); 2 calls were read in part and compared with no other.",
        },
      ],
    });
    // Without the mark, the cut calls would all read "[Truncated]" and repeat each other, and the step after them. Of 21
    // calls, 20 are read whole.
    expect(guard.check({ toolCalls: dumps(21) })).toMatchObject({
      stop: false,
      warnings: [{ code: 'INPUT_LIMIT', cutCalls: 1, detail: expect.stringMatching(/; 1 call was read in part/) as unknown }],
    });
  });

  it('reads a step of 1,000 calls that share one sparse million-slot array within the budget', () => {
    const sparse = new Array<unknown>(1_000_000);
    sparse[999_999] = 'end';
    const guard = createGuard(ALL_OFF);
    const verdict = guard.check({ toolCalls: Array.from({ length: 1_000 }, (_, index) => ({ name: 'load', args: { sparse, index } })) });
    expect(verdict).toMatchObject({ stop: false, warnings: [{ code: 'INPUT_LIMIT', limit: 'readPerStep' }] });
    expect(guard.summary().toolCalls).toBe(1_000);
  });
});

describe('reading a step: no prototype pollution', () => {
  expectPrototypesUntouched();

  it('leaves Object.prototype untouched after arguments, results and errors with dangerous own keys', () => {
    const guard = createGuard({ maxSteps: false, custom: (history) => (history.length > 100 ? { stop: true } : undefined) });
    for (const payload of dangerousPayloads()) {
      const step = { toolCalls: [{ name: 'merge', args: payload, result: payload, error: payload }], text: 'x' };
      guard.check(step);
      guard.check(JSON.parse(JSON.stringify({ ...step, toolCalls: [{ name: 'merge', args: { nested: payload } }] })) as GuardStep);
    }
    guard.summary();
    guard.snapshot();
    expect(guard.history).toHaveLength(12);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('counts repeats of calls whose arguments differ only under __proto__ correctly', () => {
    const guard = createGuard(ONLY_REPEATS);
    guard.check({ toolCalls: [{ name: 'merge', args: JSON.parse('{"__proto__": {"role": "user"}}') }] });
    expect(guard.check({ toolCalls: [{ name: 'merge', args: JSON.parse('{"__proto__": {"role": "admin"}}') }] })).toEqual({ stop: false });
    expect(guard.check({ toolCalls: [{ name: 'merge', args: JSON.parse('{"__proto__": {"role": "admin"}}') }] })).toMatchObject({ stop: true, reason: 'repeated-tool-call' });
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
    const call = guard.history[0]?.toolCalls?.[0];
    expect(call?.args).toBe(args);
    expect(Object.keys(call?.args as object)).toEqual(['__proto__', 'constructor', 'prototype']);
  });
});
