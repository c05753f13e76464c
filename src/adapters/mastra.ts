/**
 * The Mastra (`@mastra/core` 1.x, tested with 1.71.0) adapter, published as the subpath
 * `@osama.ansar/agent-loopguard/mastra`. It only translates Mastra's shapes and calls the guard; `@mastra/core` itself is
 * never imported, so it is not a dependency of this package.
 */
import { loopMessage, loopWarnings } from '../guard/verdict.js';
import { arrayLength, safeArray, safeRead } from '../utils/read.js';
import type { Guard, GuardOptions, GuardStep, GuardToolCall, LoopWarning, StopVerdict, Verdict } from '../types.js';
import type { CallRefusal } from '../types.js';
import { guardMaker, stopLine } from './per-run-guard.js';
import { MAX_REPLAY_STEPS } from './step-replayer.js';
import { toGuardStep, type AiSdkStepLike } from './to-guard-step.js';
import { ResponseScreen } from './turn.js';

export type { CallRefusal } from '../types.js';

/** What `hooks.beforeToolCall` is given (`ToolHookContext`), as far as the guard reads it. */
export interface MastraToolHookContextLike {
  readonly toolName?: string | undefined;
  /** The parsed input. */
  readonly input?: unknown;
  /** The tool's execution options; `toolCallId` and `requestContext` (the run's own) are read. */
  readonly context?: unknown;
}

/** What `hooks.beforeToolCall` answers to skip a call (`ToolBeforeHookResult`): the model reads `output` as its result. */
export interface MastraSkippedCall {
  readonly proceed: false;
  readonly output: string;
}

/** What `prepareStep` is given (`ProcessInputStepArgs`), as far as the guard reads it. */
export interface MastraPrepareStepLike {
  /** The run's finished steps, oldest first (none before its first model call). */
  readonly steps?: readonly unknown[] | undefined;
  /** The run's own `RequestContext`: what tells one run from another. */
  readonly requestContext?: unknown;
  /** The run's messages; a loop warning is added to them (`addSystem`) for the next model call. */
  readonly messageList?: unknown;
  /** Ends the run with a tripwire: how the guard stops it. */
  readonly abort?: unknown;
}

/** Options of {@link toMastraOptions}. */
export interface MastraGuardOptions {
  /** Called with the stop verdict and the run's `requestContext` when the guard ends a run. @default undefined */
  readonly onStop?: ((verdict: StopVerdict, requestContext: unknown) => void) | undefined;
  /** Called with the loop warnings passed on to the model, and the run's `requestContext`. @default undefined */
  readonly onWarning?: ((warnings: readonly LoopWarning[], requestContext: unknown) => void) | undefined;
  /** Called when `beforeToolCall` refuses a call, with the refusal and the hook's context. @default undefined */
  readonly onBlock?: ((refusal: CallRefusal, call: MastraToolHookContextLike) => void) | undefined;
}

/**
 * What {@link toMastraOptions} returns: three options to spread into `agent.generate()` or `agent.stream()`, plus
 * `verdictOf` and `guardOf`, which are not enumerable, so spreading passes Mastra only its own options.
 */
export interface MastraLoopGuard {
  /**
   * Lends the guard Mastra's own record of each finished step (the one `prepareStep` is handed is rebuilt from the
   * conversation, and loses calls that share an id, and text), and always answers `false`: a run the guard stops is
   * ended by `prepareStep`. In an array next to conditions of your own, it works the same.
   */
  readonly stopWhen: (options: { readonly steps: readonly unknown[] }) => boolean;
  /**
   * Before each model call: records the steps the run finished since (a call `beforeToolCall` refused as refused),
   * ends the run with a tripwire on a stop verdict (`result.tripwire`: the reason, and the verdict as `metadata`), and
   * otherwise adds a loop warning to the model's instructions (a system message). Returns nothing: the step goes on
   * as Mastra planned it.
   * @throws TypeError when a run hands it steps other than those it recorded for the same `requestContext` (two runs
   *   at once share one), or more than `MAX_REPLAY_STEPS` (100,000) steps it has not seen, and when its `stopWhen`
   *   was never asked (only part of the object was passed to Mastra)
   */
  readonly prepareStep: (args: MastraPrepareStepLike) => void;
  /**
   * `beforeToolCall` refuses a call that would complete a repeat or a cycle before it runs (`{ proceed: false }`), with
   * the reason as the call's output, which the model reads. A run's `hooks` replace the agent's: to keep a
   * `beforeToolCall` of your own, call it from one that calls this.
   * @throws TypeError when a run's calls reach it but its `prepareStep` never saw the run (only part of the object was
   *   passed to Mastra)
   */
  readonly hooks: { readonly beforeToolCall: (context: MastraToolHookContextLike) => MastraSkippedCall | undefined };
  /**
   * The stop verdict of a run, from its `requestContext` or from the result of `generate()` (its `tripwire`), or
   * `undefined` when the guard did not stop it.
   */
  verdictOf(requestContextOrResult: unknown): StopVerdict | undefined;
  /** The guard of the run with this `requestContext` (for `summary()` or `snapshot()`), or `undefined` if none ran. */
  guardOf(requestContext: unknown): Guard | undefined;
}

/** One run's bookkeeping. */
interface Run {
  readonly guard: Guard;
  /** How many of the run's steps the guard has recorded. */
  recorded: number;
  /** The `usage` or `request` object of the step recorded last: another run's step at its index has other ones. */
  lastStep: object | undefined;
  stop: StopVerdict | undefined;
  /** The calls of the step in progress `beforeToolCall` judged, in order. */
  screen: ResponseScreen;
}

/**
 * Wires a guard into Mastra agent runs: `hooks.beforeToolCall` refuses the call that would complete a loop (the tool
 * never runs; the model reads why as its output), and `prepareStep` records each finished step before the next model
 * call, tells the model of a loop that is forming, and ends a looping run with a tripwire.
 *
 * One object serves any number of runs, one after another and at the same time: each run is kept by its
 * `requestContext`, which Mastra hands both hooks (it makes a new one for every `generate()` and `stream()` unless
 * given one), and a run's first step starts a fresh guard even on a `requestContext` an earlier run used. Parallel
 * calls of a response are told apart by their place among the calls sharing their id, so a reused or missing
 * `toolCallId` neither lets a refused call run nor records a call that ran as refused.
 *
 * For stopping alone, `stopWhen: toStopWhen(options)` from the package's root works unchanged; it replays the steps, so
 * one serves every run, but it cannot tell refused calls from calls that ran.
 * @param optionsOrFactory - `GuardOptions`, or a function returning a new guard for the run with the `requestContext`
 *   it is given (to restore one from a snapshot, say). @default {} (the defaults)
 * @param options - callbacks
 * @returns `{ stopWhen, prepareStep, hooks }` to spread into the run's options, with `verdictOf` and `guardOf`
 * @throws TypeError from `createGuard` when the options are invalid
 */
export function toMastraOptions(optionsOrFactory?: GuardOptions | ((requestContext: unknown) => Guard), options?: MastraGuardOptions): MastraLoopGuard {
  const newGuard = guardMaker(optionsOrFactory);
  const runs = new WeakMap<object, Run>();
  // Mastra always hands a requestContext; hooks called without one share this run.
  let contextless: Run | undefined;
  const stops = new WeakSet<StopVerdict>();
  /**
   * Mastra's own steps, as `stopWhen` is handed them, by their model call's `usage` (or else `request`) object: the step
   * `prepareStep` is handed for the same model call shares both, and is otherwise rebuilt from the conversation.
   */
  const exact = new WeakMap<object, unknown>();
  const lent = new WeakMap<object, number>();
  let stopWhenAsked = false;

  const key = (context: unknown): object | undefined => (typeof context === 'object' && context !== null ? context : undefined);
  const runOf = (context: unknown): Run | undefined => {
    const object = key(context);
    return object === undefined ? contextless : runs.get(object);
  };

  function startRun(context: unknown): Run {
    const run: Run = { guard: newGuard(context), recorded: 0, lastStep: undefined, stop: undefined, screen: new ResponseScreen() };
    const object = key(context);
    if (object === undefined) contextless = run;
    else runs.set(object, run);
    return run;
  }

  /** Records one step; the calls `beforeToolCall` judged belong to the newest step, so only it is `judged`. */
  function record(run: Run, step: unknown, judged: boolean): Verdict {
    const mapped = toGuardStep(step as AiSdkStepLike);
    const screen = judged ? run.screen : new ResponseScreen();
    // toGuardStep keeps the calls with a string name, in order: the same calls, so their ids line up.
    const ids = safeArray(safeRead(step, 'toolCalls'))
      .filter((call) => typeof safeRead(call, 'toolName') === 'string')
      .map((call) => safeRead(call, 'toolCallId'));
    const guardStep: GuardStep =
      mapped.toolCalls === undefined ? mapped : { ...mapped, toolCalls: mapped.toolCalls.map((call, index) => screen.recorded(ids[index], call)) };
    const verdict = run.guard.check(guardStep);
    run.recorded++;
    if (judged) run.screen = new ResponseScreen();
    if (verdict.stop && run.stop === undefined) run.stop = verdict;
    return verdict;
  }

  /** What is known of a step by its model call: its `usage` object, or else its `request` object. */
  const stepKey = (step: unknown): object | undefined => key(safeRead(step, 'usage')) ?? key(safeRead(step, 'request'));

  function stopWhen(input: { readonly steps: readonly unknown[] }): boolean {
    stopWhenAsked = true;
    const steps = safeRead(input, 'steps');
    if (key(steps) === undefined) return false;
    const length = Math.min(arrayLength(steps) ?? 0, MAX_REPLAY_STEPS);
    for (let index = lent.get(steps as object) ?? 0; index < length; index++) {
      const step = safeRead(steps, String(index));
      const object = stepKey(step);
      if (object !== undefined) exact.set(object, step);
    }
    lent.set(steps as object, length);
    return false;
  }

  /** Mastra's own record of a step `prepareStep` is handed, or the step itself when `stopWhen` was not lent it. */
  function exactStep(step: unknown): unknown {
    const object = stepKey(step);
    return (object === undefined ? undefined : exact.get(object)) ?? step;
  }

  function prepareStep(args: MastraPrepareStepLike): void {
    const context = safeRead(args, 'requestContext');
    const steps = safeRead(args, 'steps');
    const length = arrayLength(steps) ?? 0;
    if (length === 0) {
      // The run's first model call: a new run, even on a requestContext an earlier run was given.
      startRun(context);
      return;
    }
    const run = runOf(context) ?? startRun(context);
    // Before the first step is recorded, index -1 reads nothing.
    const lastStep = stepKey(safeRead(steps, String(run.recorded - 1)));
    if (length < run.recorded || (run.lastStep !== undefined && lastStep !== undefined && lastStep !== run.lastStep)) {
      throw new TypeError(
        'agent-loopguard: toMastraOptions was handed, under one requestContext, steps that are not those of the run it recorded there: two runs at once share one requestContext. Give each generate() or stream() its own (Mastra makes one per run when none is passed).',
      );
    }
    if (length - run.recorded > MAX_REPLAY_STEPS) {
      throw new TypeError(
        `agent-loopguard: the prepareStep of toMastraOptions was given ${String(length - run.recorded)} steps it had not seen; it checks at most ${String(MAX_REPLAY_STEPS)} new steps per call.`,
      );
    }
    // A run with steps recorded got past this already: the check only matters before its first.
    if (!stopWhenAsked) {
      throw new TypeError(
        'agent-loopguard: the prepareStep of toMastraOptions ran, but its stopWhen was never asked. Spread the whole object into generate() or stream() ({ ...loop }), or put loop.stopWhen in a stopWhen array of your own.',
      );
    }
    const wasStopped = run.stop !== undefined;
    let latest: Verdict | undefined;
    // Each step read once: the array may be a proxy whose items change or throw when read.
    for (let index = run.recorded; index < length; index++) {
      const step = safeRead(steps, String(index));
      latest = record(run, exactStep(step), index === length - 1);
      run.lastStep = stepKey(step);
    }
    if (run.stop !== undefined) {
      if (!wasStopped) {
        stops.add(run.stop);
        options?.onStop?.(run.stop, context);
      }
      const abort = safeRead(args, 'abort');
      // Mastra's abort throws its tripwire, which ends the run: it is meant to leave this function.
      if (typeof abort === 'function') abort.call(args, stopLine(run.stop), { metadata: run.stop });
      return;
    }
    const message = loopMessage(latest);
    const add = safeRead(safeRead(args, 'messageList'), 'addSystem');
    if (message !== undefined && typeof add === 'function') {
      // As a system message, tagged: as the assistant's text, Mastra would fold it into the next step's own text.
      add.call(safeRead(args, 'messageList'), { role: 'system', content: message }, 'agent-loopguard');
      options?.onWarning?.(loopWarnings(latest), context);
    }
  }

  function beforeToolCall(context: MastraToolHookContextLike): MastraSkippedCall | undefined {
    const name = safeRead(context, 'toolName');
    if (typeof name !== 'string') return undefined;
    const execution = safeRead(context, 'context');
    const run = runOf(safeRead(execution, 'requestContext'));
    if (run === undefined) {
      throw new TypeError(
        'agent-loopguard: the beforeToolCall of toMastraOptions was called in a run its prepareStep never saw. Spread the whole object into generate() or stream() ({ ...loop }), or call loop.prepareStep from a prepareStep of your own.',
      );
    }
    const call: GuardToolCall = { name, args: safeRead(context, 'input') };
    const verdict = run.screen.judge(run.guard, call, safeRead(execution, 'toolCallId'), context, (refusal) => options?.onBlock?.(refusal, context));
    return verdict.block ? { proceed: false, output: verdict.message } : undefined;
  }

  function verdictOf(requestContextOrResult: unknown): StopVerdict | undefined {
    const run = runOf(requestContextOrResult);
    if (run !== undefined && key(requestContextOrResult) !== undefined) return run.stop;
    const metadata = safeRead(safeRead(requestContextOrResult, 'tripwire'), 'metadata');
    // A WeakSet holds objects only: anything else is not one of its verdicts.
    return stops.has(metadata as StopVerdict) ? (metadata as StopVerdict) : undefined;
  }

  const loop = { stopWhen, prepareStep, hooks: { beforeToolCall } };
  Object.defineProperty(loop, 'verdictOf', { value: verdictOf, enumerable: false });
  Object.defineProperty(loop, 'guardOf', { value: (requestContext: unknown) => (key(requestContext) === undefined ? undefined : runOf(requestContext)?.guard), enumerable: false });
  return loop as MastraLoopGuard;
}
