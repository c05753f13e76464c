import { describe, expect, it } from 'vitest';
import { combineSources } from '../../eval/combine.js';
import type { SourceResults } from '../../eval/replay-source.js';

function source(name: string, falseStops: number, catches: number, tokens: number, cost: boolean): SourceResults {
  const usage = { steps: 10, inputTokens: tokens, outputTokens: 0, totalTokens: tokens, costUsd: 0 };
  return {
    source: name,
    runs: 5,
    steps: 20,
    stuckUsage: usage,
    hasCost: cost,
    hasTokens: tokens > 0,
    results: [
      {
        summary: {
          runs: 5,
          stopped: 2,
          faultStops: 2,
          stopsByCode: { NO_PROGRESS: 2 },
          medianStopStep: 3,
          healthy: { runs: 2, falseStops },
          stuck: { runs: 2, catches, saved: { ...usage, steps: 4 } },
          ambiguous: { runs: 1, faultStops: 0 },
          inputShape: { runs: 1, fields: { 'usage.prompt_tokens': 1 } },
        },
        catchesByCode: { NO_PROGRESS: catches },
        falseStopsByCode: falseStops > 0 ? { NO_PROGRESS: falseStops } : {},
      },
    ],
  };
}

describe('combineSources', () => {
  it('adds runs, steps, labels, catches, savings and codes, configuration by configuration', () => {
    const total = combineSources([source('a', 1, 1, 100, true), source('b', 0, 2, 0, false)]);
    expect(total.source).toBe('all sources');
    expect(total.runs).toBe(10);
    expect(total.stuckUsage.steps).toBe(20);
    const [result] = total.results;
    expect(result?.summary.healthy).toEqual({ runs: 4, falseStops: 1 });
    expect(result?.summary.inputShape).toEqual({ runs: 2, fields: { 'usage.prompt_tokens': 2 } });
    expect(result?.summary.stuck.catches).toBe(3);
    expect(result?.summary.stuck.saved.steps).toBe(8);
    expect(result?.summary.stopsByCode).toEqual({ NO_PROGRESS: 4 });
    expect(result?.summary.medianStopStep).toBeNull();
    expect(result?.catchesByCode).toEqual({ NO_PROGRESS: 3 });
    expect(result?.falseStopsByCode).toEqual({ NO_PROGRESS: 1 });
  });

  it('reports cost only when every source with stuck runs records it, tokens when one does', () => {
    const mixed = combineSources([source('a', 0, 0, 100, true), source('b', 0, 0, 0, false)]);
    expect(mixed.hasCost).toBe(false);
    expect(mixed.hasTokens).toBe(true);
    expect(combineSources([]).results).toEqual([]);
  });
});
