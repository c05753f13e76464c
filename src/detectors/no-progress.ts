import { savedInteger, savedObject, savedOptional, savedString } from '../snapshot/read-saved.js';
import type { Detector } from './detector.js';
import type { SharedOutcomes } from './shared-outcomes.js';

/** The stalled steps at the end of the run so far: how many, and the text they share. */
interface StalledRun {
  readonly steps: number;
  readonly textKey: string;
  readonly textPreview: string;
}

function readStalled(value: unknown, path: string): StalledRun {
  const record = savedObject(value, path);
  return {
    steps: savedInteger(record.steps, `${path}.steps`, 1),
    textKey: savedString(record.textKey, `${path}.textKey`),
    textPreview: savedString(record.textPreview, `${path}.textPreview`),
  };
}

/**
 * Stops after `threshold` consecutive stalled steps with the same normalised text. A step is stalled when none
 * of its tool outcomes is new in this run; a step without tool calls is always stalled.
 * @param outcomes - the run's memory of outcomes, which this detector saves and restores (with `historyLimit`, "new"
 *   means not produced by any of the last `historyLimit` steps before this one)
 * @param saved - what `save()` returned, to continue from there (validated; `path` names it in errors)
 */
export function noProgressDetector(
  options: { readonly threshold: number; readonly warnBefore: number | false },
  outcomes: SharedOutcomes,
  saved?: unknown,
  path = '',
): Detector<'no-progress'> {
  const { threshold, warnBefore } = options;
  // Stalled runs of this length and longer, below the threshold, warn.
  const warnFrom = warnBefore === false ? threshold : Math.max(1, threshold - warnBefore);
  const record = saved === undefined ? undefined : savedObject(saved, path);
  if (record !== undefined) outcomes.restore(record.outcomes, `${path}.outcomes`);
  let stalled = record === undefined ? undefined : savedOptional(record.stalled, (value) => readStalled(value, `${path}.stalled`));

  return {
    kind: 'no-progress',
    judgesCalls: false,
    check(facts, remember) {
      const progressed = outcomes.newness(facts, remember).includes(true);
      let next: StalledRun | undefined;
      if (!progressed) {
        const textKey = facts.textKey;
        next = stalled?.textKey === textKey ? { ...stalled, steps: stalled.steps + 1 } : { steps: 1, textKey, textPreview: facts.textPreview };
      }
      if (remember) stalled = next;
      if (next === undefined || next.steps < warnFrom) return undefined;
      const { steps, textPreview } = next;
      const evidence = { steps, threshold, textPreview };
      if (steps < threshold) {
        const last = steps === 1 ? 'Your last step' : `Your last ${String(steps)} steps`;
        return {
          warnings: [
            {
              code: 'LOOP_WARNING',
              reason: 'no-progress',
              detail: `${steps === 1 ? 'A step' : `${String(steps)} steps in a row`} brought no new tool result${textPreview === '' ? '' : ' with the same text'}; ${String(threshold)} stop the run.`,
              message: `${last} brought no new tool result${textPreview === '' || steps === 1 ? '' : ' and said the same thing'}. Doing the same again will not help: try a different approach, or answer with what you have.`,
              evidence,
            },
          ],
        };
      }
      return {
        stop: {
          code: 'NO_PROGRESS',
          detail:
            textPreview === ''
              ? `${String(steps)} steps in a row brought no new tool result.`
              : `${String(steps)} steps in a row repeated the same text with no new tool result: "${textPreview}".`,
          evidence,
        },
      };
    },
    state: () => ({ stalledSteps: stalled?.steps ?? 0, distinctOutcomes: outcomes.size(), threshold }),
    save: () => ({ outcomes: outcomes.save(), stalled: stalled ?? null }),
  };
}
