import { describe, expect, it } from 'vitest';
import { createGuard, type GuardOptions, type GuardSnapshot, type GuardStep } from '../../src/index.js';

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

  it('writes version 1, the options fingerprint, counts, totals, exact sums, the clock, history and each detector', () => {
    const snapshot = snapshotJson() as unknown as GuardSnapshot;
    expect(Object.keys(snapshot)).toEqual(['version', 'options', 'steps', 'toolCalls', 'stops', 'lastVerdict', 'blockedBefore', 'totals', 'sums', 'startedAt', 'hashKey', 'history', 'detectors']);
    expect(snapshot).toMatchObject({ version: 1, steps: 3, toolCalls: 4, stops: 0, startedAt: 0, sums: { costUsd: '0.1', inputTokens: '0' } });
    expect(Object.keys(snapshot.detectors)).toEqual(['finish-reason', 'budget', 'max-steps', 'repeated-tool-call', 'oscillation', 'no-progress', 'stagnation', 'custom']);
    expect(snapshot.options['oscillation.maxPeriod']).toMatch(/^[0-9a-f]{12}$/);
    expect(typeof snapshot.options.custom).toBe('string');
    // A fingerprint, not the options: no value of an option appears in it.
    expect(JSON.stringify(snapshot.options)).not.toContain('"5"');
  });

  it.each<[string, GuardOptions, string]>([
    ['another maxSteps', { ...OPTIONS, maxSteps: 41 }, 'maxSteps'],
    ['maxSteps off', { ...OPTIONS, maxSteps: false }, 'maxSteps'],
    ['another threshold', { ...OPTIONS, repeatedToolCall: { threshold: 4 } }, 'repeatedToolCall.threshold'],
    ['requireIdenticalResults', { ...OPTIONS, repeatedToolCall: { requireIdenticalResults: true } }, 'repeatedToolCall.requireIdenticalResults'],
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
    ['another version', ['version', 2], 'version', '1 (the snapshot format this version of agent-loopguard reads), got 2'],
    ['no version', ['version', undefined], 'version', '1 (the snapshot format this version of agent-loopguard reads), got undefined'],
    ['options not an object', ['options', 'x'], 'options', 'an object, got "x"'],
    ['a negative step count', ['steps', -1], 'steps', 'an integer from 0'],
    ['a fractional tool call count', ['toolCalls', 1.5], 'toolCalls', 'an integer from 0'],
    ['more stops than steps', ['stops', 4], 'stops', 'an integer from 0 to 3'],
    ['a verdict that is not one', ['lastVerdict', { stop: 'no' }], 'lastVerdict.stop', 'true or false'],
    ['a stop verdict without a code', ['lastVerdict', { stop: true, reason: 'custom', detail: 'x' }], 'lastVerdict.code', 'a string'],
    ['a sum that is not a decimal', ['sums', 'costUsd', '1e5'], 'sums.costUsd', 'decimal digits with at most one point, got "1e5"'],
    ['a missing sum', ['sums', 'durationMs', undefined], 'sums.durationMs', 'a string, got undefined'],
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
    ['remembered outcomes not listed', ['detectors', 'no-progress', 'outcomes', 'x'], 'detectors.no-progress.outcomes', 'an object'],
    ['a remembered outcome without its step', ['detectors', 'no-progress', 'outcomes', 'queue', 0, [ 'key' ]], 'detectors.no-progress.outcomes.queue[0][1]', 'an integer from 0'],
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

  it('keeps the outcomes noProgress and stagnation share once: with noProgress, or with stagnation when noProgress is off', () => {
    const detectorsOf = (options: GuardOptions): Record<string, Record<string, unknown>> => {
      const guard = createGuard(options);
      for (const step of STEPS) guard.check(step);
      return (JSON.parse(JSON.stringify(guard.snapshot())) as { detectors: Record<string, Record<string, unknown>> }).detectors;
    };
    const both = detectorsOf({ now: () => 0 });
    expect(Object.keys(both['no-progress'] ?? {})).toEqual(['outcomes', 'stalled']);
    expect(Object.keys(both.stagnation ?? {})).toEqual(['answers', 'entries', 'window', 'previousSignature']);
    const alone = detectorsOf({ now: () => 0, noProgress: false });
    expect(Object.keys(alone.stagnation ?? {})).toEqual(['answers', 'outcomes', 'entries', 'window', 'previousSignature']);
    // Four calls, three outcomes (the two reads are one); two answers compared across calls (the two failures are one shape).
    expect(alone.stagnation?.outcomes).toHaveLength(3);
    expect(alone.stagnation?.answers).toHaveLength(1);
    expect(alone.stagnation?.outcomes).toEqual(both['no-progress']?.outcomes);

    const { outcomes, ...withoutOutcomes } = alone.stagnation ?? {};
    expect(outcomes).toBeDefined();
    const snapshot = (() => {
      const guard = createGuard({ now: () => 0, noProgress: false });
      for (const step of STEPS) guard.check(step);
      const json = JSON.parse(JSON.stringify(guard.snapshot())) as { detectors: Record<string, unknown> };
      json.detectors.stagnation = withoutOutcomes;
      return json;
    })();
    expect(() => createGuard({ now: () => 0, noProgress: false }, { snapshot })).toThrow(
      new TypeError('agent-loopguard: snapshot field "detectors.stagnation.outcomes" must be an array, got undefined.'),
    );
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
  const shownOnly = /^lastVerdict\.(evidence|warnings\[\d+\]\.(?!code$|detail$))|^history\[\d+\]\./;

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
    expect(refused.map(({ path }) => path)).toEqual(expect.arrayContaining(['totals.costUsd', 'detectors.budget', 'detectors.max-steps', 'lastVerdict.warnings[1].detail']));
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

  it('refuses totals that are not what the sums come to, even when they are numbers', () => {
    expect(() => createGuard(options, { snapshot: withValue(['totals', 'costUsd'], 0.3) })).toThrow(
      'snapshot field "totals.costUsd" must be 0.2 (what sums.costUsd comes to), got 0.3.',
    );
    expect(() => createGuard(options, { snapshot: withValue(['detectors', 'budget'], { limit: 1 }) })).toThrow(
      'snapshot field "detectors.budget" must be null (the detector keeps no state), got a value of type object.',
    );
  });
});
