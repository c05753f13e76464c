import type { RunTotals } from '../detectors/detector.js';
import type { GuardStep } from '../types.js';

/** Decimal places in a number's shortest text: 12 → 0, 0.25 → 2, 1e-7 → 7, 2.5e-10 → 11. */
export function decimalPlaces(value: number): number {
  const text = String(value);
  const exponentAt = text.indexOf('e');
  const mantissa = exponentAt === -1 ? text : text.slice(0, exponentAt);
  const point = mantissa.indexOf('.');
  const places = point === -1 ? 0 : mantissa.length - point - 1;
  return exponentAt === -1 ? places : Math.max(0, places - Number(text.slice(exponentAt + 1)));
}

/**
 * `a + b` or `a * b` rounded to the decimal places the exact decimal result has, so figures read as decimals add up as
 * decimals: ten steps of 0.1 make 1, not 0.9999999999999999. Past what a double can tell apart the rounding changes
 * nothing, and results stop at the largest finite number, which JSON can still write.
 */
function decimalResult(result: number, places: number): number {
  if (!(result < Number.MAX_VALUE)) return Number.MAX_VALUE;
  return places === 0 || places > 100 ? result : Number(result.toFixed(places));
}

/**
 * Adds a figure to a total as decimals add: the one summation behind run totals, budgets and the replay report.
 * @param total - a finite, non-negative total
 * @param figure - a finite, non-negative figure
 * @returns the sum, at most `Number.MAX_VALUE`
 */
export function addFigure(total: number, figure: number): number {
  // Integers below 2^53 add exactly: the common case of token counts needs no rounding.
  if (Number.isInteger(total) && Number.isInteger(figure)) return Math.min(total + figure, Number.MAX_VALUE);
  return decimalResult(total + figure, Math.max(decimalPlaces(total), decimalPlaces(figure)));
}

/**
 * Multiplies two figures as decimals multiply, so a `warnAt` of 0.1 on a limit of 3 warns at 0.3 and not at
 * 0.30000000000000004.
 * @param left - a finite, non-negative number
 * @param right - a finite, non-negative number
 * @returns the product, at most `Number.MAX_VALUE`
 */
export function multiplyFigures(left: number, right: number): number {
  return decimalResult(left * right, decimalPlaces(left) + decimalPlaces(right));
}

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
    totals.inputTokens = addFigure(totals.inputTokens, input);
    totals.outputTokens = addFigure(totals.outputTokens, output);
    totals.totalTokens = addFigure(totals.totalTokens, usage.totalTokens ?? addFigure(input, output));
    totals.costUsd = addFigure(totals.costUsd, usage.costUsd ?? 0);
  }
  totals.durationMs = addFigure(totals.durationMs, step.durationMs ?? 0);
}
