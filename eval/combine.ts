/** Adds the results of several sources up, configuration by configuration. */
import { addTotals, emptyUsage, type ReplaySummary } from '../src/cli/replay.js';
import type { ConfigurationResult, SourceResults } from './replay-source.js';

function addCounts(into: Record<string, number>, more: Readonly<Record<string, number>>): Record<string, number> {
  for (const [code, count] of Object.entries(more)) into[code] = (into[code] ?? 0) + count;
  return into;
}

function sumSummaries(parts: readonly ReplaySummary[]): ReplaySummary {
  const sum = (pick: (summary: ReplaySummary) => number): number => parts.reduce((total, part) => total + pick(part), 0);
  return {
    runs: sum((s) => s.runs),
    stopped: sum((s) => s.stopped),
    faultStops: sum((s) => s.faultStops),
    stopsByCode: parts.reduce<Record<string, number>>((counts, part) => addCounts(counts, part.stopsByCode), {}),
    // A median does not add up; the per-source tables give it.
    medianStopStep: null,
    healthy: { runs: sum((s) => s.healthy.runs), falseStops: sum((s) => s.healthy.falseStops) },
    stuck: {
      runs: sum((s) => s.stuck.runs),
      catches: sum((s) => s.stuck.catches),
      saved: parts.reduce((totals, part) => addTotals(totals, part.stuck.saved), emptyUsage()),
    },
    ambiguous: { runs: sum((s) => s.ambiguous.runs), faultStops: sum((s) => s.ambiguous.faultStops) },
    inputShape: {
      runs: sum((s) => s.inputShape.runs),
      fields: parts.reduce<Record<string, number>>((counts, part) => addCounts(counts, part.inputShape.fields), {}),
    },
  };
}

function combineResults(parts: readonly ConfigurationResult[]): ConfigurationResult {
  return {
    summary: sumSummaries(parts.map((part) => part.summary)),
    catchesByCode: parts.reduce<Record<string, number>>((counts, part) => addCounts(counts, part.catchesByCode), {}),
    falseStopsByCode: parts.reduce<Record<string, number>>((counts, part) => addCounts(counts, part.falseStopsByCode), {}),
  };
}

/**
 * All sources as one. Cost is reported only when every source with stuck runs records it (otherwise the sum would
 * understate what was saved); tokens are reported when some such source records them, since the tokens of the stuck
 * runs they are compared with come from the same sources.
 * @param sources - the sources, each with one result per configuration in the same order
 * @param name - the name of the whole
 */
export function combineSources(sources: readonly SourceResults[], name = 'all sources'): SourceResults {
  const count = Math.max(0, ...sources.map((source) => source.results.length));
  const withStuck = sources.filter((source) => source.stuckUsage.steps > 0);
  return {
    source: name,
    runs: sources.reduce((total, source) => total + source.runs, 0),
    steps: sources.reduce((total, source) => total + source.steps, 0),
    stuckUsage: sources.reduce((totals, source) => addTotals(totals, source.stuckUsage), emptyUsage()),
    hasCost: withStuck.length > 0 && withStuck.every((source) => source.hasCost),
    hasTokens: withStuck.some((source) => source.hasTokens),
    results: Array.from({ length: count }, (_, i) =>
      combineResults(sources.map((source) => source.results[i]).filter((result) => result !== undefined)),
    ),
  };
}
