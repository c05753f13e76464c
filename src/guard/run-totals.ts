import type { RunTotals } from '../detectors/detector.js';
import type { GuardStep, GuardUsage } from '../types.js';
import { ExactSum } from './exact-sum.js';

/** The figures a run adds up, in the order summaries list them. */
export const TOTAL_NAMES = ['inputTokens', 'outputTokens', 'totalTokens', 'costUsd', 'durationMs'] as const;

/** A run's totals, each kept exactly (see {@link ExactSum}). */
export type RunSums = Readonly<Record<keyof RunTotals, ExactSum>>;

/** All-zero totals for a new run. */
export function emptySums(): RunSums {
  return { inputTokens: new ExactSum(), outputTokens: new ExactSum(), totalTokens: new ExactSum(), costUsd: new ExactSum(), durationMs: new ExactSum() };
}

/** A copy that goes on adding on its own (for a peek). */
export function copySums(sums: RunSums): RunSums {
  return {
    inputTokens: sums.inputTokens.copy(),
    outputTokens: sums.outputTokens.copy(),
    totalTokens: sums.totalTokens.copy(),
    costUsd: sums.costUsd.copy(),
    durationMs: sums.durationMs.copy(),
  };
}

/** The totals a step's usage adds to. */
export type UsageSums = Pick<RunSums, 'inputTokens' | 'outputTokens' | 'totalTokens' | 'costUsd'>;

/**
 * Adds one step's usage, as `reduceStep` read it: a usage without `totalTokens` counts its input plus output. The one
 * place usage is added up, for the guard's totals and for the replay command's.
 * @param sums - the exact totals, changed in place
 * @param usage - the usable figures of one step
 */
export function addUsageFigures(sums: UsageSums, usage: GuardUsage): void {
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  sums.inputTokens.add(input);
  sums.outputTokens.add(output);
  if (usage.totalTokens === undefined) {
    sums.totalTokens.add(input);
    sums.totalTokens.add(output);
  } else sums.totalTokens.add(usage.totalTokens);
  sums.costUsd.add(usage.costUsd ?? 0);
}

/**
 * Adds a sanitised step's figures, and writes the nearest doubles into `totals`.
 * @param sums - the exact totals, changed in place
 * @param totals - the totals detectors read, written in place
 * @param step - a step as `reduceStep` recorded it
 */
export function addStep(sums: RunSums, totals: RunTotals, step: GuardStep): void {
  if (step.usage !== undefined) addUsageFigures(sums, step.usage);
  sums.durationMs.add(step.durationMs ?? 0);
  for (const name of TOTAL_NAMES) totals[name] = sums[name].value;
}
