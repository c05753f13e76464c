import type { Mutable } from '../utils/read.js';
import { safeArray, safeRead } from '../utils/read.js';
import type { GuardStep, GuardToolCall, GuardUsage } from '../types.js';

/**
 * A tool call as the Vercel AI SDK reports it: `input` since v5, `args` before.
 * Structural, so the library never imports `ai`.
 */
export interface AiSdkToolCallLike {
  readonly toolCallId?: string | undefined;
  readonly toolName?: string | undefined;
  readonly input?: unknown;
  readonly args?: unknown;
  /** Set by the SDK on a call it could not parse or route; `error` then says why. */
  readonly invalid?: boolean | undefined;
  readonly error?: unknown;
}

/** A tool result as the Vercel AI SDK reports it: `output` since v5, `result` before. */
export interface AiSdkToolResultLike {
  readonly toolCallId?: string | undefined;
  readonly output?: unknown;
  readonly result?: unknown;
  /** A partial result streamed while the tool is still running; never the final answer. */
  readonly preliminary?: boolean | undefined;
}

/** One content part of an AI SDK step. Only `tool-error` and `tool-approval-response` parts are read. */
export interface AiSdkContentPartLike {
  readonly type: string;
  readonly toolCallId?: string | undefined;
  readonly error?: unknown;
  /** Of a `tool-approval-response`: whether the call was allowed to run. */
  readonly approved?: boolean | undefined;
  /** Of a `tool-approval-response`: the call it answers. */
  readonly toolCall?: { readonly toolCallId?: string | undefined } | undefined;
}

/** The token figures of an AI SDK step (`LanguageModelUsage`). */
export interface AiSdkUsageLike {
  readonly inputTokens?: number | undefined;
  readonly outputTokens?: number | undefined;
  readonly totalTokens?: number | undefined;
}

/**
 * The fields of an AI SDK step (`StepResult` in v5 to v7, a step of `steps` in v4) that a guard can use.
 * Every field is optional so hand-built steps and older SDK versions fit too.
 */
export interface AiSdkStepLike {
  readonly text?: string | undefined;
  readonly finishReason?: string | undefined;
  readonly toolCalls?: readonly AiSdkToolCallLike[] | undefined;
  readonly toolResults?: readonly AiSdkToolResultLike[] | undefined;
  /** Since v5 the only place where tool errors appear (as `tool-error` parts). */
  readonly content?: readonly AiSdkContentPartLike[] | undefined;
  readonly usage?: AiSdkUsageLike | undefined;
  readonly performance?: { readonly stepTimeMs?: number | undefined } | undefined;
  readonly response?: { readonly timestamp?: Date | undefined } | undefined;
}

/**
 * Works out what a step cost in US dollars. The AI SDK reports tokens but no prices, so `maxCostUsd` needs this.
 * @param usage - the step's `usage`, typed as the step types it (an empty object when the step has none, which the
 *   AI SDK's steps never do)
 * @param step - the whole step, for the model id or provider metadata
 * @returns the cost; anything not finite and non-negative is ignored by the guard
 */
export type AiSdkCostFunction<Step extends AiSdkStepLike = AiSdkStepLike> = (usage: NonNullable<Step['usage']>, step: Step) => number;

/** Options of {@link toGuardStep}. */
export interface ToGuardStepOptions<Step extends AiSdkStepLike = AiSdkStepLike> {
  /** Prices a step so `budget.maxCostUsd` can fire. @default undefined (no `costUsd` is reported) */
  readonly cost?: AiSdkCostFunction<Step> | undefined;
}

/**
 * Maps a Vercel AI SDK step onto a {@link GuardStep}.
 *
 * Every field is read explicitly because the SDK's steps keep most of them in getters (spreading a step loses them).
 * Results and `tool-error` parts are matched to their call by `toolCallId` and, among calls sharing one id (some
 * providers reuse one, or send none), by order; a call a tool approval refused is marked `blocked` (it never ran); `usage` keeps its three token figures;
 * `performance.stepTimeMs` becomes `durationMs`; `response.timestamp` becomes `timestamp`.
 * Unreadable or ill-typed fields are left out, never thrown on; numbers are passed on as they are and the guard
 * ignores the unusable ones. Errors thrown by `cost` propagate.
 * @param step - a step from `steps`, `onStepFinish` or a `stopWhen` condition
 * @param options - optional `cost` function
 * @returns the step in the guard's shape
 */
export function toGuardStep<Step extends AiSdkStepLike>(step: Step, options?: ToGuardStepOptions<Step>): GuardStep {
  const mapped: Mutable<GuardStep> = {};
  const toolCalls = readToolCalls(step);
  if (toolCalls !== undefined) mapped.toolCalls = toolCalls;
  const text = safeRead(step, 'text');
  if (typeof text === 'string') mapped.text = text;
  const finishReason = safeRead(step, 'finishReason');
  if (typeof finishReason === 'string') mapped.finishReason = finishReason;
  const usage = readUsage(step, options?.cost);
  if (usage !== undefined) mapped.usage = usage;
  const durationMs = safeRead(safeRead(step, 'performance'), 'stepTimeMs');
  if (typeof durationMs === 'number') mapped.durationMs = durationMs;
  const timestamp = readTimestamp(safeRead(safeRead(step, 'response'), 'timestamp'));
  if (timestamp !== undefined) mapped.timestamp = timestamp;
  return mapped;
}

function readToolCalls(step: unknown): GuardToolCall[] | undefined {
  const calls = safeArray(safeRead(step, 'toolCalls'));
  if (calls.length === 0) return undefined;
  // Results and errors per call id, in the order reported: a provider may reuse one id for several calls, or send none.
  const results = new Answers();
  for (const result of safeArray(safeRead(step, 'toolResults'))) {
    if (safeRead(result, 'preliminary') === true) continue;
    // v5+ names it `output`; v4 named it `result`.
    results.add(safeRead(result, 'toolCallId'), hasField(result, 'output') ? safeRead(result, 'output') : safeRead(result, 'result'));
  }
  const errors = new Answers();
  // Calls a tool approval refused (they never ran): by the SDK's object for the call where the part holds it, else by id.
  const deniedCalls = new Set<unknown>();
  const deniedIds = new Map<unknown, number>();
  const stepCalls = new Set(calls);
  for (const part of safeArray(safeRead(step, 'content'))) {
    const type = safeRead(part, 'type');
    if (type === 'tool-approval-response' && safeRead(part, 'approved') === false) {
      const call = safeRead(part, 'toolCall');
      if (stepCalls.has(call)) deniedCalls.add(call);
      else deniedIds.set(safeRead(call, 'toolCallId'), (deniedIds.get(safeRead(call, 'toolCallId')) ?? 0) + 1);
    }
    if (type === 'tool-error') errors.add(safeRead(part, 'toolCallId'), safeRead(part, 'error'));
  }
  const ids = calls.map((call) => safeRead(call, 'toolCallId'));
  const blocked = calls.map((call) => deniedCalls.has(call));
  for (const [id, count] of deniedIds) {
    // `generateText` skips every call that shares a refused call's id, so none of them has an answer: all were refused.
    // Otherwise (`streamText` skips only the refused one) the refused are the last with that id: a refusal completes a loop.
    let left = results.has(id) || errors.has(id) ? count : Number.POSITIVE_INFINITY;
    for (let index = calls.length - 1; index >= 0 && left > 0; index--) {
      if (ids[index] !== id || blocked[index] === true) continue;
      blocked[index] = true;
      left--;
    }
  }
  const mapped: GuardToolCall[] = [];
  calls.forEach((call, index) => {
    const name = safeRead(call, 'toolName');
    if (typeof name !== 'string') return;
    const id = ids[index];
    const guardCall: Mutable<GuardToolCall> = {
      name,
      args: hasField(call, 'input') ? safeRead(call, 'input') : safeRead(call, 'args'),
    };
    if (blocked[index] === true) {
      guardCall.blocked = true;
    } else {
      const result = results.next(id);
      if (result !== undefined) guardCall.result = result.value;
      const error = errors.next(id);
      const thrown = error === undefined ? invalidCallError(call) : error.value;
      if (thrown !== undefined) guardCall.error = thrown;
    }
    mapped.push(guardCall);
  });
  return mapped;
}

/** What was reported for the calls of one id, handed out in order, one per call. */
class Answers {
  readonly #byId = new Map<unknown, { readonly values: unknown[]; next: number }>();

  add(id: unknown, value: unknown): void {
    const queue = this.#byId.get(id);
    if (queue === undefined) this.#byId.set(id, { values: [value], next: 0 });
    else queue.values.push(value);
  }

  has(id: unknown): boolean {
    return this.#byId.has(id);
  }

  /** The next answer for a call with this id, when one is left; the last one again when the calls outnumber them. */
  next(id: unknown): { readonly value: unknown } | undefined {
    const queue = this.#byId.get(id);
    if (queue === undefined) return undefined;
    const value = queue.values[Math.min(queue.next, queue.values.length - 1)];
    queue.next++;
    return { value };
  }
}

/** The SDK marks a call it could not parse or route as `invalid` with its own `error`; a `tool-error` part wins over it. */
function invalidCallError(call: unknown): unknown {
  return safeRead(call, 'invalid') === true ? safeRead(call, 'error') : undefined;
}

function readUsage<Step extends AiSdkStepLike>(step: Step, cost: AiSdkCostFunction<Step> | undefined): GuardUsage | undefined {
  const usage = safeRead(step, 'usage');
  const mapped: Mutable<GuardUsage> = {};
  for (const key of ['inputTokens', 'outputTokens', 'totalTokens'] as const) {
    const value = safeRead(usage, key);
    if (typeof value === 'number') mapped[key] = value;
  }
  if (cost !== undefined) {
    const usageObject = (usage !== null && typeof usage === 'object' ? usage : {}) as NonNullable<Step['usage']>;
    mapped.costUsd = cost(usageObject, step);
  }
  return Object.keys(mapped).length > 0 ? mapped : undefined;
}

function readTimestamp(value: unknown): number | undefined {
  let time = Number.NaN;
  try {
    // Throws for anything that is not a real Date, including a proxy of one.
    time = Date.prototype.getTime.call(value as Date);
  } catch {
    // Not a Date: no timestamp.
  }
  return Number.isFinite(time) ? time : undefined;
}

/** `key in value`, false for primitives (where `in` throws) and hostile proxies. */
function hasField(value: unknown, key: string): boolean {
  try {
    return key in (value as object);
  } catch {
    // A primitive, or a proxy whose `has` trap throws.
  }
  return false;
}
