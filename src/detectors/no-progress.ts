import { integer, integerOption, nullable, record, text } from '../utils/validate.js';
import { DEFAULT_OPTIONS } from './defaults.js';
import { ANY_RUN, type Detector, optionSection, type SavedRun, warnBeforeOption } from './detector.js';

/** Options of `noProgress` after validation. */
export interface NoProgressSettings {
  readonly threshold: number;
  readonly warnBefore: number | false;
}

/** The stalled steps at the end of the run so far: how many, and the text they share. */
interface Stalled {
  readonly steps: number;
  readonly textKey: string;
  readonly textPreview: string;
}

function resolveNoProgress(value: unknown): NoProgressSettings | false {
  const options = optionSection('noProgress', value, ['threshold', 'warnBefore']);
  if (options === false) return false;
  const defaults = DEFAULT_OPTIONS.noProgress;
  return {
    threshold: integerOption('noProgress.threshold', options.threshold, 2, defaults.threshold),
    warnBefore: warnBeforeOption('noProgress.warnBefore', options.warnBefore, defaults.warnBefore),
  };
}

/** A saved state, checked. */
/** A saved state, checked: no more stalled steps than the run took. */
function restoreStalled(saved: unknown, path: string, { steps }: SavedRun): { readonly stalled: Stalled | null } {
  return record({ stalled: nullable(record({ steps: integer(1, steps), textKey: text, textPreview: text })) })(saved, path);
}

/**
 * Stops after `threshold` consecutive stalled steps with the same normalised text. A step is stalled when none of its
 * tool outcomes is new in the run; a step without tool calls is always stalled. Calls of exempt tools do not count,
 * and a step that made only such calls is skipped.
 */
export const noProgress: Detector<'no-progress', NoProgressSettings, { readonly stalled: Stalled | null }> = {
  kind: 'no-progress',
  option: 'noProgress',
  resolve: resolveNoProgress,
  judgesCalls: () => false,
  start: () => ({ stalled: null }),
  check(state, facts, { threshold, warnBefore }) {
    const { calls } = facts;
    // Calls of exempt tools are neither progress nor stalling: a step that made only such calls changes nothing.
    if (calls.length > 0 && calls.every((call) => call.exempt)) return { state };
    if (facts.newOutcomes.some((isNew, position) => isNew && calls[position]?.exempt !== true)) return { state: { stalled: null } };
    const { stalled } = state;
    const { textKey } = facts;
    const next = stalled?.textKey === textKey ? { ...stalled, steps: stalled.steps + 1 } : { steps: 1, textKey, textPreview: facts.textPreview };
    // Stalled runs of this length and longer, below the threshold, warn.
    const warnFrom = warnBefore === false ? threshold : Math.max(1, threshold - warnBefore);
    if (next.steps < warnFrom) return { state: { stalled: next } };
    const { steps, textPreview } = next;
    const evidence = { steps, threshold, textPreview };
    if (steps < threshold) {
      return {
        state: { stalled: next },
        warnings: [
          {
            code: 'LOOP_WARNING',
            reason: 'no-progress',
            detail: `${steps === 1 ? 'A step' : `${steps} steps in a row`} brought no new tool result${textPreview === '' ? '' : ' with the same text'}; ${threshold} stop the run.`,
            message: `${steps === 1 ? 'Your last step' : `Your last ${steps} steps`} brought no new tool result${textPreview === '' || steps === 1 ? '' : ' and said the same thing'}. Doing the same again will not help: try a different approach, or answer with what you have.`,
            evidence,
          },
        ],
      };
    }
    return {
      state: { stalled: next },
      stop: {
        code: 'NO_PROGRESS',
        detail:
          textPreview === ''
            ? `${steps} steps in a row brought no new tool result.`
            : `${steps} steps in a row repeated the same text with no new tool result: "${textPreview}".`,
        evidence,
      },
    };
  },
  hint: () =>
    'Nothing new is coming back and the model keeps saying the same thing. Give it a way out: a clearer result, an error it can act on, or a rule to finish.',
  summary: ({ stalled }, { threshold }, run) => ({ stalledSteps: stalled?.steps ?? 0, distinctOutcomes: run.distinctOutcomes, threshold }),
  restore: (saved, _options, path, run = ANY_RUN) => restoreStalled(saved, path, run),
};
