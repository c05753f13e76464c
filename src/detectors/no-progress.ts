import type { Detector } from './detector.js';
import { createOutcomeMemory } from './outcome-memory.js';

/** The stalled steps at the end of the run so far: how many, and the text they share. */
interface StalledRun {
  readonly steps: number;
  readonly textKey: string;
  readonly textPreview: string;
}

/**
 * Stops after `threshold` consecutive stalled steps with the same normalised text. A step is stalled when none
 * of its tool outcomes is new in this run; a step without tool calls is always stalled.
 * @param window - with `historyLimit`, "new" means not produced by any of the last `window` steps before this one
 */
export function noProgressDetector(options: { readonly threshold: number }, window?: number): Detector<'no-progress'> {
  const { threshold } = options;
  const seenOutcomes = createOutcomeMemory(window);
  let stalled: StalledRun | undefined;

  return {
    kind: 'no-progress',
    check(facts) {
      let progressed = false;
      for (const call of facts.calls) {
        if (seenOutcomes.remember(call.outcome, facts.index)) progressed = true;
      }
      if (progressed) {
        stalled = undefined;
        return undefined;
      }
      const textKey = facts.textKey;
      stalled =
        stalled?.textKey === textKey ? { ...stalled, steps: stalled.steps + 1 } : { steps: 1, textKey, textPreview: facts.textPreview };
      if (stalled.steps < threshold) return undefined;
      const { steps, textPreview } = stalled;
      return {
        stop: {
          code: 'NO_PROGRESS',
          detail:
            textPreview === ''
              ? `${String(steps)} steps in a row brought no new tool result.`
              : `${String(steps)} steps in a row repeated the same text with no new tool result: "${textPreview}".`,
          evidence: { steps, threshold, textPreview },
        },
      };
    },
    state: () => ({ stalledSteps: stalled?.steps ?? 0, distinctOutcomes: seenOutcomes.size, threshold }),
  };
}
