import { arrayLength, safeRead } from '../utils/read.js';
import type { Guard, GuardOptions, GuardSnapshot, StopVerdict } from '../types.js';
import { createStepReplayer, type StepReplayer } from './step-replayer.js';
import type { AiSdkCostFunction, AiSdkStepLike } from './to-guard-step.js';

export { MAX_REPLAY_STEPS } from './step-replayer.js';

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
   * The state after a run's steps, to pass as `snapshot` to the next invocation's condition: `snapshot(result.steps)`
   * for that run, whatever other runs the condition serves. Without `steps`, the state after the steps it judged last
   * (the starting state before any), which is the run's only while one run at a time uses the condition. Its clock is
   * `'custom'` (the replay's clock is frozen), so a guard on `Date.now` restores it with the run's elapsed time, never
   * the time since 1970. Throws when that replay threw (a `cost` function or custom rule).
   */
  snapshot(steps?: readonly Step[]): GuardSnapshot;
};

/**
 * Turns a guard into a Vercel AI SDK stop condition, for `stopWhen` of `generateText`, `streamText` and
 * `ToolLoopAgent`, alone or in an array next to `isStepCount(n)`.
 *
 * The answer is the verdict of a fresh guard that has seen exactly `steps`, in order, and only the verdict of the
 * last step counts. So it depends only on the steps given, never on how often or in which order it is asked, and
 * nothing carries over from one run to the next.
 *
 * It is linear, though: the SDK passes the same array again after every step, one step longer. The replay of the
 * previous answer is kept (per array, and per the run's first step for callers that copy the array) and only the new
 * steps are checked, as long as every step seen before is still the same object at the same index; otherwise, and for
 * an empty array (a new run), the replay starts over from a fresh guard. One condition serves any number of runs, in a
 * row or at once. A run of n steps costs n checks in total (plus an identity comparison per kept step per call).
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
  const replayer = createStepReplayer<Step>(optionsOrFactory, { cost: options?.cost, snapshot: options?.snapshot }, 'toStopWhen');
  return toStopWhenFrom(replayer, options?.onStop);
}

/**
 * The stop condition over a replayer another adapter shares.
 * @param replayer - replays the steps the condition is given
 * @param onStop - called with the stop verdict each time the condition answers `true`
 * @returns the condition
 */
export function toStopWhenFrom<Step extends AiSdkStepLike>(
  replayer: StepReplayer,
  onStop: ((verdict: StopVerdict, steps: readonly Step[]) => void) | undefined,
): GuardStopCondition<Step> {
  function condition(input: { readonly steps: readonly Step[] }): boolean {
    const given = safeRead(input, 'steps');
    const length = arrayLength(given);
    // Without steps there is nothing to judge; only the verdict of the last step counts.
    if (length === undefined || length === 0) return false;
    const verdict = replayer.replay(given)?.verdicts[length - 1];
    if (verdict?.stop !== true) return false;
    onStop?.(verdict, given as readonly Step[]);
    return true;
  }

  return Object.assign(condition, { snapshot: (steps?: readonly Step[]) => replayer.snapshot(steps) });
}
