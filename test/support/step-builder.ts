import type { RunTotals, StepFacts } from '../../src/detectors/detector.js';
import { reduceStep } from '../../src/guard/reduce-step.js';
import { LoadedStepFacts } from '../../src/guard/step-facts.js';
import type { GuardStep, GuardToolCall } from '../../src/index.js';

/** A tool call: `call('search', { q: 1 })`, optionally with a result or an error. */
export function call(name: string, args?: unknown, outcome: { result?: unknown; error?: unknown } = {}): GuardToolCall {
  return { name, ...(args === undefined ? {} : { args }), ...outcome };
}

/** A step holding the given calls and nothing else. */
export function calls(...toolCalls: GuardToolCall[]): GuardStep {
  return { toolCalls };
}

/** A step with one call to `name` with `{ id }` as arguments: `tool('a')`, `tool('a', 2)`. */
export function tool(name: string, id: unknown = 1, outcome: { result?: unknown; error?: unknown } = {}): GuardStep {
  return calls(call(name, { id }, outcome));
}

/** A text-only step. */
export function text(content: string, finishReason?: string): GuardStep {
  return finishReason === undefined ? { text: content } : { text: content, finishReason };
}

/** Every detector off, so a test can switch on exactly the one it is about. */
export const ALL_OFF = {
  maxSteps: false,
  repeatedToolCall: false,
  oscillation: false,
  noProgress: false,
  stagnation: false,
  finishReason: false,
  budget: false,
} as const;

/** The key facts are compared by in detector tests: fixed, so keys in expectations are stable. */
export const TEST_HASH_KEY = '0123456789abcdef0123456789abcdef';

/**
 * The facts a guard would give its detectors for `step` as the run's step `index`: read by the guard's own
 * `reduceStep` and `LoadedStepFacts`, with the history holding just this step and the given totals and clock.
 */
export function factsOf(
  step: GuardStep,
  index = 0,
  totals: RunTotals = { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0, durationMs: 0 },
  elapsedMs = 0,
): StepFacts {
  const reduced = reduceStep(step, TEST_HASH_KEY, index);
  const facts = new LoadedStepFacts({ history: () => [reduced.step], elapsed: () => elapsedMs, totals, hashKey: TEST_HASH_KEY });
  facts.load(index, reduced);
  return facts;
}
