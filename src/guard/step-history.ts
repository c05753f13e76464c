/* eslint-disable @typescript-eslint/non-nullable-type-assertion-style --
   A full ring has a step in every slot. The strict config forbids `!`; a cast says it. */
import type { GuardStep } from '../types.js';

/** The steps a guard keeps: every one, or only the most recent `limit`. */
export interface StepHistory {
  /**
   * Records a step; with a limit, the oldest kept step is forgotten once the limit is reached.
   * @returns a function that takes the step back out, leaving the history exactly as it was (for a peek)
   */
  push(step: GuardStep): () => void;
  /** The kept steps, oldest first, as a frozen copy made at most once per recorded step, each step frozen too. */
  snapshot(): readonly GuardStep[];
  /**
   * What custom rules receive. Without a limit, the live array: a copy per step would make every check cost grow
   * with the run. With a limit, the snapshot: a copy of at most `limit` steps, so the cost stays bounded.
   */
  forRules(): readonly GuardStep[];
}

/**
 * Freezes a sanitised step as the history shows it: the step, its tool-call array, each call and its usage. Steps are
 * frozen when first shown (the history, custom rules) rather than when recorded, so a run nobody looks into pays
 * nothing for it. A frozen step is left as it is.
 * @param step - a step as `reduceStep` recorded it
 * @returns the same step, frozen
 */
export function freezeStep(step: GuardStep): GuardStep {
  if (Object.isFrozen(step)) return step;
  const { toolCalls, usage } = step;
  if (toolCalls !== undefined) {
    for (const call of toolCalls) Object.freeze(call);
    Object.freeze(toolCalls);
  }
  if (usage !== undefined) Object.freeze(usage);
  return Object.freeze(step);
}

/**
 * A history without a limit is a plain array. With a limit it is a ring of `limit` slots: recording a step costs the
 * same at any length (dropping the first element of a large array would move all the others).
 * @param limit - steps kept, or `undefined` for all
 * @param initial - the steps to start with, oldest first (a restored history); at most `limit` of them
 */
export function createStepHistory(limit: number | undefined, initial: readonly GuardStep[] = []): StepHistory {
  // A restored history is frozen at once: custom rules may be handed the live array, whose steps must all be frozen.
  const steps: GuardStep[] = initial.map(freezeStep);
  /** With a limit, once the ring is full: the slot of the oldest step. */
  let oldest = 0;
  let frozen: readonly GuardStep[] | undefined;

  const snapshot = (): readonly GuardStep[] => {
    if (frozen === undefined) {
      // Stryker disable next-line ConditionalExpression: equivalent: with oldest 0 both branches build the same array; the first is a fast path.
      const ordered = oldest === 0 ? steps.slice() : [...steps.slice(oldest), ...steps.slice(0, oldest)];
      for (const step of ordered) freezeStep(step);
      frozen = Object.freeze(ordered);
    }
    return frozen;
  };

  return {
    push(step) {
      const frozenBefore = frozen;
      frozen = undefined;
      // Stryker disable next-line ConditionalExpression: equivalent: while the ring is not full, oldest equals steps.length, so writing steps[oldest] appends too.
      if (limit === undefined || steps.length < limit) {
        steps.push(step);
        return () => {
          steps.pop();
          frozen = frozenBefore;
        };
      }
      const slot = oldest;
      const replaced = steps[slot] as GuardStep;
      steps[slot] = step;
      oldest = (oldest + 1) % limit;
      return () => {
        steps[slot] = replaced;
        oldest = slot;
        frozen = frozenBefore;
      };
    },
    snapshot,
    forRules: () => (limit === undefined ? steps : snapshot()),
  };
}
