import { addUsage as addUsageFigures, readUsage } from '../guard/read-step.js';
import { safeRead } from '../utils/read.js';
import { createGuard, isFault, type GuardOptions, type GuardStep, type GuardUsage, type StopReason } from '../index.js';
import type { RecordedRun, RunOutcome } from './read-runs.js';

/** Summed usage of a stretch of steps. */
export interface UsageTotals {
  steps: number;
  inputTokens: number;
  outputTokens: number;
  /** Each step's `totalTokens`, or its input plus output tokens when it gives no usable one. */
  totalTokens: number;
  costUsd: number;
}

/** Zero steps, zero usage. */
export function emptyUsage(): UsageTotals {
  return { steps: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0 };
}

/** A recorded step's usage, read as the guard reads it: figures that are not finite and non-negative are absent. */
function usageOf(step: unknown): GuardUsage | undefined {
  return readUsage(safeRead(step, 'usage'));
}

/**
 * Adds the usage of steps to running totals with the guard's own arithmetic (each total rounded to 15 significant digits, sums stop at the largest finite number, a missing total is input plus output), so the replay report
 * and `guard.summary()` agree.
 * @param totals - the totals to add to (changed in place)
 * @param steps - the steps to add, as recorded (not yet checked by a guard)
 */
export function addUsage(totals: UsageTotals, steps: readonly GuardStep[]): UsageTotals {
  for (const step of steps) {
    totals.steps++;
    const usage = usageOf(step);
    if (usage !== undefined) addUsageFigures(totals, usage);
  }
  return totals;
}

/**
 * Whether any of the steps records a usable cost (zero included): without one, the cost a stop saved is unknown, not
 * zero.
 * @param steps - recorded steps
 */
export function recordsCost(steps: readonly GuardStep[]): boolean {
  return steps.some((step) => usageOf(step)?.costUsd !== undefined);
}

/**
 * Adds one set of totals to another, with the same arithmetic as {@link addUsage}.
 * @param totals - the totals to add to (changed in place)
 * @param more - the totals to add
 */
export function addTotals(totals: UsageTotals, more: Readonly<UsageTotals>): UsageTotals {
  totals.steps += more.steps;
  addUsageFigures(totals, more);
  return totals;
}

/**
 * What a run's outcome says about stopping it early. `healthy`: the task was solved, so a fault stop before its last
 * step is a false stop. `stuck`: unsolved, and its exit status says it was cut off by a limit (by default `exit_cost`,
 * `max_steps` or `too_many_errors`), so a fault stop is a catch. `ambiguous`: unsolved for another reason.
 */
export type RunLabel = 'healthy' | 'stuck' | 'ambiguous';

/**
 * Exit statuses the replay command calls stuck unless `--stuck-status` says otherwise: hitting a call or cost limit
 * (`exit_cost`, SWE-agent and mini-swe-agent), a step limit (`max_steps`, tau2-bench and others) or an error limit
 * (`too_many_errors`). Searched anywhere in the status, so `submitted (exit_cost)` matches.
 */
export const DEFAULT_STUCK_STATUS = /exit_cost|max_steps|too_many_errors/;

/** `exit_cost` alone: what `labelRun` and `replayRun` use when given no pattern, the convention eval/RESULTS.md is measured with. */
export const EXIT_COST_STATUS = /exit_cost/;

/**
 * Labels a run by its outcome.
 * @param outcome - the run's outcome, if any
 * @param stuckStatus - exit statuses of stuck runs, searched anywhere in the status (its `g` and `y` flags and
 *   `lastIndex` play no part)
 * @returns the label, or `null` when the outcome does not say whether the task was solved
 */
export function labelRun(outcome: RunOutcome | null, stuckStatus: RegExp = EXIT_COST_STATUS): RunLabel | null {
  const resolved = outcome?.resolved ?? null;
  if (resolved === null) return null;
  if (resolved) return 'healthy';
  const exitStatus = outcome?.exitStatus ?? null;
  return exitStatus !== null && exitStatus.search(stuckStatus) !== -1 ? 'stuck' : 'ambiguous';
}

/** The first stop verdict of a replayed run. */
export interface ReplayStop {
  /** 0-based index of the step whose check first returned `stop: true`. */
  readonly index: number;
  readonly reason: StopReason;
  readonly code: string;
  /** `isFault(verdict)`: false only for the model finishing normally with `stop`. */
  readonly fault: boolean;
  readonly detail: string;
}

/** What replaying one recorded run through a fresh guard gave. */
export interface RunReplay {
  readonly id: string;
  readonly file: string;
  /** 1-based line of a JSON-lines file; `null` for runs from a `.json` document. */
  readonly line: number | null;
  /** Steps the run recorded. */
  readonly steps: number;
  readonly stop: ReplayStop | null;
  readonly label: RunLabel | null;
  /** A fault stop before the last step of a healthy run. */
  readonly falseStop: boolean;
  /** A fault stop on a stuck run. */
  readonly caught: boolean;
  /** The steps after the stop and their summed usage: what stopping there saved (all zero without a stop). */
  readonly afterStop: UsageTotals;
  /**
   * The fields the guard warned of with `INPUT_SHAPE` until it stopped (another library's step shape, not read), in
   * the order it met them: a run recorded in a shape the guard does not read replays as if nothing happened in it.
   */
  readonly inputShape: readonly string[];
}

// Replays happen after the fact, so the wall clock says nothing about the run: only recorded durations count.
const frozenClock = (): number => 0;

/**
 * Replays one run through a fresh guard, step by step, until the first stop verdict.
 * @param run - the recorded run
 * @param options - guard options (validated by `createGuard`); `now` is always replaced by a frozen clock
 * @param stuckStatus - exit statuses of stuck runs, for the run's label (see {@link labelRun})
 * @throws TypeError from `createGuard` when the options are invalid
 */
export function replayRun(run: RecordedRun, options?: GuardOptions, stuckStatus: RegExp = EXIT_COST_STATUS): RunReplay {
  const guard = createGuard({ ...options, now: frozenClock });
  const label = labelRun(run.outcome, stuckStatus);
  let stop: ReplayStop | null = null;
  const inputShape: string[] = [];
  for (const [index, step] of run.steps.entries()) {
    const verdict = guard.check(step);
    for (const warning of verdict.warnings ?? []) if (warning.code === 'INPUT_SHAPE') inputShape.push(warning.field);
    if (verdict.stop) {
      stop = { index, reason: verdict.reason, code: verdict.code, fault: isFault(verdict), detail: verdict.detail };
      break;
    }
  }
  // -1 when there is no fault stop, so the comparisons below need no null checks.
  const faultIndex = stop?.fault === true ? stop.index : -1;
  return {
    id: run.id,
    file: run.file,
    line: run.line,
    steps: run.steps.length,
    stop,
    label,
    falseStop: label === 'healthy' && faultIndex >= 0 && faultIndex < run.steps.length - 1,
    caught: label === 'stuck' && faultIndex >= 0,
    afterStop: addUsage(emptyUsage(), run.steps.slice(stop === null ? run.steps.length : stop.index + 1)),
    inputShape,
  };
}

/** Totals over a set of replayed runs. */
export interface ReplaySummary {
  readonly runs: number;
  /** Runs with a stop verdict, normal finishes included. */
  readonly stopped: number;
  /** Runs whose stop is a fault (`isFault`). */
  readonly faultStops: number;
  /** Stopped runs per stop code. */
  readonly stopsByCode: Readonly<Record<string, number>>;
  /** Median, over stopped runs, of the 1-based step that stopped them (`stop.index + 1`); `null` without stops. */
  readonly medianStopStep: number | null;
  /** Solved runs, and the fault stops before their last step. */
  readonly healthy: { readonly runs: number; readonly falseStops: number };
  /** Unsolved runs whose exit status marks them stuck, the fault stops on them, and what those stops saved. */
  readonly stuck: { readonly runs: number; readonly catches: number; readonly saved: Readonly<UsageTotals> };
  /** Other unsolved runs, and the fault stops on them. */
  readonly ambiguous: { readonly runs: number; readonly faultStops: number };
  /** Runs with a step field in a shape the guard does not read, and how many runs had each such field. */
  readonly inputShape: { readonly runs: number; readonly fields: Readonly<Record<string, number>> };
}

/** Adds up replayed runs one by one; what it keeps does not grow with their number. */
export interface ReplayTally {
  /** Counts one replayed run. */
  add(replay: RunReplay): void;
  /** The totals so far. */
  summary(): ReplaySummary;
}

/**
 * The median of values given as counts per value: the middle one for an odd total, the mean of the two around the
 * middle for an even one.
 */
function medianOfCounts(counts: ReadonlyMap<number, number>, total: number): number | null {
  if (total === 0) return null;
  let seen = 0;
  const upTo = [...counts].sort(([a], [b]) => a - b).map(([value, count]) => ({ value, seen: (seen += count) }));
  const atRank = (rank: number): number => upTo.find((entry) => entry.seen > rank)?.value ?? 0;
  return (atRank(Math.floor((total - 1) / 2)) + atRank(Math.floor(total / 2))) / 2;
}

/**
 * A tally of replayed runs: stops by code, the median stop step, false stops on healthy runs, catches on stuck runs
 * and the steps, tokens and cost those catches saved. The median is taken from a count per stop step, so memory is
 * bounded by the longest run, not by the number of runs.
 */
export function createTally(): ReplayTally {
  const stopsByCode: Record<string, number> = {};
  const stopSteps = new Map<number, number>();
  const healthy = { runs: 0, falseStops: 0 };
  const stuck = { runs: 0, catches: 0, saved: emptyUsage() };
  const ambiguous = { runs: 0, faultStops: 0 };
  const shapeFields: Record<string, number> = {};
  let shapeRuns = 0;
  let runs = 0;
  let stopped = 0;
  let faultStops = 0;

  return {
    add(replay) {
      runs++;
      const { stop } = replay;
      if (stop !== null) {
        stopped++;
        stopsByCode[stop.code] = (stopsByCode[stop.code] ?? 0) + 1;
        stopSteps.set(stop.index + 1, (stopSteps.get(stop.index + 1) ?? 0) + 1);
        if (stop.fault) faultStops++;
      }
      if (replay.inputShape.length > 0) shapeRuns++;
      for (const field of replay.inputShape) shapeFields[field] = (shapeFields[field] ?? 0) + 1;
      if (replay.label === 'healthy') {
        healthy.runs++;
        if (replay.falseStop) healthy.falseStops++;
      } else if (replay.label === 'stuck') {
        stuck.runs++;
        if (replay.caught) {
          stuck.catches++;
          addTotals(stuck.saved, replay.afterStop);
        }
      } else if (replay.label === 'ambiguous') {
        ambiguous.runs++;
        if (stop?.fault === true) ambiguous.faultStops++;
      }
    },
    summary: () => ({
      runs,
      stopped,
      faultStops,
      stopsByCode: { ...stopsByCode },
      medianStopStep: medianOfCounts(stopSteps, stopped),
      healthy: { ...healthy },
      stuck: { runs: stuck.runs, catches: stuck.catches, saved: { ...stuck.saved } },
      ambiguous: { ...ambiguous },
      inputShape: { runs: shapeRuns, fields: { ...shapeFields } },
    }),
  };
}

/**
 * Sums up replayed runs at once (see {@link createTally}).
 * @param replays - the replayed runs
 */
export function summarize(replays: Iterable<RunReplay>): ReplaySummary {
  const tally = createTally();
  for (const replay of replays) tally.add(replay);
  return tally.summary();
}
