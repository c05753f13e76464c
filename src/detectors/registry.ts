import { comparisonKey } from '../canonical/stable-hash.js';
import type { ResolvedOptions } from '../options/resolve-options.js';
import { budgetDetector } from './budget.js';
import { customDetector } from './custom.js';
import type { Detector } from './detector.js';
import { finishReasonDetector } from './finish-reason.js';
import { maxStepsDetector } from './max-steps.js';
import { noProgressDetector } from './no-progress.js';
import { oscillationDetector } from './oscillation.js';
import { repeatedToolCallDetector } from './repeated-tool-call.js';
import { stagnationDetector } from './stagnation.js';

/**
 * Every enabled detector, new, in priority order: when several stop on one step, the earliest here wins.
 * @param options - the resolved options
 * @returns the detectors, each with fresh state
 */
export function buildDetectors(options: ResolvedOptions): readonly Detector[] {
  const detectors: (Detector | false)[] = [
    options.finishReason !== false && finishReasonDetector(options.finishReason),
    options.budget !== false && budgetDetector(options.budget),
    options.maxSteps !== false && maxStepsDetector(options.maxSteps),
    options.repeatedToolCall !== false && repeatedToolCallDetector(options.repeatedToolCall),
    options.oscillation !== false && oscillationDetector(options.oscillation),
    options.noProgress !== false && noProgressDetector(options.noProgress, options.historyLimit),
    options.stagnation !== false && stagnationDetector(options.stagnation, comparisonKey, options.historyLimit),
    options.custom.length > 0 && customDetector(options.custom),
  ];
  return detectors.filter((detector) => detector !== false);
}
