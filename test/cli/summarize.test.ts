import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/cli/summarize.js';
import { replayOf } from './replay-fixtures.js';

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
