import type { Detector } from '../detector.js';
import { preview } from '../normalize-text.js';
import { createOutcomeMemory } from '../outcome-memory.js';
import { hashString } from '../stable-hash.js';

/** Short texts compare as themselves, long ones by length and hash; the prefixes keep the two apart. */
function keyOfText(text: string): string {
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
  let textKey = '';
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
      textKey = '';
      textPreview = '';
    },
    state: () => ({ stalledSteps: stalled, distinctOutcomes: seenOutcomes.size, threshold: options.threshold }),
  };
}
