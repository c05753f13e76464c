import { describe, expect, it } from 'vitest';
import { createGuard } from '../../src/index.js';
import type { CustomDetector, GuardOptions } from '../../src/index.js';
import { resolveOptions } from '../../src/options/resolve-options.js';
import { expectPrototypesUntouched } from '../support/prototype-pollution.js';

describe('resolveOptions', () => {
  it('fills in every default and freezes the result', () => {
    const resolved = resolveOptions(undefined);
    expect(resolved).toEqual({
      maxSteps: { limit: 50 },
      repeatedToolCall: { threshold: 3, requireIdenticalResults: false, ignoreErrors: false, warnBefore: 1 },
      oscillation: { maxPeriod: 3, repeats: 3, warnBefore: 1 },
      noProgress: { threshold: 3, warnBefore: 1 },
      stagnation: { window: 20, maxNew: 8, writeArgsLength: 70, warnBefore: 1 },
      finishReason: { terminal: ['stop', 'length', 'content-filter', 'error'], otherPolicy: 'stop-if-text-only' },
      budget: { limits: [] },
      custom: [],
      now: Date.now,
    });
    expect(Object.isFrozen(resolved)).toBe(true);
  });

  it('switches detectors off with false and keeps defaults for true or an empty object', () => {
    const resolved = resolveOptions({ maxSteps: false, repeatedToolCall: false, oscillation: true, noProgress: {}, finishReason: false, budget: false });
    expect(resolved).toMatchObject({
      maxSteps: false,
      repeatedToolCall: false,
      oscillation: { maxPeriod: 3, repeats: 3, warnBefore: 1 },
      noProgress: { threshold: 3, warnBefore: 1 },
      finishReason: false,
      budget: false,
    });
  });

  it('resolves budget limits in checking order with their warning ratios', () => {
    expect(
      resolveOptions({ budget: { warnAt: 0.5, maxDurationMs: 10, maxCostUsd: { limit: 2, warnAt: 0.9 }, maxTotalTokens: { limit: 3 } } }).budget,
    ).toEqual({
      limits: [
        { metric: 'totalTokens', code: 'BUDGET_TOTAL_TOKENS', limit: 3, warnAt: 0.5, warnFrom: 1.5 },
        { metric: 'costUsd', code: 'BUDGET_COST_USD', limit: 2, warnAt: 0.9, warnFrom: 1.8 },
        { metric: 'durationMs', code: 'BUDGET_DURATION_MS', limit: 10, warnAt: 0.5, warnFrom: 5 },
      ],
    });
  });

  it('takes one custom detector or a list', () => {
    const rule = () => undefined;
    expect(resolveOptions({ custom: rule }).custom).toEqual([rule]);
    expect(resolveOptions({ custom: [rule, rule] }).custom).toEqual([rule, rule]);
  });

  it('accepts the boundary values', () => {
    expect(() =>
      createGuard({
        maxSteps: 1,
        repeatedToolCall: { threshold: 2 },
        oscillation: { maxPeriod: 2, repeats: 2 },
        noProgress: { threshold: 2 },
        budget: { warnAt: 1, maxCostUsd: Number.MIN_VALUE },
        finishReason: { terminal: [] },
      }),
    ).not.toThrow();
  });

  const invalid: [string, unknown, string][] = [
    ['options', 5, 'option "options" must be an object, got 5.'],
    ['an unknown option', { maxStep: 3 }, 'unknown option "maxStep"'],
    ['maxSteps 0', { maxSteps: 0 }, 'option "maxSteps" must be an integer of at least 1, got 0.'],
    ['maxSteps 2.5', { maxSteps: 2.5 }, 'option "maxSteps" must be an integer of at least 1, got 2.5.'],
    ['maxSteps true', { maxSteps: true }, 'option "maxSteps" must be an integer of at least 1, got true.'],
    ['repeatedToolCall.threshold 1', { repeatedToolCall: { threshold: 1 } }, 'option "repeatedToolCall.threshold" must be an integer of at least 2, got 1.'],
    ['repeatedToolCall.ignoreErrors', { repeatedToolCall: { ignoreErrors: 'yes' } }, 'option "repeatedToolCall.ignoreErrors" must be true or false, got "yes".'],
    ['repeatedToolCall an array', { repeatedToolCall: [] }, 'option "repeatedToolCall" must be an object, got an array.'],
    ['an unknown nested option', { oscillation: { period: 2 } }, 'unknown option "oscillation.period"'],
    ['oscillation.repeats NaN', { oscillation: { repeats: Number.NaN } }, 'option "oscillation.repeats" must be an integer of at least 2, got NaN.'],
    ['noProgress.threshold', { noProgress: { threshold: null } }, 'option "noProgress.threshold" must be an integer of at least 2, got null.'],
    ['finishReason.terminal not an array', { finishReason: { terminal: 'stop' } }, 'option "finishReason.terminal" must be an array of strings, got "stop".'],
    ['finishReason.terminal[1]', { finishReason: { terminal: ['stop', 3] } }, 'option "finishReason.terminal[1]" must be a string of at most 1000 characters, got 3.'],
    ['finishReason.otherPolicy', { finishReason: { otherPolicy: 'ignore' } }, 'option "finishReason.otherPolicy" must be one of "stop", "continue", "stop-if-text-only", got "ignore".'],
    ['budget.maxCostUsd negative', { budget: { maxCostUsd: -1 } }, 'option "budget.maxCostUsd" must be a finite number greater than 0, got -1.'],
    ['budget.maxTotalTokens 0', { budget: { maxTotalTokens: 0 } }, 'option "budget.maxTotalTokens" must be a finite number greater than 0, got 0.'],
    ['budget.maxDurationMs.limit', { budget: { maxDurationMs: { limit: Number.POSITIVE_INFINITY } } }, 'option "budget.maxDurationMs.limit" must be a finite number greater than 0, got Infinity.'],
    ['budget.maxCostUsd.warnAt', { budget: { maxCostUsd: { limit: 1, warnAt: 2 } } }, 'option "budget.maxCostUsd.warnAt" must be a number greater than 0 and at most 1, got 2.'],
    ['budget.warnAt 0', { budget: { warnAt: 0 } }, 'option "budget.warnAt" must be a number greater than 0 and at most 1, got 0.'],
    ['budget.maxInputTokens bigint', { budget: { maxInputTokens: 10n } }, 'option "budget.maxInputTokens" must be a finite number greater than 0, got 10n.'],
    ['custom not a function', { custom: 'rule' }, 'option "custom" must be a function or an array of functions, got "rule".'],
    ['custom[1] not a function', { custom: [() => undefined, {}] }, 'option "custom[1]" must be a function, got a value of type object.'],
    ['now not a function', { now: 5 }, 'option "now" must be a function returning milliseconds, got 5.'],
    ['budget a function', { budget: () => 1 }, 'option "budget" must be an object, got a function.'],
  ];

  it.each(invalid)('throws a TypeError naming the option: %s', (_label, options, message) => {
    expect(() => createGuard(options as GuardOptions)).toThrow(TypeError);
    expect(() => createGuard(options as GuardOptions)).toThrow(message);
  });
});

const rule = (): undefined => undefined;

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function sparse(items: Record<number, unknown>, length: number): unknown[] {
  const list: unknown[] = [];
  list.length = length;
  for (const [index, item] of Object.entries(items)) list[Number(index)] = item;
  return list;
}

function throwingGetter(key: string): object {
  return Object.defineProperty({}, key, {
    enumerable: true,
    get() {
      throw new Error('read refused');
    },
  });
}

/** Every row: what was passed, the option path the message must name, and what it must say was expected. */
const INVALID: readonly (readonly [label: string, options: unknown, path: string, expected: string])[] = [
  // The options object itself.
  ['options null', null, 'options', 'must be an object, got null'],
  ['options a string', 'fast', 'options', 'must be an object, got "fast"'],
  ['options a number', 5, 'options', 'must be an object, got 5'],
  ['options an array', [], 'options', 'must be an object, got an array'],
  ['options a function', rule, 'options', 'must be an object, got a function'],
  ['options a revoked proxy', revoked(), 'options', 'must be an object'],
  ['an unknown top-level option', { maxStep: 3 }, 'maxStep', 'known: maxSteps, repeatedToolCall'],
  // maxSteps: an integer of at least 1, or false.
  ['maxSteps 0', { maxSteps: 0 }, 'maxSteps', 'must be an integer of at least 1, got 0'],
  ['maxSteps -3', { maxSteps: -3 }, 'maxSteps', 'must be an integer of at least 1, got -3'],
  ['maxSteps 2.5', { maxSteps: 2.5 }, 'maxSteps', 'must be an integer of at least 1, got 2.5'],
  ['maxSteps NaN', { maxSteps: Number.NaN }, 'maxSteps', 'must be an integer of at least 1, got NaN'],
  ['maxSteps Infinity', { maxSteps: Infinity }, 'maxSteps', 'must be an integer of at least 1, got Infinity'],
  ['maxSteps a numeric string', { maxSteps: '10' }, 'maxSteps', 'must be an integer of at least 1, got "10"'],
  ['maxSteps a bigint', { maxSteps: 10n }, 'maxSteps', 'must be an integer of at least 1, got 10n'],
  ['maxSteps true', { maxSteps: true }, 'maxSteps', 'must be an integer of at least 1, got true'],
  ['maxSteps null', { maxSteps: null }, 'maxSteps', 'must be an integer of at least 1, got null'],
  ['maxSteps a boxed number', { maxSteps: Object(5) as unknown }, 'maxSteps', 'must be an integer of at least 1, got a value of type object'],
  ['maxSteps behind a throwing getter', throwingGetter('maxSteps'), 'maxSteps', 'could not be read'],
  // repeatedToolCall.
  ['repeatedToolCall a number', { repeatedToolCall: 3 }, 'repeatedToolCall', 'must be an object, got 3'],
  ['repeatedToolCall an array', { repeatedToolCall: [3] }, 'repeatedToolCall', 'must be an object, got an array'],
  ['repeatedToolCall.threshold 1', { repeatedToolCall: { threshold: 1 } }, 'repeatedToolCall.threshold', 'must be an integer of at least 2, got 1'],
  ['repeatedToolCall.threshold 3.5', { repeatedToolCall: { threshold: 3.5 } }, 'repeatedToolCall.threshold', 'must be an integer of at least 2, got 3.5'],
  ['repeatedToolCall.requireIdenticalResults a string', { repeatedToolCall: { requireIdenticalResults: 'yes' } }, 'repeatedToolCall.requireIdenticalResults', 'must be true or false, got "yes"'],
  ['repeatedToolCall.ignoreErrors 1', { repeatedToolCall: { ignoreErrors: 1 } }, 'repeatedToolCall.ignoreErrors', 'must be true or false, got 1'],
  ['repeatedToolCall.ignoreErrors null', { repeatedToolCall: { ignoreErrors: null } }, 'repeatedToolCall.ignoreErrors', 'must be true or false, got null'],
  ['an unknown repeatedToolCall option', { repeatedToolCall: { treshold: 3 } }, 'repeatedToolCall.treshold', 'known: threshold, requireIdenticalResults, ignoreErrors'],
  ['repeatedToolCall.threshold behind a throwing getter', { repeatedToolCall: throwingGetter('threshold') }, 'repeatedToolCall.threshold', 'could not be read'],
  // oscillation.
  ['oscillation a string', { oscillation: 'on' }, 'oscillation', 'must be an object, got "on"'],
  ['oscillation.maxPeriod 1', { oscillation: { maxPeriod: 1 } }, 'oscillation.maxPeriod', 'must be an integer from 2 to 64, got 1'],
  ['oscillation.maxPeriod past its maximum', { oscillation: { maxPeriod: 65 } }, 'oscillation.maxPeriod', 'must be an integer from 2 to 64, got 65'],
  ['oscillation.maxPeriod 1e9', { oscillation: { maxPeriod: 1e9 } }, 'oscillation.maxPeriod', 'must be an integer from 2 to 64, got 1000000000'],
  ['oscillation.maxPeriod 2**32', { oscillation: { maxPeriod: 2 ** 32 } }, 'oscillation.maxPeriod', 'must be an integer from 2 to 64, got 4294967296'],
  ['maxSteps past 2^53', { maxSteps: 2 ** 53 }, 'maxSteps', 'must be an integer of at least 1, got 9007199254740992'],
  ['repeatedToolCall.threshold past 2^53', { repeatedToolCall: { threshold: 2 ** 60 } }, 'repeatedToolCall.threshold', 'must be an integer of at least 2'],
  ['historyLimit past 2^53', { historyLimit: 2 ** 53 }, 'historyLimit', 'must be an integer of at least 1, or false'],
  ['custom with too many rules', { custom: Array.from({ length: 1001 }, () => () => undefined) }, 'custom', 'must be a function or an array of functions of at most 1000 items, got an array'],
  ['finishReason.terminal with too many reasons', { finishReason: { terminal: Array.from({ length: 1001 }, () => 'x') } }, 'finishReason.terminal', 'must be an array of strings of at most 1000 items'],
  ['finishReason.terminal a sparse array of 2^32 - 1 slots', { finishReason: { terminal: new Array<string>(2 ** 32 - 1) } }, 'finishReason.terminal', 'of at most 1000 items'],
  ['finishReason.terminal[0] too long', { finishReason: { terminal: ['x'.repeat(1001)] } }, 'finishReason.terminal[0]', 'must be a string of at most 1000 characters'],
  ['oscillation.repeats 2.01', { oscillation: { repeats: 2.01 } }, 'oscillation.repeats', 'must be an integer of at least 2, got 2.01'],
  ['oscillation.repeats a string', { oscillation: { repeats: '3' } }, 'oscillation.repeats', 'must be an integer of at least 2, got "3"'],
  // noProgress.
  ['noProgress null', { noProgress: null }, 'noProgress', 'must be an object, got null'],
  ['noProgress.threshold -2', { noProgress: { threshold: -2 } }, 'noProgress.threshold', 'must be an integer of at least 2, got -2'],
  // finishReason.
  ['finishReason.terminal a string', { finishReason: { terminal: 'stop' } }, 'finishReason.terminal', 'must be an array of strings, got "stop"'],
  ['finishReason.terminal a Set', { finishReason: { terminal: new Set(['stop']) } }, 'finishReason.terminal', 'must be an array of strings, got a value of type object'],
  ['finishReason.terminal[1] a number', { finishReason: { terminal: ['stop', 7] } }, 'finishReason.terminal[1]', 'must be a string of at most 1000 characters, got 7'],
  ['finishReason.terminal[1] a hole', { finishReason: { terminal: sparse({ 0: 'stop', 2: 'length' }, 3) } }, 'finishReason.terminal[1]', 'must be a string of at most 1000 characters, got undefined'],
  ['finishReason.otherPolicy unknown', { finishReason: { otherPolicy: 'halt' } }, 'finishReason.otherPolicy', 'must be one of "stop", "continue", "stop-if-text-only", got "halt"'],
  ['finishReason.otherPolicy null', { finishReason: { otherPolicy: null } }, 'finishReason.otherPolicy', 'must be one of "stop", "continue", "stop-if-text-only", got null'],
  ['finishReason.otherPolicy in capitals', { finishReason: { otherPolicy: 'STOP' } }, 'finishReason.otherPolicy', 'must be one of "stop", "continue", "stop-if-text-only", got "STOP"'],
  // budget.
  ['budget a string', { budget: 'lots' }, 'budget', 'must be an object, got "lots"'],
  ['budget.maxTotalTokens 0', { budget: { maxTotalTokens: 0 } }, 'budget.maxTotalTokens', 'must be a finite number greater than 0, got 0'],
  ['budget.maxInputTokens negative', { budget: { maxInputTokens: -100 } }, 'budget.maxInputTokens', 'must be a finite number greater than 0, got -100'],
  ['budget.maxOutputTokens NaN', { budget: { maxOutputTokens: Number.NaN } }, 'budget.maxOutputTokens', 'must be a finite number greater than 0, got NaN'],
  ['budget.maxCostUsd Infinity', { budget: { maxCostUsd: Infinity } }, 'budget.maxCostUsd', 'must be a finite number greater than 0, got Infinity'],
  ['budget.maxDurationMs a string', { budget: { maxDurationMs: '60000' } }, 'budget.maxDurationMs', 'must be a finite number greater than 0, got "60000"'],
  ['budget.maxCostUsd an array', { budget: { maxCostUsd: [1] } }, 'budget.maxCostUsd', 'must be a finite number greater than 0, got an array'],
  ['budget.maxCostUsd null', { budget: { maxCostUsd: null } }, 'budget.maxCostUsd', 'must be a finite number greater than 0, got null'],
  ['budget.maxCostUsd.limit missing', { budget: { maxCostUsd: { warnAt: 0.5 } } }, 'budget.maxCostUsd.limit', 'must be a finite number greater than 0, got undefined'],
  ['budget.maxCostUsd.limit 0', { budget: { maxCostUsd: { limit: 0 } } }, 'budget.maxCostUsd.limit', 'must be a finite number greater than 0, got 0'],
  ['budget.maxTotalTokens.warnAt 0', { budget: { maxTotalTokens: { limit: 10, warnAt: 0 } } }, 'budget.maxTotalTokens.warnAt', 'must be a number greater than 0 and at most 1, got 0'],
  ['budget.maxTotalTokens.warnAt 1.5', { budget: { maxTotalTokens: { limit: 10, warnAt: 1.5 } } }, 'budget.maxTotalTokens.warnAt', 'must be a number greater than 0 and at most 1, got 1.5'],
  ['an unknown budget limit option', { budget: { maxTotalTokens: { limit: 10, ratio: 0.5 } } }, 'budget.maxTotalTokens.ratio', 'known: limit, warnAt'],
  ['budget.warnAt negative', { budget: { warnAt: -0.2 } }, 'budget.warnAt', 'must be a number greater than 0 and at most 1, got -0.2'],
  ['budget.warnAt NaN', { budget: { warnAt: Number.NaN } }, 'budget.warnAt', 'must be a number greater than 0 and at most 1, got NaN'],
  ['budget.warnAt a percentage string', { budget: { warnAt: '80%' } }, 'budget.warnAt', 'must be a number greater than 0 and at most 1, got "80%"'],
  ['an unknown budget option', { budget: { maxTokens: 100 } }, 'budget.maxTokens', 'known: maxTotalTokens, maxInputTokens'],
  // custom and now.
  ['custom a string', { custom: 'rule' }, 'custom', 'must be a function or an array of functions, got "rule"'],
  ['custom an object', { custom: { check: rule } }, 'custom', 'must be a function or an array of functions, got a value of type object'],
  ['custom[1] null', { custom: [rule, null] }, 'custom[1]', 'must be a function, got null'],
  ['custom[1] a hole', { custom: sparse({ 0: rule, 2: rule }, 3) }, 'custom[1]', 'must be a function, got undefined'],
  ['now a number', { now: 1_700_000_000_000 }, 'now', 'must be a function returning milliseconds, got 1700000000000'],
  ['now a Date', { now: new Date(0) }, 'now', 'must be a function returning milliseconds, got a value of type object'],
];

describe('invalid options', () => {
  it('has a table of at least 30 invalid option sets', () => {
    expect(INVALID.length).toBeGreaterThanOrEqual(30);
  });

  it.each(INVALID)('%s: throws a TypeError naming the option path and what was expected', (_label, options, path, expected) => {
    let thrown: unknown;
    try {
      createGuard(options as GuardOptions);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    const message = (thrown as TypeError).message;
    expect(message).toMatch(/^agent-loopguard: /);
    expect(message).toContain(`option "${path}"`);
    expect(message).toContain(expected);
  });
});

describe('valid options are read, not changed', () => {
  it('leaves the caller’s custom and terminal lists unfrozen and ignores later changes to them', () => {
    const rules: CustomDetector[] = [rule];
    const terminal = ['stop'];
    const guard = createGuard({ custom: rules, finishReason: { terminal } });
    expect(Object.isFrozen(rules)).toBe(false);
    expect(Object.isFrozen(terminal)).toBe(false);
    rules.push(() => ({ stop: true }));
    terminal.push('other');
    expect(guard.check({ text: 'hi', finishReason: 'other', toolCalls: [{ name: 'a' }] })).toEqual({ stop: false });
  });
});

describe('options: no prototype pollution', () => {
  expectPrototypesUntouched();

  it.each([
    ['__proto__', '{"__proto__": {"maxSteps": 1}}', '__proto__'],
    ['constructor', '{"constructor": {"maxSteps": 1}}', 'constructor'],
    ['prototype', '{"prototype": {"maxSteps": 1}}', 'prototype'],
    ['a nested __proto__', '{"repeatedToolCall": {"__proto__": {"threshold": 2}}}', 'repeatedToolCall.__proto__'],
    ['a nested constructor', '{"oscillation": {"constructor": {"repeats": 2}}}', 'oscillation.constructor'],
    ['a __proto__ in a budget limit', '{"budget": {"maxCostUsd": {"limit": 1, "__proto__": {"warnAt": 0.1}}}}', 'budget.maxCostUsd.__proto__'],
    ['a prototype in the budget', '{"budget": {"prototype": {"maxTotalTokens": 1}}}', 'budget.prototype'],
    ['a __proto__ in noProgress', '{"noProgress": {"__proto__": {"threshold": 2}}}', 'noProgress.__proto__'],
    ['a __proto__ in finishReason', '{"finishReason": {"__proto__": {"otherPolicy": "continue"}}}', 'finishReason.__proto__'],
  ])('rejects an own %s key in options as an unknown option, never applying it', (_label, json, path) => {
    const options = JSON.parse(json) as GuardOptions;
    expect(() => createGuard(options)).toThrow(TypeError);
    expect(() => createGuard(options)).toThrow(`unknown option "${path}"`);
  });

  it('reads only own option properties, so a polluted Object.prototype changes nothing', () => {
    const prototype = Object.prototype as Record<string, unknown>;
    const keys = ['maxSteps', 'threshold', 'otherPolicy', 'maxTotalTokens', 'warnAt', 'custom', 'now'];
    const expectedDetectors = createGuardSummaryWithoutPollution();
    try {
      prototype.maxSteps = 1;
      prototype.threshold = 2;
      prototype.otherPolicy = 'stop';
      prototype.maxTotalTokens = 1;
      prototype.warnAt = 0.01;
      prototype.custom = () => ({ stop: true });
      prototype.now = 'not a function';
      const guard = createGuard({ repeatedToolCall: {}, noProgress: {}, finishReason: {}, budget: {} });
      const step = { text: 'hello', finishReason: 'other-reason', toolCalls: [{ name: 'a' }], usage: { totalTokens: 5 } };
      expect(guard.check(step)).toEqual({ stop: false });
      expect(guard.summary().detectors).toEqual(expectedDetectors);
    } finally {
      for (const key of keys) Reflect.deleteProperty(prototype, key);
    }
  });

  it('ignores options inherited from a prototype of the options object', () => {
    const inherited = Object.create({ maxSteps: 1, budget: { maxTotalTokens: 1 } }) as GuardOptions;
    const guard = createGuard(inherited);
    expect(guard.check({ usage: { totalTokens: 100 } })).toEqual({ stop: false });
  });
});

/** What summary().detectors says for the same options when nothing is polluted. */
function createGuardSummaryWithoutPollution(): unknown {
  const guard = createGuard({ repeatedToolCall: {}, noProgress: {}, finishReason: {}, budget: {} });
  guard.check({ text: 'hello', finishReason: 'other-reason', toolCalls: [{ name: 'a' }], usage: { totalTokens: 5 } });
  return guard.summary().detectors;
}
