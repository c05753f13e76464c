/**
 * The LangChain agents (`langchain` 1.x `createAgent`, tested with 1.5.14) adapter, published as the subpath
 * `@osama.ansar/agent-loopguard/langchain`. It only translates LangChain's message shapes and calls the guard;
 * `langchain` itself is never imported, so it is not a dependency of this package. The one runtime value it needs,
 * LangChain's `ToolMessage` class, is passed in: `wrapToolCall` must answer a refused call with a real `ToolMessage`
 * (langchain rejects anything else), and taking the class from the caller keeps the instance from the caller's own copy.
 */
import { loopMessage, loopWarnings } from '../guard/verdict.js';
import type { Mutable } from '../utils/read.js';
import { safeArray, safeRead } from '../utils/read.js';
import type { Guard, GuardOptions, GuardStep, GuardToolCall, GuardUsage, LoopWarning, StopVerdict, Verdict } from '../types.js';
import type { CallRefusal } from '../types.js';
import { arrayLength, guardFactory } from './step-replayer.js';
import { Turn } from './turn.js';

export type { CallRefusal } from '../types.js';

/** A message of the agent's `state.messages` (a `BaseMessage`), as far as the guard reads it. */
export interface LangChainMessageLike {
  /** `'human'`, `'ai'`, `'tool'`, `'system'`... */
  readonly type?: string | undefined;
  readonly id?: string | undefined;
  readonly content?: unknown;
  /** An AI message's tool calls. */
  readonly tool_calls?: readonly LangChainToolCallLike[] | undefined;
  /** An AI message's token counts. */
  readonly usage_metadata?: { readonly input_tokens?: number; readonly output_tokens?: number; readonly total_tokens?: number } | undefined;
  /** An AI message's provider data: `finish_reason` (OpenAI) or `stop_reason` (Anthropic) are read. */
  readonly response_metadata?: unknown;
  /** A tool message's call. */
  readonly tool_call_id?: string | undefined;
  /** A tool message's outcome. */
  readonly status?: string | undefined;
}

/** A tool call the model asked for (`ToolCall`). */
export interface LangChainToolCallLike {
  readonly id?: string | undefined;
  readonly name?: string | undefined;
  readonly args?: unknown;
}

/** The agent's state, as far as the guard reads it: its messages. */
export interface LangChainStateLike {
  readonly messages?: readonly unknown[] | undefined;
}

/** What `wrapToolCall` is given (`ToolCallRequest`), as far as the guard reads it. */
export interface LangChainToolCallRequestLike {
  readonly toolCall?: LangChainToolCallLike | undefined;
  readonly state?: LangChainStateLike | undefined;
}

/** The fields the guard gives LangChain's `ToolMessage` for a refused call (a subset of `ToolMessageFields`). */
export interface LangChainToolMessageFields {
  /** Why the call was not run, and what to do instead: what the model reads as the call's result. */
  readonly content: string;
  readonly tool_call_id: string;
  /** The tool's name. */
  readonly name: string;
  readonly status: 'error';
  /** Marks the message as a refusal, so a replay records the call as refused rather than as run. */
  readonly id: string;
}

/** LangChain's `ToolMessage` class (from `langchain` or `@langchain/core/messages`), or anything constructed the same way. */
export type LangChainToolMessageClass<Message> = new (fields: LangChainToolMessageFields) => Message;

/** The message `beforeModel` adds for the model; LangChain turns it into a `HumanMessage` with this id. */
export interface LangChainNudgeMessage {
  readonly role: 'user';
  readonly content: string;
  /** Marks the message as the guard's, so it never counts as a new request from the user. */
  readonly id: string;
}

/**
 * What the middleware's `beforeModel` answers: a warning for the model, the end of the run, or nothing. The warning is a
 * {@link LangChainNudgeMessage}, a plain object, which LangChain turns into a `HumanMessage` as it does every
 * message-like object in a state update; `Message` is the message type the state's declarations ask for (`BaseMessage`),
 * inferred where the hook is passed to LangChain.
 */
export type LangChainBeforeModelUpdate<Message = LangChainNudgeMessage> = { readonly messages: Message[] } | { readonly jumpTo: 'end' } | undefined;

/** Options of {@link loopGuardMiddleware}. */
export interface LoopGuardMiddlewareOptions<Message> {
  /**
   * LangChain's `ToolMessage` class (`import { ToolMessage } from 'langchain'`), to answer a refused call: `wrapToolCall`
   * must return a real `ToolMessage`, and this package does not depend on `langchain` to make one. Required.
   */
  readonly ToolMessage: LangChainToolMessageClass<Message>;
  /**
   * Called with the stop verdict when `beforeModel` ends the run, before the agent returns. A run resumed from a
   * checkpoint at that point is stopped, and this called, again.
   * @default undefined
   */
  readonly onStop?: ((verdict: StopVerdict, state: LangChainStateLike) => void) | undefined;
  /** Called with the loop warnings `beforeModel` passes on to the model, before the model call. @default undefined */
  readonly onWarning?: ((warnings: readonly LoopWarning[], state: LangChainStateLike) => void) | undefined;
  /** Called when `wrapToolCall` refuses a call, with the refusal and the call. @default undefined */
  readonly onBlock?: ((refusal: CallRefusal, toolCall: LangChainToolCallLike, state: LangChainStateLike) => void) | undefined;
  /** Tell the model of a loop that is forming (a message before its next call); `false` to stay silent. @default true */
  readonly nudge?: boolean | undefined;
}

/** The middleware {@link loopGuardMiddleware} returns: a LangChain `AgentMiddleware`, plus two ways to read a run's state. */
export interface LangChainLoopGuardMiddleware<Message> {
  readonly name: 'agent-loopguard';
  /**
   * Before each model call: replays the run's messages and, on a stop verdict, ends the run (`jumpTo: 'end'`, declared
   * in `canJumpTo`); when a loop is forming, adds a message with the warnings for the model.
   */
  readonly beforeModel: {
    readonly canJumpTo: 'end'[];
    readonly hook: <StateMessage = LangChainNudgeMessage>(state: LangChainStateLike) => LangChainBeforeModelUpdate<StateMessage>;
  };
  /**
   * Around each tool call: refuses a call that would complete a repeat or a cycle, answering with a `ToolMessage`
   * (status `error`) that says why, without calling `handler`, so the tool never runs. Every other call goes on to
   * `handler` untouched.
   */
  readonly wrapToolCall: <Request extends LangChainToolCallRequestLike, Result>(request: Request, handler: (request: Request) => Result) => Result | Message;
  /**
   * The stop verdict of a state the guard stopped (what `invoke()` resolved with, or a checkpoint's values), found by
   * replaying its messages: the verdict `beforeModel` gives that state. `undefined` when it goes on, and when the
   * state ends with the model's own answer.
   * @param state - the agent's state (or its `messages`)
   */
  verdictOf(state: unknown): StopVerdict | undefined;
  /**
   * A new guard that has seen the current run of a state (for `summary()` or `snapshot()`); changing it changes nothing
   * in the agent.
   * @param state - the agent's state (or its `messages`)
   */
  guardOf(state: unknown): Guard;
}

/** The step of one AI message: the guard's view of it, and the objects it was read from (to know it again). */
interface StepSource {
  readonly step: GuardStep;
  /** The AI message and, per tool call, the tool message that answered it (`undefined` when none has yet). */
  readonly sources: readonly unknown[];
  /** The ids of its tool calls, in order. */
  readonly ids: readonly unknown[];
}

/** A replay: the guard after the steps of `sources`, and its verdict for each of them. */
interface Replay {
  readonly guard: Guard;
  readonly sources: (readonly unknown[])[];
  readonly verdicts: Verdict[];
  /** A check threw half-way through a step, so the guard no longer matches `sources`. */
  broken: boolean;
}

const NAME = 'agent-loopguard';
/** The id prefix of the warnings the guard adds: they are not the user's. */
const WARNING_ID = 'agent-loopguard:warning:';
/** The id prefix of the tool messages that answer a refused call: the call never ran. */
const REFUSAL_ID = 'agent-loopguard:refusal:';
/**
 * Most messages read back from the end of `state.messages` to find where the run began. A run never comes near it; the
 * cap keeps a hostile length (a sparse array of 2^32 - 1 slots) from costing unbounded time. Older messages of a longer
 * run are not seen.
 */
export const MAX_RUN_MESSAGES = 200_000;

/**
 * Middleware for LangChain's `createAgent({ middleware: [...] })`: `wrapToolCall` refuses the call that would complete
 * a loop (the tool never runs; the model reads why, as the call's result), `beforeModel` tells the model of a loop that
 * is forming (a message before its next call) and ends the run on a stop verdict (`jumpTo: 'end'`). A model that asks
 * again for a refused call is stopped. The verdict reaches the caller through `onStop` and `verdictOf(result)`.
 *
 * The middleware keeps no state of its own: every hook replays the run from the agent's own `state.messages`, so
 * checkpoints, resumed threads, time travel and concurrent runs never mix guard state, and one middleware serves every
 * agent and thread. The run is what follows the latest user message: a new user message on a thread starts a new run,
 * with a fresh guard. Replays are linear: the replay of each run is kept while its messages are the same objects, and
 * only new steps are checked.
 *
 * The messages carry no timing, so `budget.maxDurationMs` never fires (use the agent's `signal`), and no prices, so
 * neither does `maxCostUsd`; token budgets read each AI message's `usage_metadata`.
 * @param optionsOrFactory - `GuardOptions` (the clock is frozen: a replay has no wall-clock time), or a function
 *   returning a new guard (reset before each replay from scratch). @default {} (the defaults)
 * @param options - `ToolMessage` (required), callbacks, and `nudge`
 * @returns the middleware, with `verdictOf` and `guardOf`
 * @throws TypeError from `createGuard` when the options are invalid, and when `ToolMessage` is not a class
 */
export function loopGuardMiddleware<Message>(
  optionsOrFactory: GuardOptions | (() => Guard) | undefined,
  options: LoopGuardMiddlewareOptions<Message>,
): LangChainLoopGuardMiddleware<Message> {
  const newGuard = guardFactory(optionsOrFactory, undefined, 'loopGuardMiddleware');
  const given: unknown = safeRead(options, 'ToolMessage');
  if (typeof given !== 'function') {
    throw new TypeError(
      "agent-loopguard: loopGuardMiddleware needs options.ToolMessage, LangChain's ToolMessage class (import { ToolMessage } from 'langchain'), to answer the calls it refuses.",
    );
  }
  const ToolMessage = given as LangChainToolMessageClass<Message>;
  const { onStop, onWarning, onBlock } = options;
  const nudge = options.nudge !== false;
  // The replay of each run, by the run's first AI message.
  const replays = new WeakMap<object, Replay>();

  /** The guard after the first `count` steps, and its verdicts: the kept replay of the run when it still fits. */
  function replay(steps: readonly StepSource[], count: number): Replay {
    // An AI message is an object: readSteps read its type.
    const key = steps[0]?.sources[0] as object | undefined;
    const kept = key === undefined ? undefined : replays.get(key);
    let current: Replay;
    if (kept !== undefined && !kept.broken && kept.sources.length <= count && startsWith(steps, kept.sources)) current = kept;
    else {
      current = { guard: newGuard(), sources: [], verdicts: [], broken: false };
      // A replay longer than asked for belongs to a later state of the run (verdictOf on an old one): keep it.
      if (key !== undefined && (kept === undefined || kept.broken || kept.sources.length <= count)) replays.set(key, current);
    }
    try {
      for (const source of steps.slice(current.sources.length, count)) {
        current.verdicts.push(current.guard.check(source.step));
        current.sources.push(source.sources);
      }
    } catch (error) {
      // A throwing custom rule can leave the guard half-way through a step: never reuse it.
      current.broken = true;
      throw error;
    }
    return current;
  }

  function beforeModel<StateMessage = LangChainNudgeMessage>(state: LangChainStateLike): LangChainBeforeModelUpdate<StateMessage> {
    const run = readRun(messagesOf(state));
    const steps = readSteps(run);
    if (steps.length === 0) return undefined;
    const verdict = replay(steps, steps.length).verdicts.at(-1);
    if (verdict?.stop === true) {
      onStop?.(verdict, state);
      return { jumpTo: 'end' };
    }
    const content = loopMessage(verdict);
    const last = run[run.length - 1];
    // Said once per step: a beforeModel that runs again on the same state (a retried node) adds nothing.
    if (!nudge || content === undefined || hasId(last, WARNING_ID)) return undefined;
    onWarning?.(loopWarnings(verdict), state);
    const lastId = safeRead(last, 'id');
    // The id of the message it follows, so it is unique in the thread and the same if the node runs again.
    const warning: LangChainNudgeMessage = { role: 'user', content, id: `${WARNING_ID}${typeof lastId === 'string' ? lastId : String(run.length)}` };
    // LangChain's declarations ask for a BaseMessage; at run time its reducer takes the plain message and makes one.
    return { messages: [warning as StateMessage] };
  }

  function wrapToolCall<Request extends LangChainToolCallRequestLike, Result>(request: Request, handler: (request: Request) => Result): Result | Message {
    const toolCall: unknown = safeRead(request, 'toolCall');
    const id = safeRead(toolCall, 'id');
    const name = safeRead(toolCall, 'name');
    // Without an id the answer could not be matched to the call, nor the call to its step.
    if (typeof id !== 'string' || typeof name !== 'string') return handler(request);
    const state = safeRead(request, 'state') as LangChainStateLike;
    const steps = readSteps(readRun(messagesOf(state)));
    // The call's own step (the model's latest message): judged after the steps before it, and after the calls of the
    // step that come before it and would be allowed, whatever order the calls run in.
    let ownIndex = -1;
    steps.forEach((step, index) => {
      if (step.ids.includes(id)) ownIndex = index;
    });
    const own = steps[ownIndex];
    const { guard } = replay(steps, own === undefined ? steps.length : ownIndex);
    const turn = new Turn();
    for (const earlier of own?.step.toolCalls?.slice(0, own.ids.indexOf(id)) ?? []) turn.judge(guard, earlier, undefined);
    const verdict = turn.judge(guard, { name, args: safeRead(toolCall, 'args') }, undefined, (refusal) => {
      onBlock?.(refusal, toolCall as LangChainToolCallLike, state);
    });
    if (!verdict.block) return handler(request);
    return new ToolMessage({ content: verdict.message, tool_call_id: id, name, status: 'error', id: `${REFUSAL_ID}${id}` });
  }

  function verdictOf(state: unknown): StopVerdict | undefined {
    const run = readRun(messagesOf(state));
    let last = run.length - 1;
    while (last >= 0 && hasId(run[last], WARNING_ID)) last--;
    // The guard stops before a model call, so a state it stopped ends with the results of tool calls.
    if (safeRead(run[last], 'type') !== 'tool') return undefined;
    const steps = readSteps(run);
    const verdict = replay(steps, steps.length).verdicts[steps.length - 1];
    return verdict?.stop === true ? verdict : undefined;
  }

  function guardOf(state: unknown): Guard {
    const guard = newGuard();
    for (const { step } of readSteps(readRun(messagesOf(state)))) guard.check(step);
    return guard;
  }

  return {
    name: NAME,
    beforeModel: { canJumpTo: ['end'], hook: beforeModel },
    wrapToolCall,
    verdictOf,
    guardOf,
  };
}

/** Whether a message's id starts with `prefix`: a message the guard wrote. */
function hasId(message: unknown, prefix: string): boolean {
  const id = safeRead(message, 'id');
  return typeof id === 'string' && id.startsWith(prefix);
}

/** A state's messages; a messages array is taken as it is. */
function messagesOf(state: unknown): unknown {
  return arrayLength(state) === undefined ? safeRead(state, 'messages') : state;
}

/**
 * The messages of the current run, oldest first: those after the latest user message (the guard's own warnings do not
 * count as one), at most {@link MAX_RUN_MESSAGES}.
 */
function readRun(messages: unknown): unknown[] {
  const claimed = arrayLength(messages) ?? 0;
  // An array holds at most 2^32 - 1 items, whatever a proxy claims (Infinity, say).
  const length = claimed > 0 ? Math.floor(Math.min(claimed, 2 ** 32 - 1)) : 0;
  const run: unknown[] = [];
  for (let index = length - 1; index >= Math.max(0, length - MAX_RUN_MESSAGES); index--) {
    // Each read once: the array may be a proxy whose items change or throw when read.
    const message = safeRead(messages, String(index));
    if (safeRead(message, 'type') === 'human' && !hasId(message, WARNING_ID)) break;
    run.push(message);
  }
  return run.reverse();
}

/** One step per AI message of the run, with the tool messages that answered its calls. */
function readSteps(run: readonly unknown[]): StepSource[] {
  const answers = new Map<unknown, unknown>();
  for (const message of run) {
    const id = safeRead(message, 'tool_call_id');
    if (safeRead(message, 'type') === 'tool' && !answers.has(id)) answers.set(id, message);
  }
  const steps: StepSource[] = [];
  for (const message of run) {
    if (safeRead(message, 'type') !== 'ai') continue;
    const toolCalls: GuardToolCall[] = [];
    const sources: unknown[] = [message];
    const ids: unknown[] = [];
    for (const call of safeArray(safeRead(message, 'tool_calls'))) {
      const id = safeRead(call, 'id');
      // An id that is not a string matches no answer, so the call is recorded without one.
      const answer = typeof id === 'string' ? answers.get(id) : undefined;
      // A name that is not a string is passed on as it is: the guard ignores such a call.
      toolCalls.push(answered({ name: safeRead(call, 'name') as string, args: safeRead(call, 'args') }, answer));
      sources.push(answer);
      ids.push(id);
    }
    steps.push({ step: toStep(message, toolCalls), sources, ids });
  }
  return steps;
}

/** A call with what its tool message says: refused by the guard, failed, or its result. */
function answered(call: GuardToolCall, answer: unknown): GuardToolCall {
  if (answer === undefined) return call;
  // A refused call never ran: its tool message is the refusal, not the tool's answer.
  if (hasId(answer, REFUSAL_ID)) return { ...call, blocked: true };
  const content = safeRead(answer, 'content');
  return safeRead(answer, 'status') === 'error' ? { ...call, error: content } : { ...call, result: content };
}

/** The step of an AI message: its calls, text, finish reason and tokens. */
function toStep(message: unknown, toolCalls: readonly GuardToolCall[]): GuardStep {
  const step: Mutable<GuardStep> = { toolCalls };
  const text = textOf(safeRead(message, 'content'));
  if (text !== '') step.text = text;
  const metadata = safeRead(message, 'response_metadata');
  const reason = safeRead(metadata, 'finish_reason') ?? safeRead(metadata, 'stop_reason');
  // The agent goes on after a message with tool calls whatever the provider called its finish; a message without any
  // keeps the provider's reason, if it gave one.
  if (toolCalls.length > 0) step.finishReason = 'tool-calls';
  else if (typeof reason === 'string') step.finishReason = reason;
  const usage = safeRead(message, 'usage_metadata');
  const tokens: Mutable<GuardUsage> = {};
  const input = safeRead(usage, 'input_tokens');
  const output = safeRead(usage, 'output_tokens');
  const total = safeRead(usage, 'total_tokens');
  if (typeof input === 'number') tokens.inputTokens = input;
  if (typeof output === 'number') tokens.outputTokens = output;
  if (typeof total === 'number') tokens.totalTokens = total;
  if (Object.keys(tokens).length > 0) step.usage = tokens;
  return step;
}

/** A message's text: its content when that is a string, else the text of its text blocks. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  let text = '';
  for (const block of safeArray(content)) {
    const part = safeRead(block, 'text');
    if (safeRead(block, 'type') === 'text' && typeof part === 'string') text += part;
  }
  return text;
}

/** Whether the run's steps start with the steps a replay saw, object for object. */
function startsWith(steps: readonly StepSource[], seen: readonly (readonly unknown[])[]): boolean {
  return seen.every((sources, index) => {
    const now = steps[index]?.sources;
    return now?.length === sources.length && now.every((source, at) => source === sources[at]);
  });
}
