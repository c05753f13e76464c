import type { RunTotals } from './detector.js';
import type { GuardStep } from './types.js';

/** All-zero totals for a new run. */
export function emptyTotals(): RunTotals {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0, durationMs: 0 };
}

/** Adds a sanitised step's figures; a step without `totalTokens` counts its input plus output. */
export function addStep(totals: RunTotals, step: GuardStep): void {
  const usage = step.usage;
  if (usage !== undefined) {
    const input = usage.inputTokens ?? 0;
    const output = usage.outputTokens ?? 0;
    totals.inputTokens += input;
    totals.outputTokens += output;
    totals.totalTokens += usage.totalTokens ?? input + output;
    totals.costUsd += usage.costUsd ?? 0;
  }
  totals.durationMs += step.durationMs ?? 0;
}
