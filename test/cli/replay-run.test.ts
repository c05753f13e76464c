import { describe, expect, it } from 'vitest';
import type { RecordedRun } from '../../src/cli/recorded-run.js';
import { replayRun } from '../../src/cli/replay-run.js';
import type { GuardStep } from '../../src/index.js';

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
