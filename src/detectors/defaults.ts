/** The defaults `createGuard` applies, frozen so no caller can change them for everyone. */
export const DEFAULT_OPTIONS = Object.freeze({
  maxSteps: 50,
  repeatedToolCall: Object.freeze({ threshold: 3, requireIdenticalResults: true, ignoreErrors: false, warnBefore: 1 }),
  oscillation: Object.freeze({ maxPeriod: 3, repeats: 3, requireIdenticalResults: true, warnBefore: 1 }),
  noProgress: Object.freeze({ threshold: 3, warnBefore: 1 }),
  stagnation: Object.freeze({ window: 20, maxNew: 9, writeArgsLength: 70, warnBefore: 1 }),
  finishReason: Object.freeze({
    terminal: Object.freeze(['stop', 'length', 'content-filter', 'error'] as const),
    otherPolicy: 'stop-if-text-only' as const,
  }),
});
