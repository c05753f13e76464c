import type { BudgetMetric, GuardWarning, StopCodes } from '../types.js';
import { expectObject, nothing, positiveNumber, ratioOption } from '../utils/validate.js';
import { type Detector, type Finding, optionSection, type StepFacts } from './detector.js';

/**
 * A figure as totals keep it: a whole number below 2^53 as it is (token counts stay exact), anything else rounded to
 * 15 significant digits, the most a double holds exactly in decimal, and at most the largest finite number. So totals
 * stay the decimals people add up: ten steps of $0.10 reach a $1.00 limit on the tenth.
 */
export function roundFigure(value: number): number {
  return Number.isSafeInteger(value) ? value : Math.min(Number(value.toPrecision(15)), Number.MAX_VALUE);
}

/** One budget limit after validation. */
export interface BudgetLimitOptions {
  readonly name: string;
  readonly metric: BudgetMetric;
  readonly code: StopCodes['budget'];
  readonly limit: number;
  /** Absent: no warnings for this limit. */
  readonly warnAt: number | undefined;
  /** Where warnings start: `warnAt` times `limit`, rounded as totals are. */
  readonly warnFrom: number | undefined;
}

/** Budget option names in the order limits are checked, with the metric and code each one maps to. */
const LIMITS = [
  ['maxTotalTokens', 'totalTokens', 'BUDGET_TOTAL_TOKENS'],
  ['maxInputTokens', 'inputTokens', 'BUDGET_INPUT_TOKENS'],
  ['maxOutputTokens', 'outputTokens', 'BUDGET_OUTPUT_TOKENS'],
  ['maxCostUsd', 'costUsd', 'BUDGET_COST_USD'],
  ['maxDurationMs', 'durationMs', 'BUDGET_DURATION_MS'],
] as const;

const LABELS: Readonly<Record<BudgetMetric, string>> = {
  totalTokens: 'Total tokens',
  inputTokens: 'Input tokens',
  outputTokens: 'Output tokens',
  costUsd: 'Cost in USD',
  durationMs: 'Duration in ms',
};

function resolveLimits(value: unknown): readonly BudgetLimitOptions[] | false {
  const options = optionSection('budget', value, [...LIMITS.map(([name]) => name), 'warnAt']);
  if (options === false) return false;
  const sharedWarnAt = options.warnAt === undefined ? undefined : ratioOption('budget.warnAt', options.warnAt);
  const limits: BudgetLimitOptions[] = [];
  for (const [name, metric, code] of LIMITS) {
    const raw = options[name];
    if (raw === undefined) continue;
    const path = `budget.${name}`;
    let limit: number;
    let warnAt = sharedWarnAt;
    if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
      const limitOptions = expectObject(path, raw, ['limit', 'warnAt']);
      limit = positiveNumber(`${path}.limit`, limitOptions.limit);
      if (limitOptions.warnAt !== undefined) warnAt = ratioOption(`${path}.warnAt`, limitOptions.warnAt);
    } else limit = positiveNumber(path, raw);
    limits.push({ name, metric, code, limit, warnAt, warnFrom: warnAt === undefined ? undefined : roundFigure(warnAt * limit) });
  }
  return Object.freeze(limits);
}

function currentValue(metric: BudgetMetric, facts: StepFacts): number {
  // Summed step durations can lag behind the clock (time between steps), and the clock can be frozen in tests.
  return metric === 'durationMs' ? Math.max(facts.totals.durationMs, facts.elapsedMs) : facts.totals[metric];
}

/** Rounded to four decimals for display only; evidence keeps the exact figure. Huge figures have no decimals to round. */
function show(value: number): string {
  return value >= 1e12 ? String(value) : String(Math.round(value * 10_000) / 10_000);
}

/**
 * Stops when a running total reaches its limit (spent when reached: the guard runs after the step already happened),
 * and warns while a total is at or past its `warnAt` share of the limit. The totals belong to the guard.
 */
export const budget: Detector<'budget', readonly BudgetLimitOptions[], null> = {
  kind: 'budget',
  option: 'budget',
  resolve: resolveLimits,
  judgesCalls: () => false,
  start: () => null,
  check(state, facts, limits) {
    let stop: Finding<'budget'> | undefined;
    const warnings: GuardWarning[] = [];
    for (const { metric, code, limit, warnFrom } of limits) {
      const value = currentValue(metric, facts);
      if (value >= limit) {
        stop ??= { code, detail: `${LABELS[metric]} reached ${show(value)}, at or over the limit of ${show(limit)}.`, evidence: { metric, value, limit } };
      } else if (warnFrom !== undefined && value >= warnFrom) {
        const ratio = value / limit;
        warnings.push({
          code: 'BUDGET_WARNING',
          metric,
          value,
          limit,
          ratio,
          detail: `${LABELS[metric]} is at ${show(value)} of a ${show(limit)} limit (${Math.floor(ratio * 100)}%).`,
        });
      }
    }
    return { state, stop, warnings: warnings.length === 0 ? undefined : warnings };
  },
  hint: () =>
    'The run used up a budget you set. Raise the limit if the task is worth it, or find out which steps spent it.',
  summary: (_state, limits) => ({ limits: limits.map(({ metric, limit }) => ({ metric, limit })) }),
  restore: (saved, _limits, path) => nothing(saved, path),
  fingerprint: (limits) => Object.fromEntries(limits.map(({ name, limit, warnAt }) => [name, { limit, warnAt: warnAt ?? null }])),
};
