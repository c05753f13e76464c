import type { Detector } from './detector.js';
import { preview } from '../guard/normalize-text.js';
import { createOutcomeMemory } from './outcome-memory.js';
import { hashString } from '../canonical/stable-hash.js';

/** Short texts compare as themselves, long ones by length and hash; the prefixes keep the two apart. */
function keyOfText(text: string): string {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: either form is a faithful key (barring hash collisions); the cut only saves memory.
  return text.length <= 256 ? `=${text}` : `#${String(text.length)}:${hashString(text)}`;
}

/**
 * Stops after `threshold` consecutive stalled steps with the same normalised text. A step is stalled when none
 * of its tool outcomes is new in this run; a step without tool calls is always stalled.
 * @param window - with `historyLimit`, "new" means not produced by any of the last `window` steps before this one
 */
export function noProgressDetector(options: { readonly threshold: number }, window?: number): Detector {
  const seenOutcomes = createOutcomeMemory(window);
  let stalled = 0;
  // Stryker disable next-line StringLiteral: never read while stalled is 0, and the first stalled step overwrites it.
  let textKey = '';
  // Stryker disable next-line StringLiteral: never read while stalled is 0, and the first stalled step overwrites it.
  let textPreview = '';

  return {
    kind: 'no-progress',
    check(facts) {
      let progressed = false;
      for (const call of facts.calls) {
        if (seenOutcomes.remember(call.outcome, facts.index)) progressed = true;
      }
      if (progressed) {
        stalled = 0;
        return undefined;
      }
      const key = keyOfText(facts.normalizedText);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: with stalled at 0, both branches set stalled to 1 and keep an equal key and preview.
      if (stalled > 0 && key === textKey) {
        stalled++;
      } else {
        stalled = 1;
        textKey = key;
        textPreview = preview(facts.normalizedText);
      }
      if (stalled < options.threshold) return undefined;
      return {
        stop: {
          stop: true,
          reason: 'no-progress',
          code: 'NO_PROGRESS',
          detail:
            textPreview === ''
              ? `${String(stalled)} steps in a row brought no new tool result.`
              : `${String(stalled)} steps in a row repeated the same text with no new tool result: "${textPreview}".`,
          evidence: { steps: stalled, threshold: options.threshold, textPreview },
        },
      };
    },
    reset() {
      seenOutcomes.clear();
      stalled = 0;
      // Stryker disable next-line StringLiteral: never read while stalled is 0, like the initial value.
      textKey = '';
      // Stryker disable next-line StringLiteral: never read while stalled is 0, like the initial value.
      textPreview = '';
    },
    state: () => ({ stalledSteps: stalled, distinctOutcomes: seenOutcomes.size, threshold: options.threshold }),
  };
}
