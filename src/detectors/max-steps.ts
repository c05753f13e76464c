import type { Detector } from './detector.js';

/** Stops once `limit` steps have been recorded: with a limit of 3, the third step stops. */
export function maxStepsDetector(options: { readonly limit: number }): Detector {
  let steps = 0;
  return {
    kind: 'max-steps',
    check() {
      steps++;
      if (steps < options.limit) return undefined;
      return {
        stop: {
          stop: true,
          reason: 'max-steps',
          code: 'MAX_STEPS',
          detail: `The run has taken ${String(steps)} steps, reaching its limit of ${String(options.limit)}.`,
          evidence: { steps, limit: options.limit },
        },
      };
    },
    reset() {
      steps = 0;
    },
    state: () => ({ steps, limit: options.limit }),
  };
}
