import type { Detector, Finding, StepFacts } from './detector.js';
import type { ResolvedBudgetLimit } from '../options/resolve-options.js';
import type { BudgetMetric, GuardWarning } from '../types.js';

const LABELS: Readonly<Record<BudgetMetric, string>> = {
  totalTokens: 'Total tokens',
  inputTokens: 'Input tokens',
  outputTokens: 'Output tokens',
  costUsd: 'Cost in USD',
  durationMs: 'Duration in ms',
};

function currentValue(metric: BudgetMetric, facts: StepFacts): number {
  // Summed step durations can lag behind the clock (time between steps), and the clock can be frozen in tests.
  return metric === 'durationMs' ? Math.max(facts.totals.durationMs, facts.elapsedMs) : facts.totals[metric];
}

/** Rounded to four decimals for display only; evidence keeps the exact figure. Huge figures have no decimals to round. */
function show(value: number): string {
  return value >= 1e12 ? String(value) : String(Math.round(value * 10_000) / 10_000);
}

/**
 * Stops when a cumulative figure reaches its limit (spent when reached: the guard runs after the step already
 * happened), and warns while a figure is at or past its `warnAt` share of the limit.
 */
export function budgetDetector(options: { readonly limits: readonly ResolvedBudgetLimit[] }): Detector<'budget'> {
  return {
    kind: 'budget',
    judgesCalls: false,
    check(facts) {
      let stop: Finding<'budget'> | undefined;
      const warnings: GuardWarning[] = [];
      for (const { metric, code, limit, warnFrom } of options.limits) {
        const value = currentValue(metric, facts);
        if (value >= limit) {
          stop ??= {
            code,
            detail: `${LABELS[metric]} reached ${show(value)}, at or over the limit of ${show(limit)}.`,
            evidence: { metric, value, limit },
          };
          continue;
        }
        if (warnFrom !== undefined && value >= warnFrom) {
          const ratio = value / limit;
          warnings.push({
            code: 'BUDGET_WARNING',
            metric,
            value,
            limit,
            ratio,
            detail: `${LABELS[metric]} is at ${show(value)} of a ${show(limit)} limit (${String(Math.floor(ratio * 100))}%).`,
          });
        }
      }
      if (stop !== undefined) return warnings.length === 0 ? { stop } : { stop, warnings };
      return warnings.length === 0 ? undefined : { warnings };
    },
    state: () => ({ limits: options.limits.map(({ metric, limit }) => ({ metric, limit })) }),
    // Totals and the clock belong to the guard: the detector keeps nothing.
    save: () => null,
  };
}
