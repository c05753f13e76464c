/**
 * The Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`, tested with 0.3.332) adapter, published as the subpath
 * `@osama.ansar/agent-loopguard/claude-agent-sdk`. It only translates the SDK's hook shapes and calls the guard; the
 * SDK itself is never imported, so it is not a dependency of this package.
 */
import { loopMessage, loopWarnings } from '../guard/verdict.js';
import { safeArray, safeRead } from '../utils/read.js';
import type { CallRefusal, Guard, GuardOptions, GuardToolCall, LoopWarning, StopVerdict } from '../types.js';
import { guardMaker, stopLine } from './per-run-guard.js';
import { CallQueue, ResponseScreen } from './turn.js';

export type { CallRefusal } from '../types.js';

/** Which guard a hook belongs to: the session, and the subagent when the hook fires inside one. */
export interface ClaudeSessionKey {
  readonly sessionId: string;
  /** The subagent's `agent_id`; absent on the main thread. */
  readonly agentId?: string | undefined;
}

/** A hook's input, as far as the guard reads it (`HookInput`: `PreToolUseHookInput`, `PostToolBatchHookInput`...). */
export interface ClaudeHookInputLike {
  readonly hook_event_name?: string | undefined;
  readonly session_id?: string | undefined;
  readonly agent_id?: string | undefined;
  readonly tool_name?: string | undefined;
  readonly tool_input?: unknown;
  readonly tool_use_id?: string | undefined;
  /** `PostToolUseFailure` only. */
  readonly error?: string | undefined;
  /** `PostToolBatch` only: every call of the batch, refused ones included. */
  readonly tool_calls?: readonly { readonly tool_name?: string; readonly tool_input?: unknown; readonly tool_use_id?: string | undefined; readonly tool_response?: unknown }[] | undefined;
}

/** What the guard's hooks answer: a subset of the SDK's `SyncHookJSONOutput`. */
export type ClaudeHookOutput =
  | Readonly<Record<string, never>>
  | {
      readonly hookSpecificOutput: {
        readonly hookEventName: 'PreToolUse';
        readonly permissionDecision: 'deny';
        readonly permissionDecisionReason: string;
      };
    }
  | { readonly hookSpecificOutput: { readonly hookEventName: 'PostToolBatch'; readonly additionalContext: string } }
  | { readonly continue: false; readonly stopReason: string };

/** A hook callback (`HookCallback`). The guard's answer never waits for anything. */
export type ClaudeHookCallback = (input: ClaudeHookInputLike, toolUseID?: string) => Promise<ClaudeHookOutput>;

/** A hook matcher (`HookCallbackMatcher`) without a `matcher`: the guard watches every tool. */
export interface ClaudeHookMatcher {
  readonly hooks: ClaudeHookCallback[];
}

/** Options of {@link toClaudeHooks}. */
export interface ClaudeHooksOptions {
  /** Called with the stop verdict when the guard ends a session, before the SDK does. @default undefined */
  readonly onStop?: ((verdict: StopVerdict, session: ClaudeSessionKey) => void) | undefined;
  /** Called with the loop warnings passed on to the model as additional context. @default undefined */
  readonly onWarning?: ((warnings: readonly LoopWarning[], session: ClaudeSessionKey) => void) | undefined;
  /** Called when `PreToolUse` refuses a call, with the refusal and the hook's input. @default undefined */
  readonly onBlock?: ((refusal: CallRefusal, call: ClaudeHookInputLike, session: ClaudeSessionKey) => void) | undefined;
  /**
   * The `stopReason` of the stop (Claude Code shows it; the SDK's messages do not carry it).
   * @default `Stopped by agent-loopguard [CODE]: detail`
   */
  readonly stopReason?: ((verdict: StopVerdict) => string) | undefined;
}

/**
 * What {@link toClaudeHooks} returns: the `hooks` option of `query()`, plus three methods that are not enumerable, so
 * the SDK only ever sees the hook events.
 */
export interface ClaudeLoopGuardHooks {
  /** Judges each call before it runs, and denies (with the reason the model reads) one that would complete a loop. */
  readonly PreToolUse: ClaudeHookMatcher[];
  /** Notes the error of a call that failed, which `PostToolBatch` reports only as text. */
  readonly PostToolUseFailure: ClaudeHookMatcher[];
  /** Records the batch as a step; warns the model through `additionalContext`, or stops the session. */
  readonly PostToolBatch: ClaudeHookMatcher[];
  /**
   * The stop verdict of a session, or `undefined` if the guard did not stop it. The SDK reports a hook stop as a
   * `success` result with `terminal_reason: 'hook_stopped'`: look here to know why.
   * @param sessionId - the `session_id` of the SDK's messages
   */
  verdictFor(sessionId: string): StopVerdict | undefined;
  /** The guard of a session's main thread, or of one of its subagents (`agentId`); `undefined` before its first call. */
  guardFor(sessionId: string, agentId?: string): Guard | undefined;
  /** Drops what the guard keeps of a session (its guards and verdict); a later call in it starts a fresh guard. */
  forget(sessionId: string): void;
}

/** The guard state of one thread of a session. */
interface SessionRecord {
  readonly guard: Guard;
  readonly key: ClaudeSessionKey;
  /** The calls of the batch in progress `PreToolUse` judged, in the order it judged them. */
  turn: ResponseScreen;
  /** Errors of the batch in progress, in the order `PostToolUseFailure` reported them. */
  errors: CallQueue<unknown>;
}

const NO_OPINION: Readonly<Record<string, never>> = Object.freeze({});

/**
 * Hooks for the Claude Agent SDK's `query({ options: { hooks } })`: `PreToolUse` denies the call that would complete a
 * loop (the tool never runs; the model reads the reason), `PostToolBatch` records each batch of calls as a step, tells
 * the model of a loop that is forming (`additionalContext`) and stops the session on a stop verdict
 * (`continue: false`). A model that asks again for a refused call is stopped. `PostToolUseFailure` notes errors.
 *
 * Each session gets its own guard, and each subagent in it one more, keyed by the hooks' `session_id` (and
 * `agent_id`), so sessions sharing one hooks object never share state. The state lives as long as the hooks object:
 * make one per `query()`, or call `forget(sessionId)` when a session is over.
 *
 * Hooks see tool calls only: no text, no token usage, no finish reason. So `noProgress` judges batches by their
 * results alone, token and cost budgets and `finishReason` never fire (use the SDK's `maxTurns` and `maxBudgetUsd`),
 * and `maxDurationMs` counts wall-clock time from the session's first call.
 * @param optionsOrFactory - `GuardOptions`, or a function returning a new guard for a session or subagent.
 *   @default {} (the defaults)
 * @param options - callbacks and `stopReason`
 * @returns the `hooks` object, with `verdictFor`, `guardFor` and `forget`
 * @throws TypeError from `createGuard` when the options are invalid
 */
export function toClaudeHooks(
  optionsOrFactory?: GuardOptions | ((session: ClaudeSessionKey) => Guard),
  options?: ClaudeHooksOptions,
): ClaudeLoopGuardHooks {
  const newGuard = guardMaker(optionsOrFactory);
  const stopReason = options?.stopReason ?? stopLine;
  const sessions = new Map<string, Map<string | undefined, SessionRecord>>();
  const stops = new Map<string, StopVerdict>();

  function recordOf(input: ClaudeHookInputLike): SessionRecord {
    const session = safeRead(input, 'session_id');
    // The SDK always sends one; anything else is read as no session at all, never converted (a conversion can throw).
    const sessionId = typeof session === 'string' ? session : '';
    const agent = safeRead(input, 'agent_id');
    const agentId = typeof agent === 'string' ? agent : undefined;
    let threads = sessions.get(sessionId);
    if (threads === undefined) {
      threads = new Map<string | undefined, SessionRecord>();
      sessions.set(sessionId, threads);
    }
    let record = threads.get(agentId);
    if (record === undefined) {
      const key: ClaudeSessionKey = agentId === undefined ? { sessionId } : { sessionId, agentId };
      record = { guard: newGuard(key), key, turn: new ResponseScreen(), errors: new CallQueue() };
      threads.set(agentId, record);
    }
    return record;
  }

  const preToolUse: ClaudeHookCallback = (input) => {
    const record = recordOf(input);
    // A name that is not a string is passed on as it is: the guard ignores such a call.
    const call: GuardToolCall = { name: safeRead(input, 'tool_name') as string, args: safeRead(input, 'tool_input') };
    // Each PreToolUse is a call of its own: the input is a fresh object every time, and ids may repeat or be missing.
    const verdict = record.turn.judge(record.guard, call, safeRead(input, 'tool_use_id'), undefined, (refusal) => options?.onBlock?.(refusal, input, record.key));
    if (!verdict.block) return Promise.resolve(NO_OPINION);
    return Promise.resolve({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: verdict.message },
    });
  };

  const postToolUseFailure: ClaudeHookCallback = (input) => {
    recordOf(input).errors.push(safeRead(input, 'tool_use_id'), undefined, safeRead(input, 'error'));
    return Promise.resolve(NO_OPINION);
  };

  const postToolBatch: ClaudeHookCallback = (input) => {
    const record = recordOf(input);
    const toolCalls = safeArray(safeRead(input, 'tool_calls')).map((entry): GuardToolCall => {
      const id = safeRead(entry, 'tool_use_id');
      const name = safeRead(entry, 'tool_name') as string;
      const args = safeRead(entry, 'tool_input');
      const response = safeRead(entry, 'tool_response');
      // A failed call's `tool_response` is its error text: the failure noted for this call is the one that says it.
      const error = typeof response === 'string' || response === undefined ? record.errors.take(id, undefined) : undefined;
      return record.turn.recorded(id, error === undefined ? { name, args, result: response } : { name, args, error });
    });
    const verdict = record.guard.check({ toolCalls, finishReason: 'tool-calls' });
    record.turn = new ResponseScreen();
    record.errors = new CallQueue();
    if (verdict.stop) {
      if (!stops.has(record.key.sessionId)) stops.set(record.key.sessionId, verdict);
      options?.onStop?.(verdict, record.key);
      return Promise.resolve({ continue: false, stopReason: stopReason(verdict) });
    }
    const additionalContext = loopMessage(verdict);
    if (additionalContext === undefined) return Promise.resolve(NO_OPINION);
    options?.onWarning?.(loopWarnings(verdict), record.key);
    return Promise.resolve({ hookSpecificOutput: { hookEventName: 'PostToolBatch', additionalContext } });
  };

  const hooks = {
    PreToolUse: [{ hooks: [preToolUse] }],
    PostToolUseFailure: [{ hooks: [postToolUseFailure] }],
    PostToolBatch: [{ hooks: [postToolBatch] }],
  };
  const methods: Pick<ClaudeLoopGuardHooks, 'verdictFor' | 'guardFor' | 'forget'> = {
    verdictFor: (sessionId) => stops.get(sessionId),
    guardFor: (sessionId, agentId) => sessions.get(sessionId)?.get(agentId)?.guard,
    forget: (sessionId) => {
      sessions.delete(sessionId);
      stops.delete(sessionId);
    },
  };
  for (const [name, value] of Object.entries(methods)) Object.defineProperty(hooks, name, { value, enumerable: false });
  return hooks as ClaudeLoopGuardHooks;
}
