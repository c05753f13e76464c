/** Writes eval/RESULTS.md from the summaries: figures only, never trace content. */
import type { ReplaySummary, UsageTotals } from '../src/cli/replay.js';
import type { Configuration } from './configurations.js';
import { markdownTable } from './markdown-table.js';

/** One trace file, read and replayed under every configuration. */
export interface SourceResults {
  readonly source: string;
  readonly runs: number;
  readonly steps: number;
  /** Steps and usage of the stuck runs, whole: what a catch at their first step would save. */
  readonly stuckUsage: Readonly<UsageTotals>;
  /** Whether the runs report a cost per step. */
  readonly hasCost: boolean;
  /** One summary per configuration, in `CONFIGURATIONS` order. */
  readonly summaries: readonly ReplaySummary[];
}

function count(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function ratio(part: number, whole: number): string {
  return whole === 0 ? '–' : `${count(part)} / ${count(whole)} (${((100 * part) / whole).toFixed(1)}%)`;
}

function savedCell(summary: ReplaySummary, hasCost: boolean): string {
  if (summary.stuck.runs === 0) return '–';
  const { steps, totalTokens, costUsd } = summary.stuck.saved;
  return `${count(steps)} steps, ${count(totalTokens)} tokens${hasCost ? `, $${costUsd.toFixed(2)}` : ''}`;
}

function resultsTable(configurations: readonly Configuration[], summaries: readonly ReplaySummary[], hasCost: boolean): string {
  const rows = configurations.map((configuration, i) => {
    const summary = summaries[i];
    if (summary === undefined) throw new Error(`no summary for ${configuration.name}`);
    return [
      `${configuration.group}: ${configuration.name}`,
      ratio(summary.healthy.falseStops, summary.healthy.runs),
      ratio(summary.stuck.catches, summary.stuck.runs),
      savedCell(summary, hasCost),
      ratio(summary.ambiguous.faultStops, summary.ambiguous.runs),
    ];
  });
  return markdownTable(
    ['rule', 'false stops (healthy runs)', 'catches (stuck runs)', 'saved by the catches', 'fault stops (ambiguous runs)'],
    rows,
  );
}

/** Adds up the summaries of several sources, configuration by configuration. */
function combine(sources: readonly SourceResults[], configurations: readonly Configuration[]): ReplaySummary[] {
  return configurations.map((_, i) => {
    const parts = sources.map((source) => source.summaries[i]).filter((summary) => summary !== undefined);
    const sum = (pick: (summary: ReplaySummary) => number): number => parts.reduce((total, part) => total + pick(part), 0);
    return {
      runs: sum((s) => s.runs),
      stopped: sum((s) => s.stopped),
      faultStops: sum((s) => s.faultStops),
      stopsByCode: {},
      medianStopStep: null,
      healthy: { runs: sum((s) => s.healthy.runs), falseStops: sum((s) => s.healthy.falseStops) },
      stuck: {
        runs: sum((s) => s.stuck.runs),
        catches: sum((s) => s.stuck.catches),
        saved: {
          steps: sum((s) => s.stuck.saved.steps),
          inputTokens: sum((s) => s.stuck.saved.inputTokens),
          outputTokens: sum((s) => s.stuck.saved.outputTokens),
          totalTokens: sum((s) => s.stuck.saved.totalTokens),
          costUsd: sum((s) => s.stuck.saved.costUsd),
        },
      },
      ambiguous: { runs: sum((s) => s.ambiguous.runs), faultStops: sum((s) => s.ambiguous.faultStops) },
    };
  });
}

function stopsByCodeTable(sources: readonly SourceResults[], defaultIndex: number): string {
  const codes = [...new Set(sources.flatMap((source) => Object.keys(source.summaries[defaultIndex]?.stopsByCode ?? {})))].sort();
  return markdownTable(
    ['source', ...codes, 'median stop step'],
    sources.map((source) => {
      const summary = source.summaries[defaultIndex];
      return [
        source.source,
        ...codes.map((code) => count(summary?.stopsByCode[code] ?? 0)),
        summary?.medianStopStep === null || summary === undefined ? '–' : String(summary.medianStopStep),
      ];
    }),
  );
}

/**
 * The whole RESULTS.md.
 * @param sources - per trace file, its summaries
 * @param configurations - the rows
 * @param intro - Markdown placed before the tables (data description)
 */
export function formatResults(sources: readonly SourceResults[], configurations: readonly Configuration[], intro: string): string {
  const parts = [intro];
  parts.push(
    '## Data',
    '',
    markdownTable(
      ['source', 'runs', 'steps', 'healthy', 'stuck', 'ambiguous', 'steps and tokens of the stuck runs', 'cost per step'],
      sources.map((source) => {
        const summary = source.summaries[0];
        return [
          source.source,
          count(source.runs),
          count(source.steps),
          count(summary?.healthy.runs ?? 0),
          count(summary?.stuck.runs ?? 0),
          count(summary?.ambiguous.runs ?? 0),
          source.stuckUsage.steps === 0 ? '–' : `${count(source.stuckUsage.steps)} steps, ${count(source.stuckUsage.totalTokens)} tokens`,
          source.hasCost ? 'yes' : 'no',
        ];
      }),
    ),
    '',
    '## Default guard: stops by code',
    '',
    'Every stop of the default guard, normal finishes (`FINISH_TERMINAL` on `stop`) included.',
    '',
    stopsByCodeTable(sources, 0),
    '',
  );
  for (const source of sources) {
    parts.push(`## ${source.source}`, '', resultsTable(configurations, source.summaries, source.hasCost), '');
  }
  parts.push(
    '## All sources together',
    '',
    // Cost is shown only when every source with stuck runs reports it; otherwise the sum would understate it.
    resultsTable(
      configurations,
      combine(sources, configurations),
      sources.some((source) => (source.summaries[0]?.stuck.runs ?? 0) > 0) &&
        sources.every((source) => source.hasCost || (source.summaries[0]?.stuck.runs ?? 0) === 0),
    ),
    '',
  );
  return parts.join('\n');
}
