import { formKeyWith } from '../canonical/comparison-key.js';
import { type HashKey, hashOfKey } from '../canonical/hash-key.js';
import type { ResolvedOptions } from '../options/resolve-options.js';
import { savedError } from '../snapshot/read-saved.js';
import type { StopReason } from '../types.js';
import { budgetDetector } from './budget.js';
import { customDetector } from './custom.js';
import type { Detector } from './detector.js';
import { finishReasonDetector } from './finish-reason.js';
import { maxStepsDetector } from './max-steps.js';
import { noProgressDetector } from './no-progress.js';
import { oscillationDetector } from './oscillation.js';
import { repeatedToolCallDetector } from './repeated-tool-call.js';
import { createSharedOutcomes } from './shared-outcomes.js';
import { stagnationDetector } from './stagnation.js';

/**
 * Every enabled detector, in priority order: when several stop on one step, the earliest here wins. New, or restored
 * from the states a snapshot saved.
 * @param options - the resolved options
 * @param hashKey - the run's key for comparisons
 * @param saved - each detector's saved state by kind, from a snapshot's `detectors`
 * @returns the detectors
 * @throws TypeError naming the snapshot field when a saved state is missing or does not fit
 */
export function buildDetectors(options: ResolvedOptions, hashKey: HashKey, saved?: Readonly<Record<string, unknown>>): readonly Detector[] {
  /** The saved state of a detector, and where it sits, when restoring. */
  const from = (kind: StopReason): [unknown, string] => {
    const path = `detectors.${kind}`;
    if (saved !== undefined && !Object.hasOwn(saved, kind)) savedError(path, "an enabled detector's saved state", undefined);
    return [saved?.[kind], path];
  };
  const { historyLimit } = options;
  // Budget and maxSteps keep no state of their own, but a snapshot of a guard that had them still lists them, as null.
  const stateless = (kind: StopReason): void => {
    const [state, path] = from(kind);
    if (saved !== undefined && state !== null) savedError(path, 'null (the detector keeps no state)', state);
  };
  if (options.budget !== false) stateless('budget');
  if (options.maxSteps !== false) stateless('max-steps');
  // One memory of call outcomes for the detectors that ask what is new; `noProgress` keeps it in snapshots when on.
  const outcomes = createSharedOutcomes(historyLimit);
  const detectors: (Detector | false)[] = [
    options.finishReason !== false && finishReasonDetector(options.finishReason, ...from('finish-reason')),
    options.budget !== false && budgetDetector(options.budget),
    options.maxSteps !== false && maxStepsDetector(options.maxSteps),
    options.repeatedToolCall !== false && repeatedToolCallDetector(options.repeatedToolCall, ...from('repeated-tool-call')),
    options.oscillation !== false && oscillationDetector(options.oscillation, ...from('oscillation')),
    options.noProgress !== false && noProgressDetector(options.noProgress, outcomes, ...from('no-progress')),
    options.stagnation !== false &&
      stagnationDetector(
        options.stagnation,
        { keyOf: (text) => formKeyWith(text, hashOfKey(hashKey)), outcomes, ownsOutcomes: options.noProgress === false, memory: historyLimit },
        ...from('stagnation'),
      ),
    options.custom.length > 0 && customDetector(options.custom, ...from('custom')),
  ];
  return detectors.filter((detector) => detector !== false);
}
