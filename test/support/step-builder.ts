import { keyedHash } from '../../src/canonical/hash.js';
import type { RunTotals, StepFacts } from '../../src/detectors/detector.js';
import { readStep } from '../../src/guard/read-step.js';
import { RunMemory } from '../../src/guard/run-memory.js';
import { Facts } from '../../src/guard/step-facts.js';
import type { GuardStep, GuardToolCall } from '../../src/index.js';

/** A tool call: `call('search', { q: 1 })`, optionally with a result or an error. */
export function call(name: string, args?: unknown, outcome: { result?: unknown; error?: unknown } = {}): GuardToolCall {
  return { name, ...(args === undefined ? {} : { args }), ...outcome };
}

/**
 * Whether `check` takes a value as a step: an object that is not an array (a revoked proxy cannot tell, so is not one).
 * Written here, apart from the guard's own test, so that the tests that use it as their oracle do not borrow it.
 */
export function isStepObject(value: unknown): boolean {
  try {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
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
 * The facts a guard would give its detectors for `step` as the run's step `index`: read by the guard's own `readStep`
 * and `Facts`, with the history holding just this step, the given totals and clock, and a run that has seen nothing.
 */
export function factsOf(
  step: GuardStep,
  index = 0,
  totals: RunTotals = { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0, durationMs: 0 },
  elapsedMs = 0,
): StepFacts {
  const hash = keyedHash(TEST_HASH_KEY);
  const read = readStep(step, hash, index);
  return new Facts(read, index, totals, {
    hash,
    history: () => [read.step],
    elapsedMs: () => elapsedMs,
    outcomes: new RunMemory(undefined),
    answers: new RunMemory(undefined),
  });
}
