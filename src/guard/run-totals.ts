import type { RunTotals } from '../detectors/detector.js';
import type { GuardStep } from '../types.js';

/** All-zero totals for a new run. */
export function emptyTotals(): RunTotals {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0, durationMs: 0 };
}

/**
 * Adds two usable figures, stopping at the largest finite number: each figure is finite, but their sum can
 * overflow to `Infinity`, which JSON would write as `null` in summaries and budget evidence.
 */
function addCapped(total: number, figure: number): number {
  return Math.min(total + figure, Number.MAX_VALUE);
}

/** Adds a sanitised step's figures; a step without `totalTokens` counts its input plus output. */
export function addStep(totals: RunTotals, step: GuardStep): void {
  const usage = step.usage;
  if (usage !== undefined) {
    const input = usage.inputTokens ?? 0;
    const output = usage.outputTokens ?? 0;
    totals.inputTokens = addCapped(totals.inputTokens, input);
    totals.outputTokens = addCapped(totals.outputTokens, output);
    totals.totalTokens = addCapped(totals.totalTokens, usage.totalTokens ?? addCapped(input, output));
    totals.costUsd = addCapped(totals.costUsd, usage.costUsd ?? 0);
  }
  totals.durationMs = addCapped(totals.durationMs, step.durationMs ?? 0);
}
