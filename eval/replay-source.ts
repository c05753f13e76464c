/** Replays the runs of one source under every configuration, with the replay command's own modules. */
import type { RecordedRun } from '../src/cli/read-runs.js';
import {
  addUsage,
  createTally,
  DEFAULT_STUCK_STATUS,
  emptyUsage,
  labelRun,
  recordsCost,
  replayRun,
  type ReplaySummary,
  type UsageTotals,
} from '../src/cli/replay.js';
import type { Configuration } from './configurations.js';

/** What one configuration did on one source. */
export interface ConfigurationResult {
  readonly summary: ReplaySummary;
  /** Stuck runs caught, by the stop code that caught them. */
  readonly catchesByCode: Readonly<Record<string, number>>;
  /** Healthy runs stopped early, by the stop code that stopped them. */
  readonly falseStopsByCode: Readonly<Record<string, number>>;
}

/** One source, replayed under every configuration. */
export interface SourceResults {
  readonly source: string;
  readonly runs: number;
  readonly steps: number;
  /** Steps and usage of the stuck runs, whole: what a catch at their first step would save. */
  readonly stuckUsage: Readonly<UsageTotals>;
  /** Whether the runs report a cost per step. */
  readonly hasCost: boolean;
  /** Whether the runs report token usage. */
  readonly hasTokens: boolean;
  /** One result per configuration, in the order given. */
  readonly results: readonly ConfigurationResult[];
}

/** The stuck-status pattern of the replay command: a run is stuck when it ended at one of these limits. */
export const STUCK_STATUS = DEFAULT_STUCK_STATUS;

function bump(counts: Record<string, number>, code: string): void {
  counts[code] = (counts[code] ?? 0) + 1;
}

/**
 * Replays every run under one configuration: a fresh guard per run, until its first stop (see `replayRun`).
 * @param runs - the source's runs
 * @param configuration - the guard options
 */
export function replayConfiguration(runs: readonly RecordedRun[], configuration: Configuration): ConfigurationResult {
  const tally = createTally();
  const catchesByCode: Record<string, number> = {};
  const falseStopsByCode: Record<string, number> = {};
  for (const run of runs) {
    const replay = replayRun(run, configuration.options, STUCK_STATUS);
    tally.add(replay);
    if (replay.stop !== null && replay.caught) bump(catchesByCode, replay.stop.code);
    if (replay.stop !== null && replay.falseStop) bump(falseStopsByCode, replay.stop.code);
  }
  return { summary: tally.summary(), catchesByCode, falseStopsByCode };
}

/**
 * Replays one source under every configuration.
 * @param source - its name
 * @param runs - its runs
 * @param configurations - the rows
 */
export function replaySource(source: string, runs: readonly RecordedRun[], configurations: readonly Configuration[]): SourceResults {
  const stuck = runs.filter((run) => labelRun(run.outcome, STUCK_STATUS) === 'stuck');
  const stuckUsage = stuck.reduce((totals, run) => addUsage(totals, run.steps), emptyUsage());
  const allUsage = runs.reduce((totals, run) => addUsage(totals, run.steps), emptyUsage());
  return {
    source,
    runs: runs.length,
    steps: allUsage.steps,
    stuckUsage,
    hasCost: runs.some((run) => recordsCost(run.steps)),
    hasTokens: allUsage.totalTokens > 0,
    results: configurations.map((configuration) => replayConfiguration(runs, configuration)),
  };
}
