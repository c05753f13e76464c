import { describe, expect, it } from 'vitest';
import type { RecordedRun } from '../../src/cli/read-runs.js';
import {
  addTotals,
  addUsage,
  createTally,
  DEFAULT_STUCK_STATUS,
  emptyUsage,
  EXIT_COST_STATUS,
  labelRun,
  recordsCost,
  replayRun,
  summarize,
} from '../../src/cli/replay.js';
import { createGuard, type GuardStep } from '../../src/index.js';
import { ALL_OFF } from '../support/step-builder.js';
import { replayOf } from './support.js';

function recorded(steps: GuardStep[], outcome: RecordedRun['outcome'] = null): RecordedRun {
  return { id: 'r', file: 'f.jsonl', line: 3, outcome, steps };
}

const search = (q: string): GuardStep => ({ toolCalls: [{ name: 'search', args: { q } }], usage: { inputTokens: 10, outputTokens: 1, costUsd: 0.1 } });

describe('replayRun', () => {
  it('stops at the first stop verdict, with its 0-based index, and sums what the rest of the run used', () => {
    const replay = replayRun(recorded([search('a'), search('b'), search('b'), search('b'), search('c')]));
    expect(replay).toEqual({
      id: 'r',
      file: 'f.jsonl',
      line: 3,
      steps: 5,
      stop: {
        index: 3,
        reason: 'repeated-tool-call',
        code: 'REPEATED_TOOL_CALL',
        fault: true,
        detail: 'The model called "search" 3 times in a row with the same arguments: search({"q":"b"}).',
      },
      label: null,
      falseStop: false,
      caught: false,
      afterStop: { steps: 1, inputTokens: 10, outputTokens: 1, totalTokens: 11, costUsd: 0.1 },
      inputShape: [],
    });
  });

  it('names the fields of steps in another shape that the guard met before it stopped, each once', () => {
    const aiSdkStep = { toolCalls: [{ toolName: 'search', input: { q: 'a' } }], usage: { prompt_tokens: 3 } } as unknown as GuardStep;
    const replay = replayRun(recorded([aiSdkStep, aiSdkStep, { tool_calls: [] } as unknown as GuardStep, search('a')]));
    expect(replay.inputShape).toEqual(['toolCalls[].toolName', 'usage.prompt_tokens', 'tool_calls']);
    // Read as steps without calls, they stall: the stop comes before the last step, whose shape is never met.
    const stopped = replayRun(recorded([aiSdkStep, aiSdkStep, aiSdkStep, { tool_calls: [] } as unknown as GuardStep]));
    expect(stopped.stop?.code).toBe('NO_PROGRESS');
    expect(stopped.inputShape).toEqual(['toolCalls[].toolName', 'usage.prompt_tokens']);
    expect(summarize([replay, stopped, replayRun(recorded([search('a')]))]).inputShape).toEqual({
      runs: 2,
      fields: { 'toolCalls[].toolName': 2, 'usage.prompt_tokens': 2, tool_calls: 1 },
    });
  });

  it('runs to the end without a stop, saving nothing', () => {
    const replay = replayRun(recorded([search('a'), search('b')], { resolved: true, exitStatus: null }));
    expect(replay.stop).toBeNull();
    expect(replay.falseStop).toBe(false);
    expect(replay.afterStop).toEqual({ steps: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0 });
  });

  it('counts a fault stop before the last step of a healthy run as a false stop, and on the last step not', () => {
    const healthy = { resolved: true, exitStatus: 'Submitted' };
    const steps = [search('a'), search('a'), search('a'), search('b')];
    expect(replayRun(recorded(steps, healthy)).falseStop).toBe(true);
    expect(replayRun(recorded(steps.slice(0, 3), healthy))).toMatchObject({ falseStop: false, stop: { index: 2 } });
  });

  it('does not count a normal finish as a false stop or a catch', () => {
    const steps: GuardStep[] = [{ text: 'done', finishReason: 'stop' }, { text: 'more' }];
    expect(replayRun(recorded(steps, { resolved: true, exitStatus: null }))).toMatchObject({ falseStop: false, stop: { fault: false } });
    expect(replayRun(recorded(steps, { resolved: false, exitStatus: 'exit_cost' }))).toMatchObject({ caught: false, label: 'stuck' });
  });

  it('counts any fault stop on a stuck run as a catch, even on its last step', () => {
    const stuck = { resolved: false, exitStatus: 'exit_cost' };
    const replay = replayRun(recorded([search('a'), search('a'), search('a')], stuck));
    expect(replay).toMatchObject({ caught: true, label: 'stuck', afterStop: { steps: 0 } });
  });

  it('counts a fault stop on the first step (index 0) as a false stop of a healthy run and a catch of a stuck one', () => {
    const steps = [search('a'), search('b')];
    const budget = { budget: { maxCostUsd: 0.1 } };
    expect(replayRun(recorded(steps, { resolved: true, exitStatus: null }), budget)).toMatchObject({ falseStop: true, stop: { index: 0, fault: true } });
    expect(replayRun(recorded(steps, { resolved: false, exitStatus: 'exit_cost' }), budget)).toMatchObject({ caught: true, stop: { index: 0 } });
  });

  it('labels by the stuck statuses it is given, exit_cost alone without any', () => {
    const outcome = { resolved: false, exitStatus: 'max_steps' };
    expect(replayRun(recorded([search('a')], outcome)).label).toBe('ambiguous');
    expect(replayRun(recorded([search('a')], outcome), undefined, DEFAULT_STUCK_STATUS).label).toBe('stuck');
  });

  it('uses the options it is given', () => {
    const replay = replayRun(recorded([search('a'), search('a'), search('a')]), { repeatedToolCall: { threshold: 2 } });
    expect(replay.stop?.index).toBe(1);
  });

  it('ignores the wall clock: only recorded durations count against maxDurationMs', () => {
    let time = 0;
    // Without the frozen clock, this one would put every check a million milliseconds after the last.
    const slowClock = { now: () => (time += 1_000_000) };
    const steps: GuardStep[] = [{ text: 'a', durationMs: 400 }, { text: 'b', durationMs: 400 }, { text: 'c', durationMs: 400 }];
    const replay = replayRun(recorded(steps), { ...slowClock, noProgress: false, budget: { maxDurationMs: 1000 } });
    expect(replay.stop).toMatchObject({ index: 2, code: 'BUDGET_DURATION_MS' });
  });
});

describe('labelRun', () => {
  it.each([
    [null, null],
    [{ resolved: null, exitStatus: 'exit_cost' }, null],
    [{ resolved: true, exitStatus: 'submitted (exit_cost)' }, 'healthy'],
    [{ resolved: true, exitStatus: null }, 'healthy'],
    [{ resolved: false, exitStatus: 'exit_cost' }, 'stuck'],
    [{ resolved: false, exitStatus: 'submitted (exit_cost)' }, 'stuck'],
    [{ resolved: false, exitStatus: 'exit_context' }, 'ambiguous'],
    [{ resolved: false, exitStatus: null }, 'ambiguous'],
  ] as const)('labels %j as %s', (outcome, label) => {
    expect(labelRun(outcome)).toBe(label);
    expect(labelRun(outcome, EXIT_COST_STATUS)).toBe(label);
  });

  it.each([
    ['exit_cost', 'stuck'],
    ['submitted (exit_cost)', 'stuck'],
    ['max_steps', 'stuck'],
    ['too_many_errors', 'stuck'],
    ['exit_context', 'ambiguous'],
    ['user_stop', 'ambiguous'],
  ] as const)('with the default stuck statuses, labels an unresolved run ending %j as %s', (exitStatus, label) => {
    expect(labelRun({ resolved: false, exitStatus }, DEFAULT_STUCK_STATUS)).toBe(label);
  });

  it('takes any pattern, searched anywhere, and ignores a global flag\'s state', () => {
    const global = /limit/g;
    const outcome = { resolved: false, exitStatus: 'hit limit' };
    expect([labelRun(outcome, global), labelRun(outcome, global), labelRun(outcome, /^limit/)]).toEqual(['stuck', 'stuck', 'ambiguous']);
    expect(labelRun({ resolved: false, exitStatus: null }, /(?:)/)).toBe('ambiguous');
    expect(labelRun({ resolved: true, exitStatus: 'max_steps' }, DEFAULT_STUCK_STATUS)).toBe('healthy');
  });
});

describe('addUsage', () => {
  it('counts steps and sums the usable figures, falling back to input plus output for total tokens', () => {
    const steps = [
      { usage: { inputTokens: 100, outputTokens: 10, costUsd: 0.5 } },
      { usage: { inputTokens: 1, outputTokens: 2, totalTokens: 50 } },
      { usage: { inputTokens: Number.NaN, outputTokens: -4, totalTokens: Number.POSITIVE_INFINITY, costUsd: '1' } },
      { text: 'no usage' },
      { usage: null },
    ] as unknown as GuardStep[];
    expect(addUsage(emptyUsage(), steps)).toEqual({ steps: 5, inputTokens: 101, outputTokens: 12, totalTokens: 160, costUsd: 0.5 });
  });

  it('adds to the totals it is given', () => {
    const totals = { steps: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: 1 };
    expect(addUsage(totals, [{ usage: { inputTokens: 1 } }])).toBe(totals);
    expect(totals).toEqual({ steps: 2, inputTokens: 2, outputTokens: 1, totalTokens: 3, costUsd: 1 });
  });

  it('sums as the guard does: decimals add as decimals, and sums stop at the largest finite number', () => {
    const tenth = Array.from({ length: 10 }, () => ({ usage: { costUsd: 0.1 } }));
    expect(addUsage(emptyUsage(), tenth).costUsd).toBe(1);
    const huge = [{ usage: { inputTokens: 1e308, costUsd: 1e308 } }, { usage: { inputTokens: 1e308, costUsd: 1e308 } }];
    expect(addUsage(emptyUsage(), huge)).toEqual({
      steps: 2,
      inputTokens: Number.MAX_VALUE,
      outputTokens: 0,
      totalTokens: Number.MAX_VALUE,
      costUsd: Number.MAX_VALUE,
    });
  });
});

describe('addUsage and guard.summary() agree', () => {
  // Once the replay summed usage on its own: two steps of 1e308 input tokens gave 1.797e308 in summary() but null in
  // the replay JSON's afterStop. Now both go through the guard's run totals.
  const cases: [string, GuardStep[]][] = [
    ['two steps of 1e308 input tokens', [{ usage: { inputTokens: 1e308, outputTokens: 1 } }, { usage: { inputTokens: 1e308, outputTokens: 1 } }]],
    ['ten steps of $0.10', Array.from({ length: 10 }, () => ({ usage: { costUsd: 0.1, totalTokens: 0.1 } }))],
    ['figures the guard does not use', [{ usage: { inputTokens: -1, outputTokens: Number.NaN, costUsd: '1' } }, { usage: null }, { text: 'none' }] as unknown as GuardStep[]],
    ['a missing total, input plus output', [{ usage: { inputTokens: 0.1, outputTokens: 0.2 } }, { usage: { inputTokens: 1, totalTokens: 5 } }]],
  ];

  it.each(cases)('on %s', (_label, steps) => {
    const guard = createGuard(ALL_OFF);
    for (const step of steps) guard.check(step);
    const { inputTokens, outputTokens, totalTokens, costUsd } = guard.summary().totals;
    expect(addUsage(emptyUsage(), steps)).toStrictEqual({ steps: steps.length, inputTokens, outputTokens, totalTokens, costUsd });
  });
});

describe('addTotals', () => {
  it('stops at the largest finite number and adds decimals as decimals', () => {
    const totals = { steps: 1, inputTokens: Number.MAX_VALUE, outputTokens: 0, totalTokens: 0, costUsd: 0.1 };
    expect(addTotals(totals, { steps: 1, inputTokens: Number.MAX_VALUE, outputTokens: 0, totalTokens: 0, costUsd: 0.2 })).toEqual({
      steps: 2,
      inputTokens: Number.MAX_VALUE,
      outputTokens: 0,
      totalTokens: 0,
      costUsd: 0.3,
    });
  });

  it('adds every field', () => {
    const totals = { steps: 1, inputTokens: 2, outputTokens: 3, totalTokens: 4, costUsd: 5 };
    expect(addTotals(totals, { steps: 10, inputTokens: 20, outputTokens: 30, totalTokens: 40, costUsd: 50 })).toBe(totals);
    expect(totals).toEqual({ steps: 11, inputTokens: 22, outputTokens: 33, totalTokens: 44, costUsd: 55 });
  });
});

const saved = (steps: number) => ({ steps, inputTokens: 10 * steps, outputTokens: steps, totalTokens: 11 * steps, costUsd: steps / 4 });

describe('summarize', () => {
  it('gives zeros and no median for no runs', () => {
    expect(summarize([])).toEqual({
      runs: 0,
      stopped: 0,
      faultStops: 0,
      stopsByCode: {},
      medianStopStep: null,
      healthy: { runs: 0, falseStops: 0 },
      stuck: { runs: 0, catches: 0, saved: { steps: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0 } },
      ambiguous: { runs: 0, faultStops: 0 },
      inputShape: { runs: 0, fields: {} },
    });
  });

  it('counts stops by code and takes the median 1-based stop step (odd and even counts)', () => {
    const odd = [
      replayOf(null, { index: 9, code: 'MAX_STEPS' }),
      replayOf(null, { index: 0, code: 'FINISH_TERMINAL', fault: false }),
      replayOf(null, { index: 2, code: 'MAX_STEPS' }),
      replayOf(null, null),
    ];
    expect(summarize(odd)).toMatchObject({ runs: 4, stopped: 3, faultStops: 2, stopsByCode: { MAX_STEPS: 2, FINISH_TERMINAL: 1 }, medianStopStep: 3 });
    const even = [...odd, replayOf(null, { index: 5, code: 'NO_PROGRESS' })];
    expect(summarize(even).medianStopStep).toBe(4.5);
    expect(summarize([replayOf(null, { index: 6 })]).medianStopStep).toBe(7);
  });

  it('counts false stops on healthy runs, catches and their savings on stuck runs, fault stops on ambiguous runs', () => {
    const summary = summarize([
      replayOf('healthy', null),
      replayOf('healthy', {}, { falseStop: true }),
      replayOf('healthy', { fault: false }),
      replayOf('stuck', {}, { caught: true, afterStop: saved(4) }),
      replayOf('stuck', {}, { caught: true, afterStop: saved(2) }),
      replayOf('stuck', { fault: false }, { afterStop: saved(100) }),
      replayOf('stuck', null),
      replayOf('ambiguous', {}),
      replayOf('ambiguous', { fault: false }),
      replayOf('ambiguous', null),
      replayOf(null, {}),
    ]);
    expect(summary.healthy).toEqual({ runs: 3, falseStops: 1 });
    expect(summary.stuck).toEqual({ runs: 4, catches: 2, saved: saved(6) });
    expect(summary.ambiguous).toEqual({ runs: 3, faultStops: 1 });
    expect(summary.faultStops).toBe(5);
  });
});

describe('createTally', () => {
  it('takes the median from counts per stop step, however many runs stopped there', () => {
    const tally = createTally();
    for (let i = 0; i < 1000; i++) tally.add(replayOf(null, { index: 4 }));
    for (let i = 0; i < 999; i++) tally.add(replayOf(null, { index: 0 }));
    expect(tally.summary().medianStopStep).toBe(5);
    tally.add(replayOf(null, { index: 0 }));
    expect(tally.summary().medianStopStep).toBe(3);
    tally.add(replayOf(null, null));
    expect(tally.summary()).toMatchObject({ runs: 2001, stopped: 2000, medianStopStep: 3 });
  });

  it('gives a summary that later runs do not change', () => {
    const tally = createTally();
    tally.add(replayOf('stuck', {}, { caught: true, afterStop: saved(1) }));
    const first = tally.summary();
    tally.add(replayOf('stuck', { code: 'OTHER' }, { caught: true, afterStop: saved(1) }));
    tally.add(replayOf('healthy', null));
    tally.add(replayOf('ambiguous', null));
    expect(first).toEqual(summarize([replayOf('stuck', {}, { caught: true, afterStop: saved(1) })]));
    expect(tally.summary()).toMatchObject({ runs: 4, stopsByCode: { MAX_STEPS: 1, OTHER: 1 }, stuck: { catches: 2, saved: saved(2) } });
  });
});

describe('recordsCost', () => {
  it('is true when some step records a usable cost, zero included', () => {
    expect(recordsCost([{ text: 'a' }, { usage: { costUsd: 0 } }])).toBe(true);
    expect(recordsCost([{ usage: { inputTokens: 3 } }, { text: 'b' }])).toBe(false);
    expect(recordsCost([{ usage: { costUsd: -1 } }, { usage: { costUsd: '2' } }] as unknown as GuardStep[])).toBe(false);
    expect(recordsCost([])).toBe(false);
  });
});
