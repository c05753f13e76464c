import { describe, expect, it } from 'vitest';
import { createGuard, DEFAULT_OPTIONS, stableHash, type CustomDetector, type GuardOptions } from '../../src/index.js';
import { expectPrototypesUntouched } from '../support/prototype-pollution.js';
import { ALL_OFF } from '../support/step-builder.js';

/** What a guard's summary says of its detectors before any step: the options it resolved, defaults filled in. */
const detectorsOf = (options?: GuardOptions): Record<string, unknown> => createGuard(options).summary().detectors;

describe('resolving options', () => {
  it('fills in every default, each detector on but custom rules', () => {
    expect(detectorsOf()).toStrictEqual({
      'finish-reason': { lastFinishReason: null, otherPolicy: 'stop-if-text-only' },
      budget: { limits: [] },
      'max-steps': { steps: 0, limit: 50 },
      'repeated-tool-call': { tool: null, count: 0, threshold: 3 },
      oscillation: { maxPeriod: 3, repeats: 3, longestMatch: 0 },
      'no-progress': { stalledSteps: 0, distinctOutcomes: 0, threshold: 3 },
      stagnation: { window: 20, maxNew: 9, steps: 0, newInWindow: 0, distinctFailures: 0 },
    });
    expect(detectorsOf({})).toStrictEqual(detectorsOf());
    expect(detectorsOf(undefined)).toStrictEqual(detectorsOf());
  });

  it('switches detectors off with false, and keeps defaults for true, undefined or an empty object', () => {
    // `true` is not in the types, and taken for the defaults all the same.
    const detectors = detectorsOf({ maxSteps: false, repeatedToolCall: false, oscillation: true, noProgress: {}, finishReason: false, budget: false, stagnation: undefined } as unknown as GuardOptions);
    expect(Object.keys(detectors)).toEqual(['oscillation', 'no-progress', 'stagnation']);
    expect(detectors).toMatchObject({ oscillation: { maxPeriod: 3, repeats: 3 }, 'no-progress': { threshold: 3 }, stagnation: { window: 20, maxNew: 9 } });
  });

  it('takes what is given over the defaults', () => {
    expect(
      detectorsOf({
        maxSteps: 7,
        repeatedToolCall: { threshold: 2 },
        oscillation: { maxPeriod: 64, repeats: 5 },
        noProgress: { threshold: 9 },
        stagnation: { window: 1_000, maxNew: 999 },
        finishReason: { otherPolicy: 'continue' },
      }),
    ).toMatchObject({
      'max-steps': { limit: 7 },
      'repeated-tool-call': { threshold: 2 },
      oscillation: { maxPeriod: 64, repeats: 5 },
      'no-progress': { threshold: 9 },
      stagnation: { window: 1_000, maxNew: 999 },
      'finish-reason': { otherPolicy: 'continue' },
    });
  });

  it('keeps stagnation.maxNew below its window: the default shrinks with a small window, and a larger value is refused', () => {
    expect(detectorsOf({ stagnation: { window: 5 } })).toMatchObject({ stagnation: { window: 5, maxNew: 4 } });
    expect(detectorsOf({ stagnation: { window: 9 } })).toMatchObject({ stagnation: { window: 9, maxNew: 8 } });
    expect(detectorsOf({ stagnation: { window: 5, maxNew: 4 } })).toMatchObject({ stagnation: { maxNew: 4 } });
    expect(() => createGuard({ stagnation: { window: 5, maxNew: 5 } })).toThrow('option "stagnation.maxNew" must be an integer from 0 to 4, got 5.');
    expect(() => createGuard({ stagnation: { window: 1_001 } })).toThrow('option "stagnation.window" must be an integer from 2 to 1000, got 1001.');
    expect(() => createGuard({ stagnation: { writeArgsLength: -1 } })).toThrow('option "stagnation.writeArgsLength" must be an integer of at least 0, got -1.');
  });

  it('resolves budget limits in checking order, each warning from its own warnAt or the shared one', () => {
    const guard = createGuard({
      ...ALL_OFF,
      budget: { warnAt: 0.5, maxDurationMs: 10, maxCostUsd: { limit: 2, warnAt: 0.9 }, maxTotalTokens: { limit: 3 } },
      now: () => 0,
    });
    expect(guard.summary().detectors.budget).toEqual({
      limits: [
        { metric: 'totalTokens', limit: 3 },
        { metric: 'costUsd', limit: 2 },
        { metric: 'durationMs', limit: 10 },
      ],
    });
    expect(guard.peek({ usage: { totalTokens: 1.4, costUsd: 1.7 }, durationMs: 4.9 })).toEqual({ stop: false });
    expect(guard.peek({ usage: { totalTokens: 1.5, costUsd: 1.8 }, durationMs: 5 }).warnings?.map((warning) => warning.code === 'BUDGET_WARNING' && warning.metric)).toEqual([
      'totalTokens',
      'costUsd',
      'durationMs',
    ]);
  });

  it('takes one custom rule or a list of them', () => {
    const rule: CustomDetector = () => undefined;
    expect(detectorsOf({ custom: rule })).toMatchObject({ custom: { detectors: 1, stops: 0 } });
    expect(detectorsOf({ custom: [rule, rule] })).toMatchObject({ custom: { detectors: 2, stops: 0 } });
    expect(detectorsOf({ custom: [] })).not.toHaveProperty('custom');
  });

  it('accepts the boundary values', () => {
    expect(() =>
      createGuard({
        maxSteps: 1,
        repeatedToolCall: { threshold: 2 },
        oscillation: { maxPeriod: 2, repeats: 2 },
        noProgress: { threshold: 2 },
        stagnation: { window: 2, maxNew: 0, writeArgsLength: 0 },
        budget: { warnAt: 1, maxCostUsd: Number.MIN_VALUE },
        finishReason: { terminal: [] },
        historyLimit: 1,
      }),
    ).not.toThrow();
  });

  it('leaves DEFAULT_OPTIONS as documented and frozen', () => {
    expect(DEFAULT_OPTIONS).toEqual({
      maxSteps: 50,
      repeatedToolCall: { threshold: 3, requireIdenticalResults: true, ignoreErrors: false, warnBefore: 1 },
      stagnation: { window: 20, maxNew: 9, writeArgsLength: 70, warnBefore: 1 },
      oscillation: { maxPeriod: 3, repeats: 3, requireIdenticalResults: true, warnBefore: 1 },
      noProgress: { threshold: 3, warnBefore: 1 },
      finishReason: { terminal: ['stop', 'length', 'content-filter', 'error'], otherPolicy: 'stop-if-text-only' },
    });
    for (const part of [DEFAULT_OPTIONS, DEFAULT_OPTIONS.repeatedToolCall, DEFAULT_OPTIONS.stagnation, DEFAULT_OPTIONS.finishReason.terminal]) {
      expect(Object.isFrozen(part)).toBe(true);
    }
  });
});

describe('historyLimit', () => {
  it('accepts an integer of at least 1, or false, and names the option otherwise', () => {
    expect(() => createGuard({ historyLimit: 1 })).not.toThrow();
    expect(() => createGuard({ historyLimit: false })).not.toThrow();
    expect(() => createGuard({ historyLimit: undefined })).not.toThrow();
    const invalid: [unknown, string][] = [
      [0, '0'],
      [-5, '-5'],
      [2.5, '2.5'],
      [Number.NaN, 'NaN'],
      [Number.POSITIVE_INFINITY, 'Infinity'],
      ['10', '"10"'],
      [true, 'true'],
      [null, 'null'],
      [[10], 'an array'],
    ];
    for (const [value, shown] of invalid) {
      expect(() => createGuard({ historyLimit: value } as GuardOptions)).toThrow(
        new TypeError(`agent-loopguard: option "historyLimit" must be an integer of at least 1, or false, got ${shown}.`),
      );
    }
  });
});

describe('a clock that cannot be called', () => {
  it('refuses, at createGuard, a clock that throws when called on its own, naming the option', () => {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- the mistake under test.
    const unbound = performance.now;
    expect(() => createGuard({ now: unbound })).toThrow(TypeError);
    expect(() => createGuard({ now: unbound })).toThrow(/option "now" threw when called .*\(\) => performance\.now\(\)/);
    expect(() => createGuard({ now: () => performance.now() })).not.toThrow();
  });

  it('says what the clock threw, an error by its message and anything else as it prints', () => {
    const thrown = new Error('no clock here');
    let caught: unknown;
    try {
      createGuard({
        now: () => {
          throw thrown;
        },
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toEqual(
      new TypeError('agent-loopguard: option "now" threw when called (no clock here); pass a function that can be called on its own, such as () => performance.now().'),
    );
    expect((caught as Error).cause).toBe(thrown);
    expect(() =>
      createGuard({
        now: () => {
          // eslint-disable-next-line @typescript-eslint/only-throw-error -- what a careless clock may throw.
          throw 'stopped';
        },
      }),
    ).toThrow('option "now" threw when called (stopped); pass a function');
  });

  it('answers on every step when a clock starts throwing later, counting no wall-clock time', () => {
    let calls = 0;
    const guard = createGuard({
      ...ALL_OFF,
      budget: { maxDurationMs: 1_000 },
      now: () => {
        if (++calls > 1) throw new Error('clock gone');
        return 0;
      },
    });
    expect(guard.check({ durationMs: 10 })).toEqual({ stop: false });
    expect(guard.check({ durationMs: 990 })).toMatchObject({ stop: true, code: 'BUDGET_DURATION_MS', evidence: { value: 1_000 } });
  });
});

describe('the options a snapshot is tied to', () => {
  const fingerprintOf = (options?: GuardOptions): Readonly<Record<string, string>> => createGuard(options).snapshot().options;
  const hashOf = (value: unknown): string => stableHash(value).slice(0, 12);

  it('lists every option path in the order of the registry, with a short hash of each value', () => {
    expect(fingerprintOf()).toEqual({
      'finishReason.terminal': hashOf(['stop', 'length', 'content-filter', 'error']),
      'finishReason.otherPolicy': hashOf('stop-if-text-only'),
      budget: 'on',
      maxSteps: hashOf(50),
      'repeatedToolCall.threshold': hashOf(3),
      'repeatedToolCall.requireIdenticalResults': hashOf(true),
      'repeatedToolCall.ignoreErrors': hashOf(false),
      'repeatedToolCall.warnBefore': hashOf(1),
      'oscillation.maxPeriod': hashOf(3),
      'oscillation.repeats': hashOf(3),
      'oscillation.requireIdenticalResults': hashOf(true),
      'oscillation.warnBefore': hashOf(1),
      'noProgress.threshold': hashOf(3),
      'noProgress.warnBefore': hashOf(1),
      'stagnation.window': hashOf(20),
      'stagnation.maxNew': hashOf(9),
      'stagnation.writeArgsLength': hashOf(70),
      'stagnation.warnBefore': hashOf(1),
      custom: 'off',
      historyLimit: 'off',
    });
    expect(Object.keys(fingerprintOf())).toEqual(Object.keys(fingerprintOf()).slice().sort((left, right) => order(left) - order(right)));
  });

  /** Where an option path's section stands in the registry. */
  function order(path: string): number {
    return ['finishReason', 'budget', 'maxSteps', 'repeatedToolCall', 'oscillation', 'noProgress', 'stagnation', 'custom', 'tools', 'historyLimit'].indexOf(path.split('.')[0] ?? '');
  }

  it('writes "off" for every option switched off, without a hash, and nothing of its values', () => {
    const fingerprint = fingerprintOf({ maxSteps: false, budget: false, oscillation: false, historyLimit: false });
    expect(fingerprint).toMatchObject({ maxSteps: 'off', budget: 'off', oscillation: 'off', historyLimit: 'off', custom: 'off' });
    expect(Object.keys(fingerprint).filter((path) => path.startsWith('oscillation'))).toEqual(['oscillation']);
  });

  it('ties a snapshot to each budget limit and its warning ratio, to how many custom rules there are, and to historyLimit', () => {
    const fingerprint = fingerprintOf({ budget: { maxCostUsd: { limit: 2, warnAt: 0.5 } }, custom: [() => undefined, () => undefined], historyLimit: 4 });
    expect(fingerprint).toMatchObject({ 'budget.maxCostUsd': hashOf({ limit: 2, warnAt: 0.5 }), custom: hashOf(2), historyLimit: hashOf(4) });
    expect(fingerprint).not.toHaveProperty('budget');
    expect(fingerprintOf({ budget: { maxCostUsd: 2 } })['budget.maxCostUsd']).toBe(hashOf({ limit: 2, warnAt: null }));
  });

  it('leaves out the clock: every process has its own', () => {
    expect(fingerprintOf({ now: () => 5 })).toEqual(fingerprintOf());
  });

  describe('a restore under other options names the option that differs', () => {
    const refusal = (saved: GuardOptions, current: GuardOptions): string => {
      const snapshot = createGuard(saved).snapshot();
      try {
        createGuard(current, { snapshot });
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
        return (error as TypeError).message;
      }
      return 'restored';
    };
    const differs = (path: string): string =>
      `agent-loopguard: the snapshot was taken under other options: "${path}" differs. Restore it with the options it was taken with.`;

    it('names a detector switched off in the snapshot and on now, or on in the snapshot and off now, not one of its values', () => {
      expect(refusal({ oscillation: false }, {})).toBe(differs('oscillation'));
      expect(refusal({}, { oscillation: false })).toBe(differs('oscillation'));
      expect(refusal({ custom: () => undefined }, {})).toBe(differs('custom'));
    });

    it('names the value that differs when the detector is on in both', () => {
      expect(refusal({}, { oscillation: { maxPeriod: 4 } })).toBe(differs('oscillation.maxPeriod'));
      expect(refusal({ finishReason: { terminal: ['stop'] } }, {})).toBe(differs('finishReason.terminal'));
      expect(refusal({ budget: { maxCostUsd: 1 } }, { budget: { maxCostUsd: { limit: 1, warnAt: 0.5 } } })).toBe(differs('budget.maxCostUsd'));
      expect(refusal({ historyLimit: 3 }, {})).toBe(differs('historyLimit'));
    });

    it('names a path only one of the two has', () => {
      // The current options' paths are looked through first.
      expect(refusal({}, { budget: { maxCostUsd: 1 } })).toBe(differs('budget.maxCostUsd'));
      expect(refusal({ budget: { maxCostUsd: 1 } }, {})).toBe(differs('budget'));
      expect(refusal({ budget: { maxCostUsd: 1 } }, { budget: { maxCostUsd: 1, maxDurationMs: 5 } })).toBe(differs('budget.maxDurationMs'));
      const snapshot = createGuard().snapshot();
      expect(() => createGuard({}, { snapshot: { ...snapshot, options: { ...snapshot.options, bogus: 'x' } } })).toThrow(differs('bogus'));
    });

    it('restores when the fingerprints agree, the same options written another way', () => {
      expect(refusal({ maxSteps: 50, oscillation: {}, finishReason: { terminal: ['STOP', 'Length', 'content_filter', 'error'] } }, {})).toBe('restored');
      expect(refusal({ budget: {} }, { budget: true } as unknown as GuardOptions)).toBe('restored');
    });
  });
});

function attempt(options: unknown): string {
  try {
    createGuard(options as GuardOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as TypeError).message;
  }
  return 'no error';
}

describe('option messages', () => {
  it('describes a revoked proxy as an object, not an array', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(attempt(proxy)).toBe('agent-loopguard: option "options" must be an object, got a value of type object.');
  });

  it('describes a revoked array proxy as an object too: it can no longer be told from one', () => {
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    expect(attempt({ budget: proxy })).toBe('agent-loopguard: option "budget" must be an object, got a value of type object.');
  });

  it('names an option whose keys cannot be listed', () => {
    const unlistable = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no keys');
        },
      },
    );
    expect(attempt({ noProgress: unlistable })).toBe('agent-loopguard: option "noProgress" must be an object, got a value of type object.');
  });

  it('rejects warning ratios that only compare like numbers', () => {
    expect(attempt({ budget: { warnAt: '0.5' } })).toBe(
      'agent-loopguard: option "budget.warnAt" must be a number greater than 0 and at most 1, got "0.5".',
    );
    expect(attempt({ budget: { maxCostUsd: { limit: 1, warnAt: [0.5] } } })).toBe(
      'agent-loopguard: option "budget.maxCostUsd.warnAt" must be a number greater than 0 and at most 1, got an array.',
    );
    expect(attempt({ budget: { warnAt: true } })).toBe(
      'agent-loopguard: option "budget.warnAt" must be a number greater than 0 and at most 1, got true.',
    );
  });

  it('accepts the ratio bounds it documents', () => {
    expect(attempt({ budget: { warnAt: 1, maxCostUsd: { limit: 1, warnAt: Number.MIN_VALUE } } })).toBe('no error');
  });

  it('names an option whose getter throws, with the full path', () => {
    const options = {
      budget: Object.defineProperty({}, 'maxCostUsd', {
        enumerable: true,
        get() {
          throw new Error('no');
        },
      }),
    };
    expect(attempt(options)).toBe('agent-loopguard: option "budget.maxCostUsd" could not be read: reading it threw.');
  });
});

describe('warnBefore', () => {
  it.each(['repeatedToolCall', 'oscillation', 'noProgress', 'stagnation'])('of %s is an integer from 1 to 1,000, or false', (detector) => {
    for (const value of [0, 1_001, 1.5, true, '1', null]) {
      expect(attempt({ [detector]: { warnBefore: value } })).toMatch(new RegExp(`^agent-loopguard: option "${detector}\\.warnBefore" must be an integer from 1 to 1000, got `));
    }
    for (const value of [1, 1_000, false, undefined]) expect(attempt({ [detector]: { warnBefore: value } })).toBe('no error');
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
  ['an unknown top-level option', { maxStep: 3 }, 'maxStep', 'maxSteps, repeatedToolCall, oscillation'],
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
  it.each<[string, unknown, string]>([
    ['budget a function', { budget: () => 1 }, 'option "budget" must be an object, got a function.'],
    ['custom[1] an object', { custom: [() => undefined, {}] }, 'option "custom[1]" must be a function, got a value of type object.'],
    ['an unknown nested option', { oscillation: { period: 2 } }, 'unknown option "oscillation.period" (known: maxPeriod, repeats, requireIdenticalResults, warnBefore).'],
    // The known options in the registry's order (before the rewrite: maxSteps, repeatedToolCall, ... finishReason, budget).
    ['an unknown top-level option', { maxStep: 3 }, 'unknown option "maxStep" (known: finishReason, budget, maxSteps, repeatedToolCall, oscillation, noProgress, stagnation, custom, tools, now, historyLimit).'],
  ])('throws the whole message: %s', (_label, options, message) => {
    expect(() => createGuard(options as GuardOptions)).toThrow(new TypeError(`agent-loopguard: ${message}`));
  });

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
