import type { GuardStep } from '../types.js';

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

function isFigure(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function figure(value: unknown): number {
  return isFigure(value) ? value : 0;
}

/**
 * Adds the usage of steps to running totals, counting figures the way the guard's budget does (anything not a finite,
 * non-negative number counts as 0).
 * @param totals - the totals to add to (changed in place)
 * @param steps - the steps to add
 */
export function addUsage(totals: UsageTotals, steps: readonly GuardStep[]): UsageTotals {
  for (const step of steps) {
    const usage: unknown = step.usage;
    totals.steps++;
    if (usage === null || typeof usage !== 'object') continue;
    const { inputTokens, outputTokens, totalTokens, costUsd } = usage as Record<string, unknown>;
    const input = figure(inputTokens);
    const output = figure(outputTokens);
    totals.inputTokens += input;
    totals.outputTokens += output;
    totals.totalTokens += isFigure(totalTokens) ? totalTokens : input + output;
    totals.costUsd += figure(costUsd);
  }
  return totals;
}

/**
 * Adds one set of totals to another.
 * @param totals - the totals to add to (changed in place)
 * @param more - the totals to add
 */
export function addTotals(totals: UsageTotals, more: Readonly<UsageTotals>): UsageTotals {
  totals.steps += more.steps;
  totals.inputTokens += more.inputTokens;
  totals.outputTokens += more.outputTokens;
  totals.totalTokens += more.totalTokens;
  totals.costUsd += more.costUsd;
  return totals;
}
