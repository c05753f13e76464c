import { createGuard } from '../guard/create-guard.js';
import { safeRead } from '../guard/safe-read.js';
import type { Guard, GuardOptions, GuardSnapshot, StopVerdict, Verdict } from '../types.js';
import { toGuardStep } from './to-guard-step.js';
import type { AiSdkCostFunction, AiSdkStepLike } from './to-guard-step.js';

/** Options of {@link toStopWhen}. */
export interface ToStopWhenOptions<Step extends AiSdkStepLike = AiSdkStepLike> {
  /**
   * Called with the stop verdict each time the condition answers `true`. The SDK asks once per step and ends the
   * run on the first `true`, so in practice this runs once per stopped run. Errors it throws propagate to the SDK.
   * @default undefined
   */
  readonly onStop?: ((verdict: StopVerdict, steps: readonly Step[]) => void) | undefined;
  /**
   * Prices a step so `budget.maxCostUsd` can fire; see {@link toGuardStep}. It runs again for the same step when a
   * replay starts over, so it should depend on its arguments only.
   * @default undefined (no cost reported)
   */
  readonly cost?: AiSdkCostFunction<Step> | undefined;
  /**
   * Where the run left off: what an earlier condition's `snapshot()` returned (for a durable run that goes on in
   * another invocation or process). Replays then start from that state instead of a fresh guard. Only with
   * `GuardOptions`, the same options the snapshot was taken under.
   * @default undefined (replays start from a fresh guard)
   */
  readonly snapshot?: unknown;
}

/** A stop condition in the shape the AI SDK's `stopWhen` takes (`StopCondition`), whose state can be saved. */
export type GuardStopCondition<Step extends AiSdkStepLike = AiSdkStepLike> = ((options: {
  readonly steps: readonly Step[];
}) => boolean) & {
  /**
   * The state after the last step the condition judged (or the starting state, before any), to pass as `snapshot`
   * to the next invocation's condition. Throws when the last replay itself threw (a `cost` function or custom rule).
   */
  snapshot(): GuardSnapshot;
};

/** A replay in progress: the guard after the steps in `seen`, and the verdict it gave for each of them. */
interface Replay {
  readonly guard: Guard;
  readonly seen: unknown[];
  readonly verdicts: Verdict[];
  /** A check threw half-way through a step, so the guard no longer matches `seen`. */
  broken: boolean;
}

/**
 * Turns a guard into a Vercel AI SDK stop condition, for `stopWhen` of `generateText`, `streamText` and
 * `ToolLoopAgent`, alone or in an array next to `isStepCount(n)`.
 *
 * The answer is the verdict of a fresh guard that has seen exactly `steps`, in order, and only the verdict of the
 * last step counts. So it depends only on the steps given, never on how often or in which order it is asked, and
 * nothing carries over from one run to the next.
 *
 * It is linear, though: the SDK passes the same array again after every step, one step longer. The replay of the
 * previous answer is kept (per array, and the latest one for callers that copy the array) and only the new steps are
 * checked, as long as every step seen before is still the same object at the same index; otherwise the replay starts
 * over from a fresh guard. A run of n steps costs n checks in total (plus an identity comparison per kept step per call).
 *
 * Wall-clock time means nothing in a replay, so given `options` the guard's clock is frozen (`now` is replaced by
 * a constant) and `budget.maxDurationMs` counts the steps' own `performance.stepTimeMs`. A factory should do the
 * same (`createGuard({ ..., now: () => 0 })`) if it sets `maxDurationMs`.
 * @param optionsOrFactory - `GuardOptions`, or a function returning a new guard (called for every replay from
 *   scratch; the guard it returns is reset first). @default {} (a guard with the default options)
 * @param options - `onStop`, `cost`, and `snapshot` to go on from an earlier invocation
 * @returns `({ steps }) => boolean`, with `snapshot()` to save where it got to
 * @throws TypeError from `createGuard` when `optionsOrFactory` holds invalid options or `snapshot` is refused, and when
 *   `snapshot` comes with a factory
 */
export function toStopWhen<Step extends AiSdkStepLike = AiSdkStepLike>(
  optionsOrFactory?: GuardOptions | (() => Guard),
  options?: ToStopWhenOptions<Step>,
): GuardStopCondition<Step> {
  const newGuard = guardFactory(optionsOrFactory, options?.snapshot);
  const onStop = options?.onStop;
  const cost = options?.cost;
  const replays = new WeakMap<object, Replay>();
  let latest: Replay | undefined;

  /** The kept replay when `given` still starts with the steps it saw, else a new one. */
  function replayFor(given: object, read: (index: number) => unknown, length: number): Replay {
    const kept = replays.get(given) ?? latest;
    if (kept !== undefined && !kept.broken && sharesPrefix(kept.seen, read, length)) return kept;
    return { guard: newGuard(), seen: [], verdicts: [], broken: false };
  }

  function condition(input: { readonly steps: readonly Step[] }): boolean {
    const given = safeRead(input, 'steps');
    const length = arrayLength(given);
    if (length === undefined || length === 0) return false;
    // Each item is read at most once per call: the array may be a proxy whose items change or throw when read.
    const read = (index: number): unknown => safeRead(given, String(index));
    const replay = replayFor(given as object, read, length);
    const unseen = length - replay.seen.length;
    if (unseen > MAX_REPLAY_STEPS) {
      throw new TypeError(
        `agent-loopguard: toStopWhen was given ${String(unseen)} steps it had not seen; it checks at most ${String(MAX_REPLAY_STEPS)} new steps per call.`,
      );
    }
    try {
      for (let index = replay.seen.length; index < length; index++) {
        const step = read(index);
        replay.verdicts.push(replay.guard.check(toGuardStep(step as Step, { cost })));
        replay.seen.push(step);
      }
    } catch (error) {
      // A throwing `cost` or custom detector can leave the guard half-way through a step: never reuse it.
      replay.broken = true;
      latest = replay;
      throw error;
    }
    replays.set(given as object, replay);
    latest = replay;
    const verdict = replay.verdicts[length - 1];
    // Stryker disable next-line OptionalChaining: every step up to the last has a verdict by now.
    if (verdict?.stop !== true) return false;
    onStop?.(verdict, given as readonly Step[]);
    return true;
  }

  return Object.assign(condition, {
    snapshot(): GuardSnapshot {
      if (latest?.broken === true) throw new Error('agent-loopguard: the last replay of toStopWhen threw, so there is no state to save.');
      return (latest?.guard ?? newGuard()).snapshot();
    },
  });
}

function guardFactory(optionsOrFactory: GuardOptions | (() => Guard) | undefined, snapshot: unknown): () => Guard {
  if (typeof optionsOrFactory === 'function') {
    if (snapshot !== undefined) throw new TypeError('agent-loopguard: toStopWhen takes a snapshot with GuardOptions, not with a guard factory.');
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

/** Whether the array read by `read` (of `length` items) starts with the objects in `seen` or is a prefix of them. */
function sharesPrefix(seen: readonly unknown[], read: (index: number) => unknown, length: number): boolean {
  const shared = Math.min(seen.length, length);
  for (let index = 0; index < shared; index++) {
    if (seen[index] !== read(index)) return false;
  }
  return true;
}

/**
 * Most steps one call checks that it has not seen before. The AI SDK adds one step between calls; a replay from scratch
 * of a long run stays far below this. A hostile length (a sparse array of 2^32 - 1 slots) is refused loudly instead of
 * costing hours, or being ignored.
 */
export const MAX_REPLAY_STEPS = 100_000;

/** The length of an array, or `undefined` for anything else (and for an array proxy that throws when asked). */
function arrayLength(value: unknown): number | undefined {
  try {
    if (Array.isArray(value)) {
      const length: unknown = (value as unknown[]).length;
      if (typeof length === 'number') return length;
    }
  } catch {
    // A revoked proxy, or a trap that throws.
  }
  return undefined;
}
