import { integerOption, nothing } from '../utils/validate.js';
import { DEFAULT_OPTIONS } from './defaults.js';
import type { Detector } from './detector.js';

/** Stops once `limit` steps have been recorded: with a limit of 3, the third step stops. Keeps no state. */
export const maxSteps: Detector<'max-steps', { readonly limit: number }, null> = {
  kind: 'max-steps',
  option: 'maxSteps',
  resolve: (value) => (value === false ? false : { limit: integerOption('maxSteps', value, 1, DEFAULT_OPTIONS.maxSteps) }),
  judgesCalls: () => false,
  start: () => null,
  check(state, facts, { limit }) {
    const steps = facts.index + 1;
    if (steps < limit) return { state };
    return {
      state,
      stop: {
        code: 'MAX_STEPS',
        detail: `The run has taken ${steps} ${steps === 1 ? 'step' : 'steps'}, reaching its limit of ${limit}.`,
        evidence: { steps, limit },
      },
    };
  },
  hint: () =>
    'The run used every step it was allowed. Raise maxSteps if the task really needs more, or look for a loop the other detectors do not catch.',
  summary: (_state, { limit }, run) => ({ steps: run.steps, limit }),
  restore: (saved, _options, path) => nothing(saved, path),
  fingerprint: ({ limit }) => limit,
};
