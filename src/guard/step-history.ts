/* eslint-disable @typescript-eslint/non-nullable-type-assertion-style --
   A full ring has a step in every slot. The strict config forbids `!`; a cast says it. */
import type { GuardStep } from '../types.js';
import { freezeStep } from './reduce-step.js';

/** The steps a guard keeps: every one, or only the most recent `limit`. */
export interface StepHistory {
  /**
   * Records a step; with a limit, the oldest kept step is forgotten once the limit is reached.
   * @returns a function that takes the step back out, leaving the history exactly as it was (for a peek)
   */
  push(step: GuardStep): () => void;
  /** The kept steps, oldest first, as a frozen copy made at most once per recorded step. */
  snapshot(): readonly GuardStep[];
  /**
   * What custom rules receive. Without a limit, the live array: a copy per step would make every check cost grow
   * with the run. With a limit, the snapshot: a copy of at most `limit` steps, so the cost stays bounded.
   */
  forRules(): readonly GuardStep[];
}

/**
 * A history without a limit is a plain array. With a limit it is a ring of `limit` slots: recording a step costs the
 * same at any length (dropping the first element of a large array would move all the others).
 * @param limit - steps kept, or `undefined` for all
 * @param initial - the steps to start with, oldest first (a restored history); at most `limit` of them
 */
export function createStepHistory(limit: number | undefined, initial: readonly GuardStep[] = []): StepHistory {
  const steps: GuardStep[] = [...initial];
  /** With a limit, once the ring is full: the slot of the oldest step. */
  let oldest = 0;
  let frozen: readonly GuardStep[] | undefined;
  // Steps are recorded unfrozen and frozen here, before anyone outside the guard sees them. Without a limit, the steps
  // before this index are frozen, so handing rules the live array freezes only the steps recorded since.
  let frozenUpTo = 0;

  const snapshot = (): readonly GuardStep[] => {
    if (frozen === undefined) {
      // A frozen step is passed over at the cost of a look, in a walk the copy below makes anyway.
      steps.forEach(freezeStep);
      // Stryker disable next-line ConditionalExpression: equivalent: with oldest 0 both branches build the same array; the first is a fast path.
      frozen = Object.freeze(oldest === 0 ? steps.slice() : [...steps.slice(oldest), ...steps.slice(0, oldest)]);
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
          frozenUpTo = Math.min(frozenUpTo, steps.length);
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
    forRules: () => {
      if (limit !== undefined) return snapshot();
      while (frozenUpTo < steps.length) freezeStep(steps[frozenUpTo++] as GuardStep);
      return steps;
    },
  };
}
