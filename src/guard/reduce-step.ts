import { canonicalize } from '../canonical/canonicalize.js';
import type { CallFacts } from '../detectors/detector.js';
import { preview } from './normalize-text.js';
import type { Mutable } from './mutable.js';
import { isFiniteNumber, readArray, safeRead, usableNumber } from './safe-read.js';
import { comparisonKey } from '../canonical/stable-hash.js';
import type { GuardStep, GuardToolCall, GuardUsage } from '../types.js';

/** A step read once: a sanitised copy for history, and the facts detectors compare. */
export interface ReducedStep {
  readonly step: GuardStep;
  /** The calls that ran. */
  readonly calls: readonly CallFacts[];
  /** The calls that were refused before they ran (`blocked: true`): not part of the call sequence. */
  readonly blockedCalls: readonly GuardToolCall[];
  readonly finishReason: string | undefined;
  /** How many tool calls the step held, when more than could be read. */
  readonly unreadCalls?: number;
}

function reduceCall(raw: unknown): { call: GuardToolCall; facts: CallFacts; blocked: boolean } | undefined {
  const name = safeRead(raw, 'name');
  if (typeof name !== 'string') return undefined;
  const blocked = safeRead(raw, 'blocked') === true;
  const args = safeRead(raw, 'args');
  const result = safeRead(raw, 'result');
  const error = safeRead(raw, 'error');
  const failed = error !== undefined && error !== null;

  const argsForm = canonicalize(args);
  // JSON-quoting the name keeps "name + arguments" unambiguous whatever characters the name holds.
  const signature = JSON.stringify(name) + comparisonKey(argsForm);
  let outcome = signature;
  let resultText: string | undefined;
  let errorText: string | undefined;
  if (result !== undefined) {
    const resultForm = canonicalize(result);
    outcome += `\u0000r${comparisonKey(resultForm)}`;
    resultText = typeof result === 'string' ? result : resultForm;
  }
  if (failed) {
    const errorForm = canonicalize(error);
    outcome += `\u0000e${comparisonKey(errorForm)}`;
    errorText = typeof error === 'string' ? error : errorForm;
  }

  const call: Mutable<GuardToolCall> = { name };
  if (args !== undefined) call.args = args;
  if (result !== undefined) call.result = result;
  if (error !== undefined) call.error = error;
  if (blocked) call.blocked = true;
  const facts: CallFacts = { name, signature, outcome, argsPreview: preview(argsForm), argsLength: argsForm.length, resultText, errorText, failed };
  return { call: Object.freeze(call), facts, blocked };
}

function reduceUsage(raw: unknown): GuardUsage | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const usage: Mutable<GuardUsage> = {};
  for (const key of ['inputTokens', 'outputTokens', 'totalTokens', 'costUsd'] as const) {
    const value = usableNumber(safeRead(raw, key));
    if (value !== undefined) usage[key] = value;
  }
  return Object.freeze(usage);
}

/** Reads everything usable from a step exactly once; anything unusable is left out, nothing throws. */
export function reduceStep(raw: unknown): ReducedStep {
  const step: Mutable<GuardStep> = {};
  const calls: CallFacts[] = [];
  const blockedCalls: GuardToolCall[] = [];

  const rawCalls = readArray(safeRead(raw, 'toolCalls'));
  if (rawCalls !== undefined) {
    const toolCalls: GuardToolCall[] = [];
    for (const item of rawCalls.items) {
      const reduced = reduceCall(item);
      if (reduced === undefined) continue;
      toolCalls.push(reduced.call);
      if (reduced.blocked) blockedCalls.push(reduced.call);
      else calls.push(reduced.facts);
    }
    step.toolCalls = Object.freeze(toolCalls);
  }

  const text = safeRead(raw, 'text');
  if (typeof text === 'string') step.text = text;

  const finishReason = safeRead(raw, 'finishReason');
  if (typeof finishReason === 'string') step.finishReason = finishReason;

  const usage = reduceUsage(safeRead(raw, 'usage'));
  if (usage !== undefined) step.usage = usage;

  const durationMs = usableNumber(safeRead(raw, 'durationMs'));
  if (durationMs !== undefined) step.durationMs = durationMs;

  const timestamp = safeRead(raw, 'timestamp');
  if (isFiniteNumber(timestamp)) step.timestamp = timestamp;

  const reduced = { step: Object.freeze(step), calls, blockedCalls, finishReason: typeof finishReason === 'string' ? finishReason : undefined };
  return rawCalls !== undefined && rawCalls.length > rawCalls.items.length ? { ...reduced, unreadCalls: rawCalls.length } : reduced;
}
