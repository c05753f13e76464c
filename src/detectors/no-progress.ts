import { hashString } from '../canonical/stable-hash.js';
import { preview } from '../guard/normalize-text.js';
import type { Detector } from './detector.js';
import { createOutcomeMemory } from './outcome-memory.js';

/** Short texts compare as themselves, long ones by length and hash; the prefixes keep the two apart. */
function keyOfText(text: string): string {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: either form is a faithful key (barring hash collisions); the cut only saves memory.
  return text.length <= 256 ? `=${text}` : `#${String(text.length)}:${hashString(text)}`;
}

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
      const textKey = keyOfText(facts.normalizedText);
      stalled =
        stalled?.textKey === textKey
          ? { ...stalled, steps: stalled.steps + 1 }
          : { steps: 1, textKey, textPreview: preview(facts.normalizedText) };
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
