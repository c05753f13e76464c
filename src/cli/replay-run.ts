import { createGuard, isFault, type GuardOptions, type StopReason } from '../index.js';
import type { RecordedRun } from './recorded-run.js';
import { labelRun, type RunLabel } from './run-label.js';
import { addUsage, emptyUsage, type UsageTotals } from './step-usage.js';

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
}

// Replays happen after the fact, so the wall clock says nothing about the run: only recorded durations count.
const frozenClock = (): number => 0;

/**
 * Replays one run through a fresh guard, step by step, until the first stop verdict.
 * @param run - the recorded run
 * @param options - guard options (validated by `createGuard`); `now` is always replaced by a frozen clock
 * @throws TypeError from `createGuard` when the options are invalid
 */
export function replayRun(run: RecordedRun, options?: GuardOptions): RunReplay {
  const guard = createGuard({ ...options, now: frozenClock });
  const label = labelRun(run.outcome);
  let stop: ReplayStop | null = null;
  for (const [index, step] of run.steps.entries()) {
    const verdict = guard.check(step);
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
  };
}
