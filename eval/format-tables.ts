/** The report's tables of stops: per source for one configuration, per configuration for one source, by stop code. */
import type { Configuration } from './configurations.js';
import { markdownTable } from './markdown-table.js';
import { count, percent, ratio, short } from './numbers.js';
import type { ConfigurationResult, SourceResults } from './replay-source.js';

function resultAt(source: SourceResults, index: number): ConfigurationResult {
  const result = source.results[index];
  if (result === undefined) throw new Error(`${source.source}: no result for configuration ${String(index)}`);
  return result;
}

/** Steps saved by the catches, out of all steps of the stuck runs. */
function stepsSaved(source: SourceResults, result: ConfigurationResult): string {
  const whole = source.stuckUsage.steps;
  return whole === 0 ? '–' : `${count(result.summary.stuck.saved.steps)} of ${count(whole)} (${percent(result.summary.stuck.saved.steps, whole)})`;
}

/** Tokens (and cost, where recorded) saved by the catches, out of those of the stuck runs. */
function tokensSaved(source: SourceResults, result: ConfigurationResult): string {
  if (source.stuckUsage.steps === 0) return '–';
  const whole = source.stuckUsage.totalTokens;
  if (!source.hasTokens || whole === 0) return 'not recorded';
  const { totalTokens, costUsd } = result.summary.stuck.saved;
  const cost = source.hasCost && source.stuckUsage.costUsd > 0 ? `, $${costUsd.toFixed(2)} of $${source.stuckUsage.costUsd.toFixed(2)}` : '';
  return `${short(totalTokens)} of ${short(whole)} (${percent(totalTokens, whole)})${cost}`;
}

function cells(source: SourceResults, result: ConfigurationResult): string[] {
  const { healthy, stuck, ambiguous } = result.summary;
  return [
    ratio(healthy.falseStops, healthy.runs),
    ratio(stuck.catches, stuck.runs),
    stepsSaved(source, result),
    tokensSaved(source, result),
    ratio(ambiguous.faultStops, ambiguous.runs),
  ];
}

const FIGURES = ['false stops (healthy)', 'catches (stuck)', 'steps saved (of stuck steps)', 'tokens saved (of stuck tokens)', 'fault stops (ambiguous)'];

/**
 * One configuration, a row per source and one for each total (groups of sources, all of them), in bold.
 * @param sources - per source results
 * @param totals - sources combined: the groups, then all
 * @param index - the configuration's index
 */
export function perSourceTable(sources: readonly SourceResults[], sums: readonly SourceResults[], index: number): string {
  const rows = [...sources, ...sums].map((source) => [
    sums.includes(source) ? `**${source.source}**` : source.source,
    ...cells(source, resultAt(source, index)),
  ]);
  return markdownTable(['source', ...FIGURES], rows);
}

/** False stops, catches and steps saved, in one cell. */
function brief(source: SourceResults, result: ConfigurationResult): string {
  const { healthy, stuck } = result.summary;
  const saved = source.stuckUsage.steps === 0 ? '' : `, ${count(stuck.saved.steps)} steps saved`;
  return `${count(healthy.falseStops)} / ${count(healthy.runs)} · ${stuck.runs === 0 ? '–' : `${count(stuck.catches)} / ${count(stuck.runs)}`}${saved}`;
}

/**
 * The guard beside other agents' rules on every source: false stops, catches and steps saved of each, and the rules
 * that stop fewer healthy runs of a source while catching more of its stuck ones than the guard (which would make the
 * guard's trade-off there worse on both counts).
 * @param rows - sources, then totals
 * @param guard - the guard's configuration index
 * @param peers - each peer's name and configuration index
 */
export function peersTable(rows: readonly SourceResults[], guard: number, peers: readonly { readonly name: string; readonly index: number }[]): string {
  const body = rows.map((source) => {
    const ours = resultAt(source, guard).summary;
    const better = peers.filter(({ index }) => {
      const theirs = resultAt(source, index).summary;
      return theirs.healthy.falseStops < ours.healthy.falseStops && theirs.stuck.catches > ours.stuck.catches;
    });
    return [
      source.source,
      brief(source, resultAt(source, guard)),
      ...peers.map(({ index }) => brief(source, resultAt(source, index))),
      better.length === 0 ? 'none' : better.map(({ name }) => name).join(', '),
    ];
  });
  return markdownTable(['source', 'the guard', ...peers.map(({ name }) => name), 'fewer false stops and more catches than the guard'], body);
}

/**
 * Every configuration on one source (or all sources combined).
 * @param configurations - the rows
 * @param source - the results
 */
export function perConfigurationTable(configurations: readonly Configuration[], source: SourceResults): string {
  const rows = configurations.map((configuration, i) => [`${configuration.group}: ${configuration.name}`, ...cells(source, resultAt(source, i))]);
  return markdownTable(['rule', ...FIGURES], rows);
}

/**
 * Stuck runs caught, or healthy runs stopped early, by the stop code that did it: a row per source with any, and a
 * total row.
 * @param which - `catchesByCode` or `falseStopsByCode`
 */
export function byCodeTable(
  sources: readonly SourceResults[],
  total: SourceResults,
  index: number,
  which: 'catchesByCode' | 'falseStopsByCode',
): string {
  const codes = Object.keys(resultAt(total, index)[which]).sort();
  if (codes.length === 0) return '(none)';
  const rows = [...sources, total]
    .filter((source) => Object.keys(resultAt(source, index)[which]).length > 0)
    .map((source) => [
      source === total ? `**${source.source}**` : source.source,
      ...codes.map((code) => count(resultAt(source, index)[which][code] ?? 0)),
    ]);
  return markdownTable(['source', ...codes], rows);
}
