import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGuard, type CustomDetector, type Guard, type GuardOptions, type GuardSnapshot, type GuardStep, type Verdict } from '../../src/index.js';
import { memoryOf, type SavedMemory } from '../support/snapshot-memory.js';
import { ALL_OFF } from '../support/step-builder.js';

/** A snapshot as version 3 writes it: `GuardSnapshot` in src/types.ts still describes version 1. */
type SnapshotV3 = Omit<GuardSnapshot, 'version' | 'sums'> & { readonly version: 3; readonly memory: SavedMemory; readonly clock: string; readonly elapsedMs: number; readonly warnedFields: readonly string[] };

const OPTIONS: GuardOptions = {
  maxSteps: 40,
  budget: { maxCostUsd: { limit: 5, warnAt: 0.5 } },
  custom: () => undefined,
  historyLimit: 5,
  now: () => 0,
};

const STEPS: GuardStep[] = [
  { text: 'Looking', toolCalls: [{ name: 'search', args: { q: 'a' }, result: 'No matches found for "a"' }], usage: { costUsd: 0.1 } },
  { text: 'Again', toolCalls: [{ name: 'search', args: { q: 'b' }, result: 'No matches found for "b"' }], finishReason: 'tool-calls' },
  { text: 'Reading', toolCalls: [{ name: 'read', args: { path: 'x' }, result: 'text' }, { name: 'read', args: { path: 'x' }, result: 'text' }] },
];

/** A snapshot of a guard that has seen the steps, as plain JSON that tests may edit. */
function snapshotJson(): Record<string, unknown> {
  const guard = createGuard(OPTIONS);
  for (const step of STEPS) guard.check(step);
  return JSON.parse(JSON.stringify(guard.snapshot())) as Record<string, unknown>;
}

/** The snapshot with one field replaced (or removed, with `undefined`), by a path of keys and indexes. */
function edited(path: readonly (string | number)[], value: unknown): unknown {
  const snapshot = snapshotJson();
  let target: Record<string | number, unknown> = snapshot;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  const last = path.at(-1) ?? '';
  if (value === undefined) Reflect.deleteProperty(target, last);
  else target[last] = value;
  return snapshot;
}

function restore(snapshot: unknown, options: GuardOptions = OPTIONS): unknown {
  return createGuard(options, { snapshot });
}

describe('restoring a snapshot', () => {
  it('takes the snapshot as it came, or after a JSON round trip, and goes on', () => {
    const guard = createGuard(OPTIONS);
    for (const step of STEPS) guard.check(step);
    const direct = createGuard(OPTIONS, { snapshot: guard.snapshot() });
    const throughJson = createGuard(OPTIONS, { snapshot: JSON.parse(JSON.stringify(guard.snapshot())) as unknown });
    expect(direct.summary()).toStrictEqual(guard.summary());
    expect(throughJson.summary()).toStrictEqual(guard.summary());
  });

  it('writes version 3: the options fingerprint, counts, totals, the clock, the key, history, the run memory and each detector', () => {
    const snapshot = snapshotJson() as unknown as SnapshotV3;
    expect(Object.keys(snapshot)).toEqual([
      'version',
      'options',
      'steps',
      'toolCalls',
      'stops',
      'lastVerdict',
      'blockedBefore',
      'totals',
      'startedAt',
      'clock',
      'elapsedMs',
      'hashKey',
      'history',
      'memory',
      'warnedFields',
      'detectors',
    ]);
    expect(snapshot).toMatchObject({
      version: 3,
      clock: 'custom',
      elapsedMs: 0,
      warnedFields: [],
      steps: 3,
      toolCalls: 4,
      stops: 0,
      blockedBefore: false,
      startedAt: 0,
      totals: { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0.1, durationMs: 0 },
    });
    expect(snapshot.hashKey).toMatch(/^[0-9a-f]{32}$/);
    expect(Object.keys(snapshot.detectors)).toEqual(['finish-reason', 'budget', 'max-steps', 'repeated-tool-call', 'oscillation', 'no-progress', 'stagnation', 'custom']);
    // Each call outcome with the last step that brought it, in step order; the failures compared across calls likewise.
    expect(snapshot.memory.outcomes.map(([key, index]) => [key.split('\u0000')[0], index])).toEqual([
      ['"search"{"q":"a"}', 0],
      ['"search"{"q":"b"}', 1],
      ['"read"{"path":"x"}', 2],
    ]);
    expect(snapshot.memory.answers).toEqual([['a\u0000No matches found for ""', 1]]);
    expect(snapshot.options['oscillation.maxPeriod']).toMatch(/^[0-9a-f]{12}$/);
    expect(typeof snapshot.options.custom).toBe('string');
    // A fingerprint, not the options: no value of an option appears in it.
    expect(JSON.stringify(snapshot.options)).not.toContain('"5"');
  });

  it.each<[string, GuardOptions, string]>([
    ['another maxSteps', { ...OPTIONS, maxSteps: 41 }, 'maxSteps'],
    ['maxSteps off', { ...OPTIONS, maxSteps: false }, 'maxSteps'],
    ['another threshold', { ...OPTIONS, repeatedToolCall: { threshold: 4 } }, 'repeatedToolCall.threshold'],
    ['requireIdenticalResults off', { ...OPTIONS, repeatedToolCall: { requireIdenticalResults: false } }, 'repeatedToolCall.requireIdenticalResults'],
    ['oscillation comparing calls alone', { ...OPTIONS, oscillation: { requireIdenticalResults: false } }, 'oscillation.requireIdenticalResults'],
    ['a tool exempted', { ...OPTIONS, tools: { get_status: { exempt: true } } }, 'tools.get_status'],
    ['oscillation off', { ...OPTIONS, oscillation: false }, 'oscillation'],
    ['another stagnation window', { ...OPTIONS, stagnation: { window: 10 } }, 'stagnation.window'],
    ['another terminal list', { ...OPTIONS, finishReason: { terminal: ['stop'] } }, 'finishReason.terminal'],
    ['another budget limit', { ...OPTIONS, budget: { maxCostUsd: 6 } }, 'budget.maxCostUsd'],
    ['a budget limit more', { ...OPTIONS, budget: { maxCostUsd: { limit: 5, warnAt: 0.5 }, maxTotalTokens: 9 } }, 'budget.maxTotalTokens'],
    ['no custom rule', { ...OPTIONS, custom: undefined }, 'custom'],
    ['another historyLimit', { ...OPTIONS, historyLimit: 6 }, 'historyLimit'],
  ])('refuses a snapshot restored with %s, naming the option', (_label, options, path) => {
    expect(() => restore(snapshotJson(), options)).toThrow(TypeError);
    expect(() => restore(snapshotJson(), options)).toThrow(`the snapshot was taken under other options: "${path}" differs.`);
  });

  it('does not compare the clock: every process has its own', () => {
    expect(() => restore(snapshotJson(), { ...OPTIONS, now: () => 5 })).not.toThrow();
  });

  it.each([
    ['not an object', [], 'snapshot', 'an object, got an array'],
    ['version 1, whose keys would never equal new ones', ['version', 1], 'version', '3 (the snapshot format this version of agent-loopguard reads), got 1'],
    ['no version', ['version', undefined], 'version', '3 (the snapshot format this version of agent-loopguard reads), got undefined'],
    ['options not an object', ['options', 'x'], 'options', 'an object, got "x"'],
    ['a negative step count', ['steps', -1], 'steps', 'an integer from 0'],
    ['a fractional tool call count', ['toolCalls', 1.5], 'toolCalls', 'an integer from 0'],
    ['more stops than steps', ['stops', 4], 'stops', 'an integer from 0 to 3'],
    ['a verdict that is not one', ['lastVerdict', { stop: 'no' }], 'lastVerdict.stop', 'true or false'],
    ['a stop verdict without a code', ['lastVerdict', { stop: true, reason: 'custom', detail: 'x' }], 'lastVerdict.code', 'a string'],
    ['a total that is not a number', ['totals', 'costUsd', '0.1'], 'totals.costUsd', 'a finite number of at least 0, got "0.1"'],
    ['a missing total', ['totals', 'durationMs', undefined], 'totals.durationMs', 'a finite number of at least 0, got undefined'],
    ['a negative total', ['totals', 'inputTokens', -1], 'totals.inputTokens', 'a finite number of at least 0, got -1'],
    ['no totals', ['totals', undefined], 'totals', 'an object, got undefined'],
    ['blockedBefore that is not a boolean', ['blockedBefore', 0], 'blockedBefore', 'true or false, got 0'],
    ['a warning that is not an object', ['lastVerdict', { stop: false, warnings: ['x'] }], 'lastVerdict.warnings[0]', 'an object, got "x"'],
    ['warnings that are not a list', ['lastVerdict', { stop: false, warnings: {} }], 'lastVerdict.warnings', 'an array'],
    ['no memory', ['memory', undefined], 'memory', 'an object, got undefined'],
    ['outcomes that are not listed', ['memory', 'outcomes', {}], 'memory.outcomes', 'an array, got a value of type object'],
    ['no answers', ['memory', 'answers', undefined], 'memory.answers', 'an array, got undefined'],
    ['an outcome that is not a pair', ['memory', 'outcomes', 0, ['key']], 'memory.outcomes[0]', 'a key and a step index, got an array'],
    ['an outcome that is not a list', ['memory', 'outcomes', 0, 'key'], 'memory.outcomes[0]', 'an array, got "key"'],
    ['an outcome without its step', ['memory', 'outcomes', 0, 1, null], 'memory.outcomes[0][1]', 'an integer from 0 to 2, got null'],
    ['an outcome from a step not yet taken', ['memory', 'outcomes', 2, 1, 3], 'memory.outcomes[2][1]', 'an integer from 0 to 2, got 3'],
    ['outcomes out of step order', ['memory', 'outcomes', 2, 1, 0], 'memory.outcomes[2][1]', 'a step index no lower than the one before, got 0'],
    ['an outcome whose key is not a string', ['memory', 'outcomes', 1, 0, 5], 'memory.outcomes[1][0]', 'a string, got 5'],
    ['an outcome listed twice', ['memory', 'outcomes', 1, 0, '"search"{"q":"a"}\u0000rNo matches found for "a"'], 'memory.outcomes[1][0]', 'a key not listed before'],
    ['an answer from a step not yet taken', ['memory', 'answers', 0, 1, 7], 'memory.answers[0][1]', 'an integer from 0 to 2, got 7'],
    ['a clock start that is not a number', ['startedAt', 'now'], 'startedAt', 'a finite number'],
    ['a hash key that is not one', ['hashKey', 'A'.repeat(32)], 'hashKey', '32 lowercase hexadecimal characters, got "AAAA'],
    ['no hash key', ['hashKey', undefined], 'hashKey', '32 lowercase hexadecimal characters, got undefined'],
    ['history longer than the steps allow', ['history', [{}, {}, {}, {}]], 'history', 'an array of at most 3 items'],
    ['history shorter than kept', ['history', [{}]], 'history', 'an array of 3 steps'],
    ['a step that is not an object', ['history', 1, 'text'], 'history[1]', 'an object, got "text"'],
    ['no detectors', ['detectors', undefined], 'detectors', 'an object, got undefined'],
    ['a detector missing', ['detectors', 'oscillation', undefined], 'detectors.oscillation', "an enabled detector's saved state"],
    ['a repeat run of no calls', ['detectors', 'repeated-tool-call', 'run', 'count', 0], 'detectors.repeated-tool-call.run.count', 'an integer from 1'],
    ['a repeat run whose identicalResults is not a boolean', ['detectors', 'repeated-tool-call', 'run', 'identicalResults', 'yes'], 'detectors.repeated-tool-call.run.identicalResults', 'true or false, got "yes"'],
    ['a stagnation entry whose isNew is not a boolean', ['detectors', 'stagnation', 'window', 0, 'isNew', 1], 'detectors.stagnation.window[0].isNew', 'true or false, got 1'],
    ['a repeat run without its first call', ['detectors', 'repeated-tool-call', 'run', 'first', undefined], 'detectors.repeated-tool-call.run.first', 'an object'],
    ['too many step indexes', ['detectors', 'repeated-tool-call', 'run', 'stepIndexes', Array.from({ length: 101 }, () => 0)], 'detectors.repeated-tool-call.run.stepIndexes', 'an array of at most 100 items'],
    ['an oscillation ring of the wrong length', ['detectors', 'oscillation', 'recent', []], 'detectors.oscillation.recent', 'an array of 3 calls'],
    ['oscillation counts of the wrong length', ['detectors', 'oscillation', 'matched', [0]], 'detectors.oscillation.matched', 'an array of 4 counts'],
    ['an oscillation count past the calls', ['detectors', 'oscillation', 'matched', 2, 99], 'detectors.oscillation.matched[2]', 'an integer from 0 to 4'],
    ['a call without a signature', ['detectors', 'oscillation', 'recent', 0, 'signature', 7], 'detectors.oscillation.recent[0].signature', 'a string'],
    ['a stalled run of no steps', ['detectors', 'no-progress', 'stalled', { steps: 0, textKey: '', textPreview: '' }], 'detectors.no-progress.stalled.steps', 'an integer from 1'],
    ['a no-progress state that is not an object', ['detectors', 'no-progress', 'x'], 'detectors.no-progress', 'an object, got "x"'],
    ['a stalled run without its text', ['detectors', 'no-progress', 'stalled', { steps: 1, textPreview: '' }], 'detectors.no-progress.stalled.textKey', 'a string, got undefined'],
    ['a stagnation window longer than the window', ['detectors', 'stagnation', 'window', new Array(21).fill(null)], 'detectors.stagnation.window', 'an array of at most 20 items'],
    ['a stagnation entry at no step', ['detectors', 'stagnation', 'window', 0, 'step', -1], 'detectors.stagnation.window[0].step', 'an integer from 0'],
    ['a stagnation call without its answer', ['detectors', 'stagnation', 'window', 0, 'calls', 0, 'answer', null], 'detectors.stagnation.window[0].calls[0].answer', 'a string, got null'],
    ['a last signature that is not a string', ['detectors', 'stagnation', 'previousSignature', 3], 'detectors.stagnation.previousSignature', 'a string, got 3'],
    ['a budget state', ['detectors', 'budget', {}], 'detectors.budget', 'null (the detector keeps no state), got a value of type object'],
    ['a max-steps state', ['detectors', 'max-steps', 0], 'detectors.max-steps', 'null (the detector keeps no state), got 0'],
    ['a stagnation entry without its calls', ['detectors', 'stagnation', 'window', 0, 'calls', undefined], 'detectors.stagnation.window[0].calls', 'an array'],
    ['stagnation entries fewer than listed', ['detectors', 'stagnation', 'entries', 1], 'detectors.stagnation.entries', 'an integer from 3'],
    ['a finish reason that is not a string', ['detectors', 'finish-reason', 'lastReason', 5], 'detectors.finish-reason.lastReason', 'a string, got 5'],
    ['a negative stop count of custom rules', ['detectors', 'custom', 'stops', -1], 'detectors.custom.stops', 'an integer from 0'],
  ])('refuses a snapshot with %s, naming the field', (_label, edit, field, expected) => {
    // A list of keys ending in the new value edits one field; anything else is the whole snapshot.
    const snapshot = Array.isArray(edit) && typeof edit[0] === 'string' ? edited(edit.slice(0, -1) as string[], edit.at(-1)) : edit;
    expect(() => restore(snapshot)).toThrow(TypeError);
    expect(() => restore(snapshot)).toThrow(`snapshot field "${field}" must be ${expected}`);
  });

  it('refuses a stagnation window holding fewer entries than the run added, up to the window', () => {
    expect(() => restore(edited(['detectors', 'stagnation', 'window'], []))).toThrow(
      'snapshot field "detectors.stagnation.window" must be an array of 3 entries, got an array.',
    );
  });

  it('recounts the new entries of a stagnation window from the entries, whatever count was saved', () => {
    const guard = createGuard(OPTIONS);
    for (const step of STEPS) guard.check(step);
    const restored = createGuard(OPTIONS, { snapshot: edited(['detectors', 'stagnation', 'newInWindow'], 'not a count') });
    expect(restored.summary()).toStrictEqual(guard.summary());
    expect(restored.snapshot().detectors.stagnation).toMatchObject({ newInWindow: 2 });
  });

  it('keeps the run memory once, whichever detectors read it, and restores it: what was seen stays seen', () => {
    for (const options of [{ ...OPTIONS }, { ...OPTIONS, noProgress: false }, { ...OPTIONS, noProgress: false, stagnation: false }] as GuardOptions[]) {
      const guard = createGuard(options);
      for (const step of STEPS) guard.check(step);
      const memory = memoryOf(guard);
      const restored = createGuard(options, { snapshot: JSON.parse(JSON.stringify(guard.snapshot())) as unknown });
      expect(memoryOf(restored)).toStrictEqual(memory);
      for (const step of STEPS) expect(restored.check(step)).toStrictEqual(guard.check(step));
    }
    // Without a detector that reads outcomes, none are remembered.
    const neither = createGuard({ ...OPTIONS, noProgress: false, stagnation: false });
    for (const step of STEPS) neither.check(step);
    expect(memoryOf(neither)).toEqual({ outcomes: [], answers: [] });
  });

  it('answers from the restored memory: an outcome the snapshot remembers is old, one it does not is new', () => {
    const options: GuardOptions = { ...ALL_OFF, noProgress: { threshold: 2, warnBefore: false }, now: () => 0 };
    const guard = createGuard(options);
    guard.check({ toolCalls: [{ name: 'a', result: 1 }] });
    const snapshot = JSON.parse(JSON.stringify(guard.snapshot())) as { memory: { outcomes: unknown[] } };
    expect(createGuard(options, { snapshot }).check({ toolCalls: [{ name: 'a', result: 1 }] })).toEqual({ stop: false });
    const remembered = createGuard(options, { snapshot });
    remembered.check({ toolCalls: [{ name: 'a', result: 1 }] });
    expect(remembered.summary().detectors['no-progress']).toEqual({ stalledSteps: 1, distinctOutcomes: 1, threshold: 2 });
    snapshot.memory.outcomes = [];
    const forgotten = createGuard(options, { snapshot });
    forgotten.check({ toolCalls: [{ name: 'a', result: 1 }] });
    expect(forgotten.summary().detectors['no-progress']).toEqual({ stalledSteps: 0, distinctOutcomes: 1, threshold: 2 });
  });

  it('holds a bounded size per step with historyLimit, whatever the run length', () => {
    const sizeAfter = (steps: number): number => {
      const guard = createGuard({ maxSteps: false, historyLimit: 10, now: () => 0 });
      for (let index = 0; index < steps; index++) {
        guard.check({ text: `step ${String(index)}`, toolCalls: [{ name: 'read', args: { page: index }, result: `page ${'x'.repeat(index % 50)} ${String(index)}` }] });
      }
      return JSON.stringify(guard.snapshot()).length;
    };
    const short = sizeAfter(500);
    const long = sizeAfter(5_000);
    expect(long).toBeLessThan(short * 1.1);
    expect(long).toBeLessThan(20_000);
  });
});

/** Every value in a snapshot, with its path as refusals name it (`detectors.oscillation.recent[0].name`). */
function fieldsOf(value: unknown, path = '', keys: readonly (string | number)[] = []): { path: string; keys: readonly (string | number)[]; value: unknown }[] {
  const here = path === '' ? [] : [{ path, keys, value }];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, index) => fieldsOf(item, `${path}[${String(index)}]`, [...keys, index]))];
  if (value !== null && typeof value === 'object') {
    return [...here, ...Object.entries(value).flatMap(([key, item]) => fieldsOf(item, path === '' ? key : `${path}.${key}`, [...keys, key]))];
  }
  return here;
}

/** A value of another type than `value`. */
const misfit = (value: unknown): unknown => (typeof value === 'string' || value === null ? 5 : 'x');

describe.each([
  ['every outcome of the run remembered', false],
  ['outcomes remembered for historyLimit steps', 4],
] as const)('a snapshot with every field in use (%s)', (_label, historyLimit) => {
  const options: GuardOptions = { historyLimit, maxSteps: 40, custom: () => undefined, budget: { maxCostUsd: { limit: 1, warnAt: 0.1 } }, now: () => 0 };
  const saved = (() => {
    const guard = createGuard(options);
    for (const step of [
      { text: 'Looking', toolCalls: [{ name: 'grep', args: { q: 'a' }, result: 'No matches for "a"' }], usage: { costUsd: 0.2 } },
      { text: 'Looking', toolCalls: [{ name: 'grep', args: { q: 'b' }, result: 'No matches for "b"' }] },
      { text: 'Looking', toolCalls: [{ name: 'view', args: { path: 'x' }, result: 'text' }] },
      { text: 'Looking', toolCalls: [{ name: 'view', args: { path: 'x' }, result: 'text' }], finishReason: 'length' },
    ]) {
      guard.check(step);
    }
    return JSON.parse(JSON.stringify(guard.snapshot())) as GuardSnapshot;
  })();
  const fields = fieldsOf(saved);
  const withValue = (keys: readonly (string | number)[], value: unknown): unknown => {
    const copy = JSON.parse(JSON.stringify(saved)) as Record<string | number, unknown>;
    let target = copy;
    for (const key of keys.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
    target[keys.at(-1) ?? ''] = value;
    return copy;
  };
  // Shown in `summary()`, never acted on, so only its shape is checked; and steps read as `check` reads any step.
  // And a stagnation window's count of new entries is counted again from its entries.
  const shownOnly = /^lastVerdict\.(evidence|warnings\[\d+\]\.(?!code$|detail$))|^history\[\d+\]\.|^detectors\.stagnation\.newInWindow$/;

  it('is the state of a guard that stopped, warned, and has state in every detector', () => {
    expect(saved.lastVerdict).toMatchObject({ stop: true, code: 'FINISH_TERMINAL', warnings: [{ code: 'BUDGET_WARNING' }, { code: 'LOOP_WARNING' }] });
    expect(saved.detectors).toMatchObject({ budget: null, 'max-steps': null, 'finish-reason': { lastReason: 'length' }, 'no-progress': { stalled: { steps: 1 } } });
    expect(fields.length).toBeGreaterThan(100);
  });

  it('refuses any field of another type, naming it: every field is read before the guard uses any', () => {
    const refused = fields.filter(({ path }) => !path.startsWith('options.') && !shownOnly.test(path));
    for (const { path, keys, value } of refused) {
      expect(() => createGuard(options, { snapshot: withValue(keys, misfit(value)) }), path).toThrow(new RegExp(`^agent-loopguard: snapshot field "${path.replace(/[.[\]]/g, '\\$&')}" must be `));
    }
    expect(refused.map(({ path }) => path)).toEqual(
      expect.arrayContaining(['totals.costUsd', 'memory.outcomes[0][0]', 'memory.answers[0][1]', 'detectors.budget', 'detectors.max-steps', 'lastVerdict.warnings[1].detail']),
    );
  });

  it('refuses a changed option fingerprint, naming the option', () => {
    for (const { path, keys } of fields.filter((field) => field.path.startsWith('options.'))) {
      expect(() => createGuard(options, { snapshot: withValue(keys, 'edited') })).toThrow(`"${path.slice('options.'.length)}" differs`);
    }
  });

  it('takes whatever the verdict it only shows holds, and reads the steps of its history as check reads any step', () => {
    const lenient = fields.filter(({ path }) => shownOnly.test(path));
    expect(lenient.length).toBeGreaterThan(10);
    for (const { keys, value } of lenient) expect(() => createGuard(options, { snapshot: withValue(keys, misfit(value)) })).not.toThrow();
  });

  it('takes totals as saved, and adds later steps to them', () => {
    const restored = createGuard(options, { snapshot: withValue(['totals', 'costUsd'], 0.3) });
    expect(restored.summary().totals.costUsd).toBe(0.3);
    restored.check({ usage: { costUsd: 0.6 } });
    expect(restored.summary().totals.costUsd).toBe(0.9);
    expect(restored.check({ usage: { costUsd: 0.1 } })).toMatchObject({ stop: true, code: 'BUDGET_COST_USD', evidence: { value: 1 } });
  });
});

/** A rule with no state of its own: what it says depends only on what it is shown, so a restore cannot change it. */
const chatty: CustomDetector = (history) =>
  history.filter((step) => (step.text ?? '') !== '').length >= 9 ? { stop: true, code: 'CHATTY', evidence: { steps: history.length } } : undefined;

const option = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | false> => fc.oneof({ weight: 1, arbitrary: fc.constant(false as const) }, { weight: 4, arbitrary });

const optionsArbitrary: fc.Arbitrary<GuardOptions> = fc.record({
  maxSteps: fc.constantFrom(false as const, 8, 15, 40),
  repeatedToolCall: option(fc.record({ threshold: fc.integer({ min: 2, max: 4 }), requireIdenticalResults: fc.boolean(), ignoreErrors: fc.boolean() })),
  oscillation: option(fc.record({ maxPeriod: fc.integer({ min: 2, max: 4 }), repeats: fc.integer({ min: 2, max: 3 }) })),
  noProgress: option(fc.record({ threshold: fc.integer({ min: 2, max: 4 }) })),
  stagnation: option(
    fc.integer({ min: 2, max: 6 }).chain((window) => fc.record({ window: fc.constant(window), maxNew: fc.integer({ min: 0, max: window - 1 }) })),
  ),
  finishReason: option(fc.record({ otherPolicy: fc.constantFrom('stop' as const, 'continue' as const, 'stop-if-text-only' as const) })),
  budget: option(
    fc.record({
      maxTotalTokens: fc.record({ limit: fc.integer({ min: 200, max: 3_000 }), warnAt: fc.constantFrom(0.5, 0.8) }),
      maxCostUsd: fc.constantFrom(0.3, 0.5, 1),
      maxDurationMs: fc.constantFrom(500, 2_000),
      warnAt: fc.constantFrom(0.7, 0.9),
    }),
  ),
  historyLimit: fc.constantFrom(false as const, 1, 3, 6),
  custom: fc.constantFrom([] as CustomDetector[], [chatty]),
});

const callArbitrary = fc.record(
  {
    name: fc.constantFrom('search', 'read', 'write', 'grep'),
    args: fc.constantFrom<unknown>({ q: 1 }, { q: 2 }, { path: 'a' }, { path: 'b', lines: [1, 2] }, undefined, { when: new Date(0) }, { n: 10n }, { text: 'x'.repeat(300) }),
    result: fc.constantFrom<unknown>('ok', 'No matches found for "a"', 'No matches found for "b"', 42, { rows: [1] }, 'y'.repeat(400), new Map([[1, 2]])),
    error: fc.constantFrom<unknown>('boom', null, new Error('failed')),
  },
  { requiredKeys: ['name'] },
);

const stepArbitrary: fc.Arbitrary<GuardStep> = fc.record(
  {
    toolCalls: fc.array(callArbitrary, { maxLength: 3 }),
    text: fc.constantFrom('', 'Looking.', 'looking.  ', 'Trying again', 'Done.'),
    finishReason: fc.constantFrom('tool-calls', 'stop', 'other', 'length', 'TOOL_CALLS'),
    usage: fc.record(
      { inputTokens: fc.nat(400), outputTokens: fc.nat(80), costUsd: fc.constantFrom(0.01, 0.1, 0.6666666666666666, Number.NaN, -1) },
      { requiredKeys: [] },
    ),
    durationMs: fc.constantFrom(0, 12.5, 100, Number.NaN),
  },
  { requiredKeys: [] },
);

/** A run: options, steps, and the clock's advance before each step. */
const runArbitrary = fc.record({
  options: optionsArbitrary,
  steps: fc.array(fc.tuple(stepArbitrary, fc.nat(300)), { minLength: 1, maxLength: 30 }),
});

describe('a guard restored from a snapshot', () => {
  it('answers every later step exactly as the uninterrupted guard, split anywhere, through JSON', () => {
    fc.assert(
      fc.property(runArbitrary, fc.array(fc.nat(29)), ({ options, steps }, splits) => {
        let time = 1_000;
        const withClock = { ...options, now: () => time };
        const [uninterrupted, first] = twins(withClock);
        let resumed = first;
        const splitAt = new Set(splits);
        steps.forEach(([step, advance], index) => {
          if (splitAt.has(index)) {
            const stored = JSON.stringify(resumed.snapshot());
            resumed = createGuard(withClock, { snapshot: JSON.parse(stored) as unknown });
          }
          time += advance;
          expect(resumed.check(step)).toStrictEqual(uninterrupted.check(step));
        });
        expect(resumed.summary()).toStrictEqual(uninterrupted.summary());
        expect(JSON.stringify(resumed.snapshot())).toBe(JSON.stringify(uninterrupted.snapshot()));
      }),
      { numRuns: 100 },
    );
  });

  it('continues the history, as plain JSON, for custom rules and `history`', () => {
    const guard = createGuard({ historyLimit: 2 });
    guard.check({ text: 'one', toolCalls: [{ name: 'a', args: { when: new Date(0) } }] });
    guard.check({ text: 'two' });
    guard.check({ text: 'three' });
    const seen: unknown[] = [];
    const restored = createGuard({ historyLimit: 2, custom: undefined }, { snapshot: guard.snapshot() });
    expect(restored.history).toEqual([{ text: 'two' }, { text: 'three' }]);
    const withRule = createGuard({ custom: (history) => void seen.push(history.map((step) => step.text)) });
    withRule.check({ text: 'a', toolCalls: [{ name: 'x', args: { n: 1n } }] });
    const continued = createGuard({ custom: (history) => void seen.push(history.map((step) => step.text)) }, { snapshot: withRule.snapshot() });
    continued.check({ text: 'b' });
    expect(seen).toEqual([['a'], ['a', 'b']]);
    expect(continued.history[0]?.toolCalls).toEqual([{ name: 'x', args: { n: '1n' } }]);
    // As JSON.stringify writes them: what a rule can rely on after a restore, as the CustomDetector TSDoc says.
    const rich = createGuard();
    rich.check({ toolCalls: [{ name: 'x', args: { when: new Date(0), lookup: new Map([['k', 1]]), tags: new Set(['a']) } }] });
    expect(createGuard({}, { snapshot: rich.snapshot() }).history[0]?.toolCalls).toEqual([{ name: 'x', args: { when: '1970-01-01T00:00:00.000Z', lookup: {}, tags: {} } }]);
  });

  it('keeps the run clock: wall-clock time before the snapshot counts after the restore', () => {
    let time = 0;
    const options = { budget: { maxDurationMs: 1_000 }, now: () => time };
    const guard = createGuard(options);
    time = 600;
    expect(guard.check({}).stop).toBe(false);
    const restored = createGuard(options, { snapshot: guard.snapshot() });
    time = 1_000;
    expect(restored.check({})).toMatchObject({ stop: true, code: 'BUDGET_DURATION_MS', evidence: { value: 1_000 } });
  });

  it('starts over on reset, like a new guard', () => {
    const guard = createGuard({ maxSteps: 2 });
    guard.check({});
    const restored = createGuard({ maxSteps: 2 }, { snapshot: guard.snapshot() });
    restored.reset();
    expect(restored.check({})).toEqual({ stop: false });
    expect(restored.summary().steps).toBe(1);
  });
});

describe('peek, held to check and to a guard that never peeked', () => {
  it('gives the verdict check then gives, and on its own changes nothing', () => {
    fc.assert(
      fc.property(runArbitrary, fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }), ({ options, steps }, peeks) => {
        let time = 1_000;
        const withClock = { ...options, now: () => time };
        const [peeking, plain] = twins(withClock);
        steps.forEach(([step, advance], index) => {
          time += advance;
          // Peeks at the step, sometimes twice, and at an unrelated step that is never checked.
          if (peeks[index] === true) {
            peeking.peek({ toolCalls: [{ name: 'never', args: { index } }], text: 'never checked' });
            peeking.peek(step);
          }
          const peeked: Verdict = peeking.peek(step);
          const checked = peeking.check(step);
          expect(peeked).toStrictEqual(checked);
          expect(checked).toStrictEqual(plain.check(step));
        });
        expectSameGuard(peeking, plain);
      }),
      { numRuns: 100 },
    );
  });

  it('calls custom rules with the step last in their history, then takes it back out', () => {
    const shown: number[] = [];
    const guard = createGuard({ custom: (history) => void shown.push(history.length), historyLimit: 2 });
    guard.check({ text: 'a' });
    guard.check({ text: 'b' });
    guard.peek({ text: 'c' });
    expect(shown).toEqual([1, 2, 2]);
    expect(guard.history.map((step) => step.text)).toEqual(['a', 'b']);
    const unlimited = createGuard({ custom: (history) => void shown.push(history.length) });
    unlimited.check({ text: 'a' });
    unlimited.peek({ text: 'b' });
    expect(shown.slice(3)).toEqual([1, 2]);
    expect(unlimited.history).toHaveLength(1);
  });

  it('leaves the guard as it was when a custom rule throws', () => {
    let fail = false;
    // A frozen clock: the snapshot holds the time the run has taken, which must not differ for that reason alone.
    const guard = createGuard({
      now: () => 0,
      custom: () => {
        if (fail) throw new Error('rule failed');
        return undefined;
      },
    });
    guard.check({ text: 'a' });
    const before = JSON.stringify(guard.snapshot());
    fail = true;
    expect(() => guard.peek({ text: 'b' })).toThrow('rule failed');
    expect(JSON.stringify(guard.snapshot())).toBe(before);
    expect(guard.history).toHaveLength(1);
  });

  it('judges a step without recording it: what would a repeated call do now?', () => {
    const guard = createGuard({ repeatedToolCall: { threshold: 3 } });
    const search = { toolCalls: [{ name: 'search', args: { q: 'x' } }] };
    guard.check(search);
    guard.check(search);
    expect(guard.peek(search)).toMatchObject({ stop: true, code: 'REPEATED_TOOL_CALL', evidence: { count: 3 } });
    expect(guard.peek(search)).toMatchObject({ stop: true, evidence: { count: 3 } });
    expect(guard.summary()).toMatchObject({ steps: 2, stops: 0, lastVerdict: { stop: false } });
  });
});

/**
 * Two new guards that compare with the same secret key, so their snapshots can be compared whole: each guard draws
 * its own key, and a restored guard takes the snapshot's.
 */
function twins(options: GuardOptions): [Guard, Guard] {
  const start = createGuard(options).snapshot();
  return [createGuard(options, { snapshot: start }), createGuard(options, { snapshot: start })];
}

/** Everything a guard shows, the same in both. */
function expectSameGuard(actual: Guard, expected: Guard): void {
  expect(actual.summary()).toStrictEqual(expected.summary());
  expect(actual.history).toStrictEqual(expected.history);
  expect(JSON.stringify(actual.snapshot())).toBe(JSON.stringify(expected.snapshot()));
}

// A clock that reads a number that is not finite counts as 0, so the snapshot can hold the reading and restore it.
const steps = [
  { text: 'a', finishReason: 'tool-calls', toolCalls: [{ name: 'search', args: { q: 1 } }] },
  { text: 'b', finishReason: 'tool-calls', toolCalls: [{ name: 'search', args: { q: 1 } }] },
  { text: 'c', finishReason: 'tool-calls', toolCalls: [{ name: 'search', args: { q: 1 } }] },
];

describe.each([
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
])('a guard whose clock reads %s', (_name, reading) => {
  const options: GuardOptions = { now: () => reading, budget: { maxDurationMs: 10_000 } };

  it('snapshots a number for startedAt, as GuardSnapshot says', () => {
    const guard = createGuard(options);
    guard.check(steps[0] ?? {});
    expect(typeof guard.snapshot().startedAt).toBe('number');
  });

  it('restores its own snapshot and goes on as if never interrupted', () => {
    const uninterrupted = createGuard(options);
    let resumed = createGuard(options);
    for (const step of steps) {
      resumed = createGuard(options, { snapshot: JSON.parse(JSON.stringify(resumed.snapshot())) });
      expect(resumed.check(step)).toEqual(uninterrupted.check(step));
    }
  });
});
