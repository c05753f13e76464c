import type { RunTotals } from '../detectors/detector.js';
import type { GuardStep } from '../types.js';

/** A number's shortest text as an integer of digits and a count of decimal places: 0.25 is 25 with 2 places. */
interface Decimal {
  readonly digits: bigint;
  readonly places: number;
}

function toDecimal(value: number): Decimal {
  const text = String(value);
  const exponentAt = text.indexOf('e');
  const mantissa = exponentAt === -1 ? text : text.slice(0, exponentAt);
  const point = mantissa.indexOf('.');
  const places = (point === -1 ? 0 : mantissa.length - point - 1) - (exponentAt === -1 ? 0 : Number(text.slice(exponentAt + 1)));
  const digits = BigInt(point === -1 ? mantissa : mantissa.slice(0, point) + mantissa.slice(point + 1));
  return places >= 0 ? { digits, places } : { digits: digits * 10n ** BigInt(-places), places: 0 };
}

/** The double nearest to a decimal, at most the largest finite number, which JSON can still write. */
function fromDecimal({ digits, places }: Decimal): number {
  return Math.min(Number(`${String(digits)}e-${String(places)}`), Number.MAX_VALUE);
}

/** Decimal places in a number's shortest text: 12 → 0, 0.25 → 2, 1e-7 → 7, 2.5e-10 → 11. */
export function decimalPlaces(value: number): number {
  const text = String(value);
  const exponentAt = text.indexOf('e');
  const point = text.indexOf('.');
  const end = exponentAt === -1 ? text.length : exponentAt;
  const places = (point === -1 ? 0 : end - point - 1) - (exponentAt === -1 ? 0 : Number(text.slice(exponentAt + 1)));
  return Math.max(0, places);
}

/**
 * Adds a figure to a total as decimals add: the one summation behind run totals, budgets and the replay report. Each
 * number stands for its shortest decimal text, and the result is the double nearest to their exact decimal sum: ten
 * steps of 0.1 make 1, not 0.9999999999999999.
 * @param total - a finite, non-negative total
 * @param figure - a finite, non-negative figure
 * @returns the sum, at most `Number.MAX_VALUE`
 */
export function addFigure(total: number, figure: number): number {
  const sum = total + figure;
  // Integers add exactly as long as the sum is a safe integer: the common case of token counts.
  if (Number.isInteger(total) && Number.isInteger(figure) && sum <= Number.MAX_SAFE_INTEGER) return sum;
  const places = Math.max(decimalPlaces(total), decimalPlaces(figure));
  // Below this bound the double sum is within a third of a decimal place of the exact one, so rounding it to the
  // places is exact; past it the digits are added as integers.
  if (sum < 2 ** 52 / (3 * 10 ** places)) return places === 0 ? sum : Number(sum.toFixed(places));
  const left = toDecimal(total);
  const right = toDecimal(figure);
  const scale = (decimal: Decimal): bigint => decimal.digits * 10n ** BigInt(places - decimal.places);
  return fromDecimal({ digits: scale(left) + scale(right), places });
}

/**
 * Multiplies two figures as decimals multiply, so a `warnAt` of 0.1 on a limit of 3 warns at 0.3 and not at
 * 0.30000000000000004.
 * @param left - a finite, non-negative number
 * @param right - a finite, non-negative number
 * @returns the double nearest to the exact decimal product, at most `Number.MAX_VALUE`
 */
export function multiplyFigures(left: number, right: number): number {
  const a = toDecimal(left);
  const b = toDecimal(right);
  return fromDecimal({ digits: a.digits * b.digits, places: a.places + b.places });
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
