import type { Detector } from './detector.js';

/** Stops once `limit` steps have been recorded: with a limit of 3, the third step stops. Keeps no state. */
export function maxStepsDetector(options: { readonly limit: number }): Detector<'max-steps'> {
  const { limit } = options;
  return {
    kind: 'max-steps',
    judgesCalls: false,
    check(facts) {
      const steps = facts.index + 1;
      if (steps < limit) return undefined;
      return {
        stop: {
          code: 'MAX_STEPS',
          detail: `The run has taken ${String(steps)} ${steps === 1 ? 'step' : 'steps'}, reaching its limit of ${String(limit)}.`,
          evidence: { steps, limit },
        },
      };
    },
    state: (run) => ({ steps: run.steps, limit }),
    save: () => null,
  };
}
