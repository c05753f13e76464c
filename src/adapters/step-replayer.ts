import { createGuard } from '../guard/create-guard.js';
import { arrayLength, isObject, safeRead } from '../utils/read.js';
import type { Guard, GuardOptions, GuardSnapshot, Verdict } from '../types.js';
import { toGuardStep, type AiSdkCostFunction, type AiSdkStepLike } from './to-guard-step.js';

/** A replay in progress: the guard after the steps in `seen`, and the verdict it gave for each of them. */
export interface Replay {
  readonly guard: Guard;
  readonly seen: unknown[];
  readonly verdicts: Verdict[];
  /** A check threw half-way through a step, so the guard no longer matches `seen`. */
  broken: boolean;
}

/**
 * Most steps one call checks that it has not seen before. The AI SDK adds one step between calls; a replay from scratch
 * of a long run stays far below this. A hostile length (a sparse array of 2^32 - 1 slots) is refused loudly instead of
 * costing hours, or being ignored.
 */
export const MAX_REPLAY_STEPS = 100_000;

/** Replays AI SDK steps through guards, so hooks that are handed the steps can judge them from scratch, linearly. */
export interface StepReplayer {
  /**
   * The guard that has seen exactly `given`, in order, and its verdict for each step. The run is found from its own
   * steps: a replay kept for the same array, or for the same first step object (the SDK's steps are objects of their
   * run alone), goes on when `given` still starts with every step it saw (only new steps are checked); anything else,
   * an empty array included, is replayed from scratch. No run ever goes on from another run's replay.
   * @returns the replay, or `undefined` when `given` is not an array that can be read
   * @throws TypeError past {@link MAX_REPLAY_STEPS} new steps; whatever a `cost` function or custom rule throws
   */
  replay(given: unknown): Replay | undefined;
  /**
   * The state after a run's steps, to save: with `steps`, that run's (replayed as `replay` does); without, the run
   * replayed last, which is only meaningful while one run at a time uses the hooks (the starting state before any).
   * @throws Error when that replay threw half-way; TypeError as `replay` does
   */
  snapshot(steps?: unknown): GuardSnapshot;
}

/**
 * A replayer for one hook or set of hooks.
 * @param optionsOrFactory - `GuardOptions` (the clock is frozen: a replay has no wall-clock time), or a factory
 * @param options - `cost`, and `snapshot` to start from an earlier invocation's state (with `GuardOptions` only)
 * @param caller - the function's name, for errors
 * @throws TypeError from `createGuard` for invalid options or a refused snapshot, and for a snapshot with a factory
 */
export function createStepReplayer<Step extends AiSdkStepLike>(
  optionsOrFactory: GuardOptions | (() => Guard) | undefined,
  options: { readonly cost?: AiSdkCostFunction<Step> | undefined; readonly snapshot?: unknown },
  caller: string,
): StepReplayer {
  const newGuard = guardFactory(optionsOrFactory, options.snapshot, caller);
  const cost = options.cost;
  // Keyed by the steps array and by the run's first step: a host that copies the array each time still finds its run.
  const replays = new WeakMap<object, Replay>();
  // Only for `snapshot()` without steps.
  let last: Replay | undefined;

  function replay(given: unknown): Replay | undefined {
    const length = arrayLength(given);
    if (length === undefined) return undefined;
    // Each item is read at most once per call: the array may be a proxy whose items change or throw when read.
    const first = length === 0 ? undefined : safeRead(given, '0');
    const read = (index: number): unknown => (index === 0 ? first : safeRead(given, String(index)));
    const kept = replays.get(given as object) ?? (isObject(first) ? replays.get(first) : undefined);
    const usable = kept !== undefined && !kept.broken && kept.seen.length <= length && sharesPrefix(kept.seen, read);
    const current = usable ? kept : { guard: newGuard(), seen: [], verdicts: [], broken: false };
    const unseen = length - current.seen.length;
    if (unseen > MAX_REPLAY_STEPS) {
      throw new TypeError(
        `agent-loopguard: ${caller} was given ${unseen} steps it had not seen; it checks at most ${MAX_REPLAY_STEPS} new steps per call.`,
      );
    }
    last = current;
    try {
      for (let index = current.seen.length; index < length; index++) {
        const step = read(index);
        current.verdicts.push(current.guard.check(toGuardStep(step as Step, { cost })));
        current.seen.push(step);
      }
    } catch (error) {
      // A throwing `cost` or custom detector can leave the guard half-way through a step: never reuse it.
      current.broken = true;
      throw error;
    }
    replays.set(given as object, current);
    if (isObject(first)) replays.set(first, current);
    return current;
  }

  return {
    replay,
    snapshot(steps) {
      const chosen = steps === undefined ? last : replay(steps);
      if (chosen?.broken === true) throw new Error(`agent-loopguard: the last replay of ${caller} threw, so there is no state to save.`);
      return (chosen?.guard ?? newGuard()).snapshot();
    },
  };
}

/**
 * Where the guards of replays come from: a factory's guard, reset, or a guard made with the options and a frozen clock
 * (a replay has no wall-clock time of its own), started from `snapshot` when one is given.
 * @param optionsOrFactory - `GuardOptions`, or a function returning a guard
 * @param snapshot - state to start every replay from, with `GuardOptions` only
 * @param caller - the function's name, for errors
 * @throws TypeError from `createGuard` for invalid options or a refused snapshot, and for a snapshot with a factory
 */
export function guardFactory(optionsOrFactory: GuardOptions | (() => Guard) | undefined, snapshot: unknown, caller: string): () => Guard {
  if (typeof optionsOrFactory === 'function') {
    if (snapshot !== undefined) throw new TypeError(`agent-loopguard: ${caller} takes a snapshot with GuardOptions, not with a guard factory.`);
    return () => {
      // A factory may hand out a guard that has seen steps; a replay from scratch needs one that has not.
      const guard = optionsOrFactory();
      guard.reset();
      return guard;
    };
  }
  // Validates the options as given, then the snapshot, so a bad one throws its TypeError here rather than mid-run.
  createGuard(optionsOrFactory);
  // A replayed run has no wall-clock time of its own; durations come from the steps.
  // Stryker disable next-line ArrowFunction: a clock reading undefined gives NaN elapsed time, which the guard reads as 0 too.
  const frozen: GuardOptions = { ...optionsOrFactory, now: () => 0 };
  createGuard(frozen, { snapshot });
  return () => createGuard(frozen, { snapshot });
}

/** Whether the array read by `read` starts with the objects in `seen` (it holds at least as many). */
function sharesPrefix(seen: readonly unknown[], read: (index: number) => unknown): boolean {
  for (let index = 0; index < seen.length; index++) {
    if (seen[index] !== read(index)) return false;
  }
  return true;
}

