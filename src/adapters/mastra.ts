/**
 * The Mastra (`@mastra/core` 1.x, tested with 1.71.0) adapter, published as the subpath
 * `@osama.ansar/agent-loopguard/mastra`. It only translates Mastra's shapes and calls the guard; `@mastra/core` itself is
 * never imported, so it is not a dependency of this package.
 */
import { loopMessage, loopWarnings } from '../guard/verdict.js';
import { safeArray, safeRead } from '../utils/read.js';
import type { Guard, GuardOptions, GuardStep, GuardToolCall, LoopWarning, StopVerdict, Verdict } from '../types.js';
import type { CallRefusal } from '../types.js';
import { guardMaker } from './per-run-guard.js';
import { arrayLength, MAX_REPLAY_STEPS } from './step-replayer.js';
import { toGuardStep, type AiSdkStepLike } from './to-guard-step.js';
import { ResponseScreen } from './turn.js';

export type { CallRefusal } from '../types.js';

/** What `hooks.beforeToolCall` is given (`ToolHookContext`), as far as the guard reads it. */
export interface MastraToolHookContextLike {
  readonly toolName?: string | undefined;
  /** The parsed input. */
  readonly input?: unknown;
  /** The tool's execution options; `toolCallId` and `requestContext` (which is the run's own) are read. */
  readonly context?: unknown;
}

/** What `hooks.beforeToolCall` answers to skip a call (`ToolBeforeHookResult`): the model reads `output` as its result. */
export interface MastraSkippedCall {
  readonly proceed: false;
  readonly output: string;
}

/** What `onIterationComplete` is given (`IterationCompleteContext`), as far as the guard reads it. */
export interface MastraIterationLike {
  /** The step's number in the run, from 1. */
  readonly iteration?: number | undefined;
}

/** Options of {@link toMastraOptions}. */
export interface MastraGuardOptions {
  /** Called with the stop verdict when `stopWhen` ends the run. @default undefined */
  readonly onStop?: ((verdict: StopVerdict) => void) | undefined;
  /** Called with the loop warnings `onIterationComplete` passes on to the model as feedback. @default undefined */
  readonly onWarning?: ((warnings: readonly LoopWarning[]) => void) | undefined;
  /** Called when `beforeToolCall` refuses a call, with the refusal and the hook's context. @default undefined */
  readonly onBlock?: ((refusal: CallRefusal, call: MastraToolHookContextLike) => void) | undefined;
}

/**
 * What {@link toMastraOptions} returns: three options to spread into `agent.generate()` or `agent.stream()`, plus
 * `verdict()` and `guard`, which are not enumerable, so spreading passes Mastra only its own options.
 */
export interface MastraLoopGuard {
  /**
   * Records each step the run finishes (a call `beforeToolCall` refused as refused) and ends the run on a stop verdict.
   * Mastra asks it after every step the model wants to go on from. In an array next to conditions of your own, it
   * works the same.
   * @throws TypeError when given more than `MAX_REPLAY_STEPS` (100,000) steps it has not seen, as `toStopWhen` does: a
   *   hostile length is refused rather than costing hours
   */
  readonly stopWhen: (options: { readonly steps: readonly AiSdkStepLike[] }) => boolean;
  /**
   * `beforeToolCall` refuses a call that would complete a repeat or a cycle before it runs (`{ proceed: false }`), with
   * the reason as the call's output, which the model reads. A run's `hooks` replace the agent's: to keep a
   * `beforeToolCall` of your own, call it from one that calls this.
   */
  readonly hooks: { readonly beforeToolCall: (context: MastraToolHookContextLike) => MastraSkippedCall | undefined };
  /** When a loop is forming, gives Mastra the warning as `feedback`, which it adds before the next model call. */
  readonly onIterationComplete: (context: MastraIterationLike) => { readonly feedback: string } | undefined;
  /** The stop verdict of the run, or `undefined` if the guard did not stop it (Mastra reports no reason of its own). */
  verdict(): StopVerdict | undefined;
  /** The run's guard (for `summary()` or `snapshot()`). */
  readonly guard: Guard;
}

/**
 * Wires a guard into one Mastra agent run: `hooks.beforeToolCall` refuses the call that would complete a loop (the
 * tool never runs; the model reads why as its output), `onIterationComplete` tells the model of a loop that is forming
 * (`feedback`), and `stopWhen` records each step and ends the run on a stop verdict. A model that asks again for a
 * refused call is stopped.
 *
 * One object serves any number of runs in a row: a new run is noticed at its first call (its `requestContext` is a new
 * one, as Mastra makes for every `generate()` unless given one) or at its first step (`stopWhen` is handed a new first
 * step), and starts from a fresh guard. Runs at once need one object each: Mastra hands `stopWhen` only the steps and
 * `beforeToolCall` only the call and its context, with nothing in common that would tell which run a step belongs to.
 * Parallel calls of a response are told apart by their place among the calls sharing their id, so a reused or missing
 * `toolCallId` neither lets a refused call run nor records a call that ran as refused.
 *
 * For stopping alone, `stopWhen: toStopWhen(options)` from the package's root works unchanged; it replays the steps, so
 * one serves every run, but it cannot tell refused calls from calls that ran.
 * @param optionsOrFactory - `GuardOptions`, or a function returning a new guard. @default {} (the defaults)
 * @param options - callbacks
 * @returns `{ stopWhen, hooks, onIterationComplete }` to spread into the run's options, with `verdict()` and `guard`
 * @throws TypeError from `createGuard` when the options are invalid
 */
export function toMastraOptions(optionsOrFactory?: GuardOptions | (() => Guard), options?: MastraGuardOptions): MastraLoopGuard {
  const newGuard = guardMaker(optionsOrFactory);
  let guard = newGuard(undefined);
  /** The run's first step, and the `requestContext` of its calls, to notice a new run. */
  let firstStep: unknown;
  let requestContext: unknown;
  let recorded = 0;
  let latest: Verdict | undefined;
  let stop: StopVerdict | undefined;
  /** The calls of the step in progress `beforeToolCall` judged, in order. */
  let screen = new ResponseScreen();

  function startRun(): void {
    guard = newGuard(undefined);
    firstStep = undefined;
    requestContext = undefined;
    recorded = 0;
    latest = undefined;
    stop = undefined;
    screen = new ResponseScreen();
  }

  function record(step: unknown): void {
    const mapped = toGuardStep(step as AiSdkStepLike);
    // toGuardStep keeps the calls with a string name, in order: the same calls, so their ids line up.
    const ids = safeArray(safeRead(step, 'toolCalls'))
      .filter((call) => typeof safeRead(call, 'toolName') === 'string')
      .map((call) => safeRead(call, 'toolCallId'));
    const toolCalls = (mapped.toolCalls ?? []).map((call, index) => screen.recorded(ids[index], call));
    const guardStep: GuardStep = mapped.toolCalls === undefined ? mapped : { ...mapped, toolCalls };
    latest = guard.check(guardStep);
    recorded++;
    screen = new ResponseScreen();
    if (latest.stop && stop === undefined) {
      stop = latest;
      options?.onStop?.(latest);
    }
  }

  function stopWhen(input: { readonly steps: readonly AiSdkStepLike[] }): boolean {
    const steps = safeRead(input, 'steps');
    const length = arrayLength(steps) ?? 0;
    // Also false for a length a proxy made up: negative, or not a number at all.
    if (!(length > 0)) return false;
    const first = safeRead(steps, '0');
    // Another run (one whose first call started it has no first step yet). The calls of the step being recorded were
    // judged already: their judgements are kept, to record which of them were refused.
    if (firstStep !== undefined && first !== firstStep) {
      const judged = screen;
      startRun();
      screen = judged;
    }
    firstStep = first;
    if (length - recorded > MAX_REPLAY_STEPS) {
      throw new TypeError(
        `agent-loopguard: the stopWhen of toMastraOptions was given ${length - recorded} steps it had not seen; it checks at most ${MAX_REPLAY_STEPS} new steps per call.`,
      );
    }
    // Each step read once: the array may be a proxy whose items change or throw when read.
    for (let index = recorded; index < length; index++) record(safeRead(steps, String(index)));
    return latest?.stop === true;
  }

  function beforeToolCall(context: MastraToolHookContextLike): MastraSkippedCall | undefined {
    const name = safeRead(context, 'toolName');
    if (typeof name !== 'string') return undefined;
    const execution = safeRead(context, 'context');
    const runContext = safeRead(execution, 'requestContext');
    if (runContext !== undefined && requestContext !== undefined && runContext !== requestContext) startRun();
    requestContext ??= runContext;
    const call: GuardToolCall = { name, args: safeRead(context, 'input') };
    const verdict = screen.judge(guard, call, safeRead(execution, 'toolCallId'), context, (refusal) => options?.onBlock?.(refusal, context));
    return verdict.block ? { proceed: false, output: verdict.message } : undefined;
  }

  function onIterationComplete(context: MastraIterationLike): { readonly feedback: string } | undefined {
    // Only for the step stopWhen recorded last: Mastra asks stopWhen first, and not at all after the last step.
    if (latest === undefined || latest.stop || safeRead(context, 'iteration') !== recorded) return undefined;
    const feedback = loopMessage(latest);
    if (feedback === undefined) return undefined;
    options?.onWarning?.(loopWarnings(latest));
    return { feedback };
  }

  const loop = { stopWhen, hooks: { beforeToolCall }, onIterationComplete };
  Object.defineProperty(loop, 'verdict', { value: () => stop, enumerable: false });
  Object.defineProperty(loop, 'guard', { get: () => guard, enumerable: false });
  return loop as MastraLoopGuard;
}
