import { afterEach, describe, expect, it } from 'vitest';
import { canonicalize, createGuard, stableHash } from '../../src/index.js';
import type { GuardOptions, GuardStep } from '../../src/index.js';

/** Names and descriptors of a prototype's own properties, to compare before and after. */
function snapshot(target: object): Map<string | symbol, PropertyDescriptor | undefined> {
  return new Map(Reflect.ownKeys(target).map((key) => [key, Object.getOwnPropertyDescriptor(target, key)]));
}

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype] as const;

/** Objects with own `__proto__`, `constructor` and `prototype` keys, as `JSON.parse` and spreads create them. */
function dangerousPayloads(): unknown[] {
  return [
    JSON.parse('{"__proto__": {"polluted": "yes", "isAdmin": true}}') as unknown,
    JSON.parse('{"constructor": {"prototype": {"polluted": "yes"}}}') as unknown,
    JSON.parse('{"prototype": {"polluted": "yes"}, "__proto__": null}') as unknown,
    JSON.parse('[{"__proto__": {"polluted": "yes"}}, {"a": {"__proto__": {"toString": "x"}}}]') as unknown,
    new Map([['__proto__', { polluted: 'yes' }]]),
    { ...(JSON.parse('{"__proto__": {"polluted": "yes"}}') as object) },
  ];
}

describe('no prototype pollution', () => {
  const before = PROTOTYPES.map(snapshot);

  afterEach(() => {
    PROTOTYPES.forEach((prototype, index) => {
      expect(snapshot(prototype)).toEqual(before[index]);
    });
  });

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

  it('treats an own __proto__ key as data: it is compared like any other key', () => {
    const withProto = JSON.parse('{"__proto__": {"a": 1}}') as unknown;
    const sameProto = JSON.parse('{"__proto__": {"a": 1}}') as unknown;
    const otherProto = JSON.parse('{"__proto__": {"a": 2}}') as unknown;
    expect(canonicalize(withProto)).toBe(canonicalize(sameProto));
    expect(canonicalize(withProto)).not.toBe(canonicalize(otherProto));
    expect(canonicalize(withProto)).not.toBe(canonicalize({}));
    expect(canonicalize(withProto)).not.toBe(canonicalize({ a: 1 }));
    expect(canonicalize({ constructor: 'x' })).not.toBe(canonicalize({}));
    expect(canonicalize({ prototype: 1 })).not.toBe(canonicalize({ prototype: 2 }));
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
