import type { JsonValue } from '../types.js';
import type { CallFacts, StepFacts } from './detector.js';
import { createOutcomeMemory, type OutcomeMemory } from './outcome-memory.js';

/**
 * The run's memory of call outcomes, one for every detector that asks whether a call brought something new
 * (`noProgress`, `stagnation`): each outcome is stored once, and each step's answers are worked out once, by
 * whichever detector asks first.
 */
export interface SharedOutcomes {
  /**
   * For each call of the step, in order: whether its outcome is new, produced neither by an earlier step (with a
   * window, one of the last `window` before this one) nor by an earlier call of this step. With `record`, the step's
   * outcomes are remembered; without it (a peek), nothing is. Asked again about the same step in the same way, it
   * answers from what it worked out.
   */
  newness(facts: StepFacts, record: boolean): readonly boolean[];
  /** How many distinct outcomes are remembered. */
  size(): number;
  /** What {@link SharedOutcomes.restore} needs to continue from here, as JSON. */
  save(): JsonValue;
  /**
   * Continues from what `save()` returned, in place of what is remembered now.
   * @throws TypeError naming `path` when `saved` does not fit
   */
  restore(saved: unknown, path: string): void;
}

/**
 * An empty memory of outcomes.
 * @param window - steps looked back over (`historyLimit`); `undefined` for the whole run
 */
export function createSharedOutcomes(window: number | undefined): SharedOutcomes {
  let memory: OutcomeMemory = createOutcomeMemory(window);
  // The last answer given, and what it was about: detectors ask in turn about the same step. The guard loads every
  // step into one facts object, so a step is told by its calls, which each reading of a step makes anew.
  let askedAbout: readonly CallFacts[] | undefined;
  let askedIndex = 0;
  let askedToRecord = false;
  let answer: readonly boolean[] = [];
  return {
    newness(facts, record) {
      const { calls, index } = facts;
      if (calls === askedAbout && index === askedIndex && record === askedToRecord) return answer;
      const fresh: boolean[] = [];
      if (record) {
        for (const call of calls) fresh.push(memory.remember(call.outcome, index));
      } else {
        // A peek records nothing, so the outcomes new in this step are tracked here.
        const inStep = new Set<string>();
        for (const { outcome } of calls) {
          fresh.push(memory.isNew(outcome, index) && !inStep.has(outcome));
          inStep.add(outcome);
        }
      }
      askedAbout = calls;
      askedIndex = index;
      askedToRecord = record;
      answer = fresh;
      return fresh;
    },
    size: () => memory.size(),
    save: () => memory.save(),
    restore(saved, path) {
      memory = createOutcomeMemory(window, { value: saved, path });
      askedAbout = undefined;
    },
  };
}
