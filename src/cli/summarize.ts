import type { RunReplay } from './replay-run.js';
import { addTotals, emptyUsage, type UsageTotals } from './step-usage.js';

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
  /** Unsolved runs that hit their call or cost limit, the fault stops on them, and what those stops saved. */
  readonly stuck: { readonly runs: number; readonly catches: number; readonly saved: Readonly<UsageTotals> };
  /** Other unsolved runs, and the fault stops on them. */
  readonly ambiguous: { readonly runs: number; readonly faultStops: number };
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  values.sort((a, b) => a - b);
  // One middle value for odd counts, the two around the middle for even counts.
  const middle = values.slice((values.length - 1) >> 1, (values.length >> 1) + 1);
  return middle.reduce((sum, value) => sum + value, 0) / middle.length;
}

/**
 * Sums up replayed runs: stops by code, the median stop step, false stops on healthy runs, catches on stuck runs and
 * the steps, tokens and cost those catches saved.
 * @param replays - the replayed runs
 */
export function summarize(replays: readonly RunReplay[]): ReplaySummary {
  const stopsByCode: Record<string, number> = {};
  const stopSteps: number[] = [];
  const healthy = { runs: 0, falseStops: 0 };
  const stuck = { runs: 0, catches: 0, saved: emptyUsage() };
  const ambiguous = { runs: 0, faultStops: 0 };
  let faultStops = 0;

  for (const replay of replays) {
    const { stop } = replay;
    if (stop !== null) {
      stopsByCode[stop.code] = (stopsByCode[stop.code] ?? 0) + 1;
      stopSteps.push(stop.index + 1);
      if (stop.fault) faultStops++;
    }
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
  }

  return {
    runs: replays.length,
    stopped: stopSteps.length,
    faultStops,
    stopsByCode,
    medianStopStep: median(stopSteps),
    healthy,
    stuck,
    ambiguous,
  };
}
