import { buildDetectors } from '../detectors/registry.js';
import type { StepFacts } from '../detectors/detector.js';
import { reduceStep } from './reduce-step.js';
import { resolveOptions } from '../options/resolve-options.js';
import { addStep, emptyTotals } from './run-totals.js';
import { createStepHistory } from './step-history.js';
import type { Guard, GuardOptions, GuardStep, GuardSummary, GuardWarning, StopVerdict, Verdict } from '../types.js';

/**
 * Creates a guard for one agent run. Options are validated here, once.
 * @param options - detector settings; every detector is on with its defaults unless switched off with `false`
 * @throws TypeError naming the option path when an option is invalid
 * @example
 * const guard = createGuard({ maxSteps: 25, budget: { maxCostUsd: 0.5 } });
 * const verdict = guard.check({ toolCalls: [{ name: 'search', args: { query: 'x' } }] });
 */
export function createGuard(options?: GuardOptions): Guard {
  const resolved = resolveOptions(options);
  const detectors = buildDetectors(resolved);
  const now = resolved.now;

  const history = createStepHistory(resolved.historyLimit);
  let steps = 0;
  let totals = emptyTotals();
  let toolCalls = 0;
  let stops = 0;
  let lastVerdict: Verdict | null = null;
  let startedAt = now();

  return {
    check(raw: GuardStep): Verdict {
      const reduced = reduceStep(raw);
      const index = steps++;
      history.push(reduced.step);
      addStep(totals, reduced.step);
      toolCalls += reduced.calls.length;

      const elapsed = now() - startedAt;
      const facts: StepFacts = {
        index,
        step: reduced.step,
        // A getter: with `historyLimit` the rules get a copy, made only when a custom rule asks for it.
        get history() {
          return history.forRules();
        },
        calls: reduced.calls,
        normalizedText: reduced.normalizedText,
        hasText: reduced.normalizedText !== '',
        finishReason: reduced.finishReason,
        totals,
        elapsedMs: Number.isFinite(elapsed) ? elapsed : 0,
      };

      // Every detector sees every step so its state stays right; the first stop in priority order wins.
      let stop: StopVerdict | undefined;
      let warnings: GuardWarning[] | undefined;
      for (const detector of detectors) {
        const result = detector.check(facts);
        if (result === undefined) continue;
        stop ??= result.stop;
        if (result.warnings !== undefined) (warnings ??= []).push(...result.warnings);
      }

      let verdict: Verdict;
      if (stop === undefined) verdict = warnings === undefined ? { stop: false } : { stop: false, warnings };
      else verdict = warnings === undefined ? stop : { ...stop, warnings };
      if (verdict.stop) stops++;
      lastVerdict = verdict;
      return verdict;
    },

    reset(): void {
      history.clear();
      steps = 0;
      totals = emptyTotals();
      toolCalls = 0;
      stops = 0;
      lastVerdict = null;
      startedAt = now();
      for (const detector of detectors) detector.reset();
    },

    summary(): GuardSummary {
      const detectorStates: Record<string, ReturnType<(typeof detectors)[number]['state']>> = {};
      for (const detector of detectors) detectorStates[detector.kind] = detector.state();
      return {
        steps,
        toolCalls,
        stops,
        lastVerdict,
        totals: { ...totals },
        detectors: detectorStates,
      };
    },

    get history(): readonly GuardStep[] {
      return history.snapshot();
    },
  };
}
