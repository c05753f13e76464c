/**
 * The LangChain agents (`langchain` 1.x `createAgent`, tested with 1.5.14) adapter, published as the subpath
 * `@osama.ansar/agent-loopguard/langchain`. It only translates LangChain's message shapes and calls the guard;
 * `langchain` itself is never imported, so it is not a dependency of this package. The one runtime value it needs,
 * LangChain's `ToolMessage` class, is passed in: `wrapToolCall` must answer a refused call with a real `ToolMessage`
 * (langchain rejects anything else), and taking the class from the caller keeps the instance from the caller's own copy.
 */
import { loopMessage, loopWarnings } from '../guard/verdict.js';
import type { Mutable } from '../utils/read.js';
import { arrayLength, isObject, safeArray, safeRead } from '../utils/read.js';
import type { Guard, GuardOptions, GuardStep, GuardToolCall, GuardUsage, LoopWarning, StopVerdict, Verdict } from '../types.js';
import type { CallRefusal } from '../types.js';
import { guardFactory } from './step-replayer.js';
import { CallQueue, KnownResponse, type ResponseCall } from './turn.js';

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

/** The guard of a run after the messages read so far. */
interface Replay {
  readonly guard: Guard;
  /** The index in `state.messages` just past the last message read that is not one of the guard's warnings. */
  end: number;
  /** The verdict on the latest step, `undefined` before the first. */
  verdict: Verdict | undefined;
  /** A check threw half-way through a step, so the guard no longer matches the messages read. */
  broken: boolean;
}

/** A state's run as far as it is new: the replay that read the messages before `from`, and the messages after. */
interface Located {
  /** `undefined` when no replay read on to `from`: the run is read from its start. */
  readonly replay: Replay | undefined;
  /** The index in `state.messages` of the first message of `tail`. */
  readonly from: number;
  readonly tail: readonly unknown[];
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
 * with a fresh guard. A hook costs what the messages added since the last hook cost, whatever the run's length: each
 * run's replay is kept by the last message it read, found again by reading back from the end of the state to it, and
 * only new steps are checked (a state that does not continue it, such as a checkpoint restored from storage or an
 * older state, is replayed from the start of its run once). The calls of one AI message are judged together, in
 * order, when the first of them reaches `wrapToolCall`, and each is found again by LangChain's object for it, or by
 * its id and place in the message, so reused or missing call ids never let a refused call run.
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
  // Each run's replay, by the last message it read: a hook finds it by reading back from the end of the state to that
  // message, so its cost is that of the messages added since, whatever the run's length.
  const replays = new WeakMap<object, Replay>();
  // The calls of each AI message, judged together when the first of them is asked about.
  const responses = new WeakMap<object, KnownResponse>();

  /**
   * A state's run as far as it is new: read back from the end of the state to the replay that read up to there, else
   * to the start of the run (the latest user message), at most {@link MAX_RUN_MESSAGES} messages. `reuse: false` reads
   * the whole run.
   */
  function locate(messages: unknown, reuse = true): Located {
    const length = arrayLength(messages) ?? 0;
    const tail: unknown[] = [];
    let index = length - 1;
    for (; index >= Math.max(0, length - MAX_RUN_MESSAGES); index--) {
      // Each read once: the array may be a proxy whose items change or throw when read.
      const message = safeRead(messages, String(index));
      const kept = reuse && isObject(message) ? replays.get(message) : undefined;
      // Only where it stopped reading: a replay that read on in another state (a fork, an older checkpoint) does not fit.
      if (kept !== undefined && !kept.broken && kept.end === index + 1) return { replay: kept, from: index + 1, tail: tail.reverse() };
      if (safeRead(message, 'type') === 'human' && !hasId(message, WARNING_ID)) break;
      tail.push(message);
    }
    return { replay: undefined, from: index + 1, tail: tail.reverse() };
  }

  /**
   * Checks the steps of the first `count` messages of the tail, and keeps the replay by the last of them that is not one
   * of the guard's warnings: every hook reads the warnings at the end of a state again, so `verdictOf` always finds the
   * message before them.
   */
  function advance(located: Located, count: number): Replay {
    const { from, tail } = located;
    // A run read from its start: a new guard.
    const replay = located.replay ?? { guard: newGuard(), end: from, verdict: undefined, broken: false };
    try {
      for (const step of readSteps(tail.slice(0, count))) replay.verdict = replay.guard.check(step);
    } catch (error) {
      // A throwing custom rule can leave the guard half-way through a step: never reuse it.
      replay.broken = true;
      throw error;
    }
    const last = lastNotWarning(tail, count);
    // Moved on even when the message cannot be a key (not an object), so the message it was kept by no longer fits.
    replay.end = from + last + 1;
    const message = tail[last];
    if (isObject(message)) replays.set(message, replay);
    return replay;
  }

  function beforeModel<StateMessage = LangChainNudgeMessage>(state: LangChainStateLike): LangChainBeforeModelUpdate<StateMessage> {
    const messages = messagesOf(state);
    const located = locate(messages);
    const { verdict } = advance(located, located.tail.length);
    // No step in the run yet.
    if (verdict === undefined) return undefined;
    if (verdict.stop) {
      onStop?.(verdict, state);
      return { jumpTo: 'end' };
    }
    const content = loopMessage(verdict);
    // The last message of the state: the tail's, or the one the replay read last.
    const last = located.tail.at(-1) ?? safeRead(messages, String(located.from - 1));
    // Said once per step: a beforeModel that runs again on the same state (a retried node) adds nothing.
    if (!nudge || content === undefined || hasId(last, WARNING_ID)) return undefined;
    onWarning?.(loopWarnings(verdict), state);
    const lastId = safeRead(last, 'id');
    // The id of the message it follows, so it is unique in the thread and the same if the node runs again.
    const warning: LangChainNudgeMessage = { role: 'user', content, id: `${WARNING_ID}${typeof lastId === 'string' ? lastId : String(located.from + located.tail.length)}` };
    // LangChain's declarations ask for a BaseMessage; at run time its reducer takes the plain message and makes one.
    return { messages: [warning as StateMessage] };
  }

  function wrapToolCall<Request extends LangChainToolCallRequestLike, Result>(request: Request, handler: (request: Request) => Result): Result | Message {
    const toolCall: unknown = safeRead(request, 'toolCall');
    const id = safeRead(toolCall, 'id');
    const name = safeRead(toolCall, 'name');
    // The guard ignores a call without a name: so does the middleware.
    if (typeof name !== 'string') return handler(request);
    const state = safeRead(request, 'state') as LangChainStateLike;
    const located = locate(messagesOf(state));
    // The call's own step is the model's latest message: judged after the steps before it, with the calls before it
    // in that message, whatever order the calls run in.
    let own = located.tail.length - 1;
    while (own >= 0 && safeRead(located.tail[own], 'type') !== 'ai') own--;
    const message = located.tail[own];
    let response = isObject(message) ? responses.get(message) : undefined;
    if (isObject(message) && response === undefined) {
      response = new KnownResponse(advance(located, own).guard, callsOf(message));
      responses.set(message, response);
    }
    const judged = response?.verdictOf(toolCall, id, name);
    if (judged === undefined) {
      // A call that is not one of the latest AI message's (a host that sends calls of its own): judged alone, after
      // every step of the run, on a guard of its own, so the run's replay is left as it was.
      const verdict = guardOf(state).screen().judge({ name, args: safeRead(toolCall, 'args') });
      return verdict.block ? refuse(verdict, toolCall, id, name, state, `${String(located.from + located.tail.length)}:call`) : handler(request);
    }
    if (!judged.verdict.block) return handler(request);
    const messageId = safeRead(message, 'id');
    const key = `${typeof messageId === 'string' ? messageId : String(located.from + own)}:${String(judged.position)}`;
    return refuse(judged.verdict, toolCall, id, name, state, key, judged.first);
  }

  /**
   * The `ToolMessage` that answers a refused call. Its id is the AI message's and the call's place in it: unique in the
   * thread even when the provider reuses call ids, so LangChain's reducer never takes it for another message.
   */
  function refuse(refusal: CallRefusal, toolCall: unknown, id: unknown, name: string, state: LangChainStateLike, key: string, first = true): Message {
    if (first) onBlock?.(refusal, toolCall as LangChainToolCallLike, state);
    return new ToolMessage({ content: refusal.message, tool_call_id: typeof id === 'string' ? id : '', name, status: 'error', id: `${REFUSAL_ID}${key}` });
  }

  function verdictOf(state: unknown): StopVerdict | undefined {
    const messages = messagesOf(state);
    const located = locate(messages);
    const run = located.tail;
    const last = lastNotWarning(run, run.length);
    // The guard stops before a model call, so a state it stopped ends with the results of tool calls (and its warnings).
    const lastMessage = last >= 0 ? run[last] : safeRead(messages, String(located.from - 1));
    if (safeRead(lastMessage, 'type') !== 'tool') return undefined;
    const { verdict } = advance(located, run.length);
    return verdict?.stop === true ? verdict : undefined;
  }

  function guardOf(state: unknown): Guard {
    const guard = newGuard();
    for (const step of readSteps(locate(messagesOf(state), false).tail)) guard.check(step);
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

/** The index of the last of the first `count` messages that is not one of the guard's warnings; -1 when there is none. */
function lastNotWarning(messages: readonly unknown[], count: number): number {
  let index = count - 1;
  while (hasId(messages[index], WARNING_ID)) index--;
  return index;
}

/** A state's messages; a messages array is taken as it is. */
function messagesOf(state: unknown): unknown {
  return arrayLength(state) === undefined ? safeRead(state, 'messages') : state;
}

/** The tool calls of an AI message, as the guard judges them, with their ids and LangChain's objects for them. */
function callsOf(message: unknown): ResponseCall[] {
  // A name that is not a string is passed on as it is: the guard ignores such a call.
  return safeArray(safeRead(message, 'tool_calls')).map((call) => ({ call: { name: safeRead(call, 'name') as string, args: safeRead(call, 'args') }, id: safeRead(call, 'id'), source: call }));
}

/**
 * One step per AI message of a run's messages, with the tool messages after it that answer its calls: by call id, and
 * in order among calls that share one (or have none), as LangChain appends them.
 */
function readSteps(run: readonly unknown[]): GuardStep[] {
  const steps: GuardStep[] = [];
  for (const [index, message] of run.entries()) {
    if (safeRead(message, 'type') !== 'ai') continue;
    const answers = new CallQueue<unknown>();
    for (let next = index + 1; next < run.length && safeRead(run[next], 'type') !== 'ai'; next++) {
      if (safeRead(run[next], 'type') === 'tool') answers.push(idKey(safeRead(run[next], 'tool_call_id')), undefined, run[next]);
    }
    const toolCalls = callsOf(message).map(({ call, id }) => answered(call, answers.take(idKey(id), undefined)));
    steps.push(toStep(message, toolCalls));
  }
  return steps;
}

/** A call id as answers are matched by: an empty one is none (the refusal of a call without an id has ''). */
function idKey(id: unknown): unknown {
  return id === '' ? undefined : id;
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
