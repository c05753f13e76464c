import { loopMessage, loopWarnings } from '../guard/verdict.js';
import { arrayLength, isObject, MAX_ARRAY_ITEMS, safeRead } from '../utils/read.js';
import type { Mutable } from '../utils/read.js';
import type { CallRefusal, Guard, GuardOptions, GuardToolCall, LoopWarning, StopVerdict } from '../types.js';
import { createStepReplayer, type Replay } from './step-replayer.js';
import type { AiSdkCostFunction, AiSdkStepLike } from './to-guard-step.js';
import { toStopWhenFrom, type GuardStopCondition } from './to-stop-when.js';
import { ResponseScreen } from './turn.js';

/** The message `prepareStep` adds for the model: a user message, which every provider accepts at the end of a prompt. */
export interface AiSdkNudgeMessage {
  readonly role: 'user';
  readonly content: string;
}

/** The tool call the AI SDK asks `toolApproval` about. */
export interface AiSdkApprovalToolCall {
  readonly toolCallId?: string | undefined;
  readonly toolName: string;
  readonly input?: unknown;
}

/** Options of {@link toAgentSettings}. */
export interface AgentSettingsOptions<Step extends AiSdkStepLike = AiSdkStepLike> {
  /** Called with the stop verdict when `stopWhen` ends the run. @default undefined */
  readonly onStop?: ((verdict: StopVerdict, steps: readonly Step[]) => void) | undefined;
  /** Called with the loop warnings `prepareStep` passes on to the model, before the step. @default undefined */
  readonly onWarning?: ((warnings: readonly LoopWarning[], steps: readonly Step[]) => void) | undefined;
  /** Called when `toolApproval` refuses a call, with the refusal and the call. @default undefined */
  readonly onBlock?: ((refusal: CallRefusal, toolCall: AiSdkApprovalToolCall) => void) | undefined;
  /** Prices a step so `budget.maxCostUsd` can fire; see `toGuardStep`. @default undefined (no cost reported) */
  readonly cost?: AiSdkCostFunction<Step> | undefined;
  /** Where an earlier invocation left off (`settings.stopWhen.snapshot()`), with `GuardOptions` only. @default undefined */
  readonly snapshot?: unknown;
  /** Stop the run on a stop verdict (`stopWhen`); `false` leaves it out. @default true */
  readonly stop?: boolean | undefined;
  /** Refuse a call that would complete a loop, before it runs (`toolApproval`); `false` leaves it out. @default true */
  readonly block?: boolean | undefined;
  /** Tell the model of a loop that is forming, in the next prompt (`prepareStep`); `false` to stay silent. @default true */
  readonly nudge?: boolean | undefined;
}

/** What `prepareStep` is given: the part the guard reads. */
export interface AiSdkPrepareStepInput<Step extends AiSdkStepLike, Message> {
  readonly steps: readonly Step[];
  readonly messages: readonly Message[];
}

/** The settings to spread into `generateText`, `streamText` or `new ToolLoopAgent(...)`; a part switched off is absent. */
export interface GuardAgentSettings<Step extends AiSdkStepLike = AiSdkStepLike> {
  /** Stops the run as `toStopWhen` does; `stopWhen.snapshot()` saves where it got to. */
  readonly stopWhen?: GuardStopCondition<Step>;
  /**
   * Replays the steps so far and, when the latest verdict warns of a loop, adds a user message with the warnings'
   * messages after the prompt of the next model call. The SDK (v7) builds later prompts on the messages `prepareStep`
   * returned, so the message stays in the conversation from then on, once. Returns `undefined` otherwise.
   */
  readonly prepareStep?: <Message>(input: AiSdkPrepareStepInput<Step, Message>) => { messages: (Message | AiSdkNudgeMessage)[] } | undefined;
  /**
   * Refuses, with the reason the model will read, a call that would complete a repeat or a cycle; `undefined` (no
   * opinion) for every other call.
   */
  readonly toolApproval?: (input: { readonly toolCall: AiSdkApprovalToolCall; readonly messages: readonly unknown[] }) =>
    | { readonly type: 'denied'; readonly reason: string }
    | undefined;
}

/** The replay of the steps before a model call, and the calls of its response judged so far. */
interface StepJudgements {
  readonly replay: Replay;
  readonly screen: ResponseScreen;
}

/**
 * Wires a guard into the three hooks of the Vercel AI SDK (v7) that steer a run: `prepareStep` tells the model of a
 * loop that is forming, `toolApproval` refuses the call that would complete one (its `execute` never runs; the model
 * reads why), and `stopWhen` stops the run on a stop verdict, as {@link toStopWhen} does. A model that asks again for a
 * refused call is stopped.
 *
 * Runs are told apart by what the SDK hands each hook for its run, never by which run came last, so one settings
 * object serves any number of runs, in a row or at once (a reused `ToolLoopAgent` included). `stopWhen` and
 * `prepareStep` replay the run's own `steps` (an empty array is a new run). `toolApproval` is handed only the prompt of
 * its step: it finds the replay `prepareStep` made for that prompt, by the array, or, when the SDK hands a new array
 * that extends it (it appends `experimental_toolCallers` messages), by the newest message `prepareStep` saw. A call
 * whose prompt it cannot place gets no opinion (it runs; `stopWhen` still judges the step). Parallel calls are told
 * apart by the SDK's object for each call, not by `toolCallId`, so a reused or missing id never lets a refused call
 * run (note that `generateText` itself then skips every call sharing the refused call's id; see the guide).
 * @param optionsOrFactory - `GuardOptions`, or a function returning a new guard. @default {} (the defaults)
 * @param options - callbacks, `cost`, `snapshot`, and `stop`, `block`, `nudge` to switch parts off
 * @returns `{ stopWhen, prepareStep, toolApproval }`, each present unless switched off
 * @throws TypeError from `createGuard` when the options are invalid or the snapshot is refused
 */
export function toAgentSettings<Step extends AiSdkStepLike = AiSdkStepLike>(
  optionsOrFactory?: GuardOptions | (() => Guard),
  options?: AgentSettingsOptions<Step>,
): GuardAgentSettings<Step> {
  const replayer = createStepReplayer<Step>(optionsOrFactory, { cost: options?.cost, snapshot: options?.snapshot }, 'toAgentSettings');
  const nudge = options?.nudge !== false;
  const block = options?.block !== false;
  const onWarning = options?.onWarning;
  const onBlock = options?.onBlock;
  // The prompts `prepareStep` saw and returned, and their newest message, to the replay of the steps before them:
  // `toolApproval` is given only the prompt of its step.
  const byPrompt = new WeakMap<object, StepJudgements>();

  function remember(prompt: unknown, judgements: StepJudgements): void {
    if (!isObject(prompt)) return;
    byPrompt.set(prompt, judgements);
    const length = arrayLength(prompt);
    const newest = length === undefined || length === 0 ? undefined : safeRead(prompt, String(length - 1));
    if (isObject(newest)) byPrompt.set(newest, judgements);
  }

  /** The judgements of the step whose prompt this is: by the array, else by its newest message `prepareStep` saw. */
  function judgementsOf(prompt: unknown): StepJudgements | undefined {
    // A WeakMap answers `undefined` for a key it cannot hold: anything but an object is no prompt it knows.
    const known = byPrompt.get(prompt as object);
    if (known !== undefined) return known;
    // The SDK appends a few messages after the newest one `prepareStep` saw: the newest MAX_ARRAY_ITEMS are searched,
    // newest first.
    const length = arrayLength(prompt) ?? 0;
    const oldest = Math.max(length - MAX_ARRAY_ITEMS, 0);
    for (let index = length - 1; index >= oldest; index--) {
      const found = byPrompt.get(safeRead(prompt, String(index)) as object);
      if (found === undefined) continue;
      // The next call of the same response finds it at once.
      byPrompt.set(prompt as object, found);
      return found;
    }
    return undefined;
  }

  function prepareStep<Message>(input: AiSdkPrepareStepInput<Step, Message>): { messages: (Message | AiSdkNudgeMessage)[] } | undefined {
    const steps = safeRead(input, 'steps');
    const messages = safeRead(input, 'messages');
    const replay = replayer.replay(steps);
    if (replay === undefined) return undefined;
    const judgements: StepJudgements = { replay, screen: new ResponseScreen() };
    remember(messages, judgements);
    const last = replay.verdicts.at(-1);
    const content = loopMessage(last);
    if (!nudge || content === undefined || !Array.isArray(messages)) return undefined;
    onWarning?.(loopWarnings(last), steps as readonly Step[]);
    const next = [...(messages as Message[]), { role: 'user', content } as const];
    remember(next, judgements);
    return { messages: next };
  }

  function toolApproval(input: { readonly toolCall: AiSdkApprovalToolCall; readonly messages: readonly unknown[] }): { readonly type: 'denied'; readonly reason: string } | undefined {
    const judgements = judgementsOf(safeRead(input, 'messages'));
    if (judgements === undefined || judgements.replay.broken) return undefined;
    const toolCall = safeRead(input, 'toolCall');
    // A name that is not a string is passed on as it is, never converted (a conversion can throw): the guard ignores it.
    const call: GuardToolCall = { name: safeRead(toolCall, 'toolName') as string, args: safeRead(toolCall, 'input') };
    // No id: the screen only judges here, and never matches its calls to a step (stopWhen replays the SDK's own steps).
    const verdict = judgements.screen.judge(judgements.replay.guard, call, undefined, toolCall, (refusal) =>
      onBlock?.(refusal, toolCall as AiSdkApprovalToolCall),
    );
    return verdict.block ? { type: 'denied', reason: verdict.message } : undefined;
  }

  const settings: Mutable<GuardAgentSettings<Step>> = {};
  if (options?.stop !== false) settings.stopWhen = toStopWhenFrom(replayer, options?.onStop);
  if (nudge || block) settings.prepareStep = prepareStep;
  if (block) settings.toolApproval = toolApproval;
  return settings;
}
