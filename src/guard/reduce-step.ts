import type { CallFacts } from '../detectors/detector.js';
import type { HashKey } from '../canonical/hash-key.js';
import { StepReader } from '../canonical/step-reader.js';
import type { GuardStep, GuardToolCall, GuardUsage, InputLimitWarning } from '../types.js';
import { readLimitWarning, toolCallLimitWarning } from './input-limit-warning.js';
import type { Mutable } from './mutable.js';
import { NAME_LENGTH, preview } from './normalize-text.js';
import { isFiniteNumber, readArray, safeRead, usableNumber } from './safe-read.js';

/** A step read once: a sanitised copy for history, and the facts detectors compare. */
export interface ReducedStep {
  readonly step: GuardStep;
  /** The calls that ran. */
  readonly calls: readonly CallFacts[];
  /** The calls that were refused before they ran (`blocked: true`): not part of the call sequence. */
  readonly blockedCalls: readonly GuardToolCall[];
  readonly finishReason: string | undefined;
  /** What of the step was not read, when a limit on one step's input was passed. */
  readonly warnings: readonly InputLimitWarning[] | undefined;
}

interface ReducedCall {
  readonly call: GuardToolCall;
  readonly facts: CallFacts;
  readonly blocked: boolean;
  /** The step's reading budget ran out while this call was read. */
  readonly cut: boolean;
}

/** What an error says as text: a string as it is, `name: message` of an error (or anything) with a string message. */
function errorMessage(error: unknown): string | undefined {
  if (typeof error === 'string') return error;
  const message = safeRead(error, 'message');
  if (typeof message !== 'string') return undefined;
  const name = safeRead(error, 'name');
  return typeof name === 'string' && name !== '' ? `${name}: ${message}` : message;
}

function reduceCall(raw: unknown, reader: StepReader, stepIndex: number, position: number): ReducedCall | undefined {
  const name = safeRead(raw, 'name');
  if (typeof name !== 'string') return undefined;
  const blocked = safeRead(raw, 'blocked') === true;
  const args = safeRead(raw, 'args');
  const result = safeRead(raw, 'result');
  const error = safeRead(raw, 'error');
  const failed = error !== undefined && error !== null;

  const cutBefore = reader.truncated;
  const argsForm = reader.form(args);
  let signature = reader.stringKey(name) + reader.formKey(argsForm);
  // Results and errors are compared with long strings hashed raw; their forms double as the text detectors read.
  const resultForm = result === undefined ? undefined : reader.rawForm(result);
  // Taken before the error's form is read, which would replace them.
  const resultKeys = resultForm === undefined ? undefined : reader.topKeys;
  const errorForm = failed ? reader.rawForm(error) : undefined;
  const cut = reader.budgetSpent && reader.truncated > cutBefore;
  let resultText: string | undefined;
  let errorText: string | undefined;
  let errorIsText = false;
  if (cut) {
    // Read in part, the call might look like another call read in part: it is made unlike every other call instead.
    signature += `\u0000cut:${String(stepIndex)}:${String(position)}`;
  } else {
    resultText = typeof result === 'string' ? result : resultForm;
    const message = failed ? errorMessage(error) : undefined;
    errorIsText = message !== undefined;
    errorText = message ?? errorForm;
  }
  const resultKey = resultForm === undefined ? undefined : reader.formKey(resultForm);
  const errorKey = errorForm === undefined ? undefined : reader.formKey(errorForm);
  let outcome = signature;
  if (resultKey !== undefined) outcome += `\u0000r${resultKey}`;
  if (errorKey !== undefined) outcome += `\u0000e${errorKey}`;

  const call: Mutable<GuardToolCall> = { name };
  if (args !== undefined) call.args = args;
  if (result !== undefined) call.result = result;
  if (error !== undefined) call.error = error;
  if (blocked) call.blocked = true;
  const facts: CallFacts = {
    name: preview(name, NAME_LENGTH),
    signature,
    outcome,
    argsPreview: preview(argsForm),
    argsLength: argsForm.length,
    resultText,
    resultIsText: typeof result === 'string',
    resultKey: resultKey ?? '',
    resultKeys,
    errorText,
    errorIsText,
    errorKey: errorKey ?? '',
    failed,
  };
  return { call, facts, blocked, cut };
}

/**
 * The usable figures of a step's `usage`: those that are finite and non-negative; `undefined` when it is not an object.
 * @param raw - the step's `usage` as given
 */
export function reduceUsage(raw: unknown): GuardUsage | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const usage: Mutable<GuardUsage> = {};
  for (const key of ['inputTokens', 'outputTokens', 'totalTokens', 'costUsd'] as const) {
    const value = usableNumber(safeRead(raw, key));
    if (value !== undefined) usage[key] = value;
  }
  return usage;
}

/**
 * Freezes a step as `reduceStep` made it, with its tool-call array, each call and its usage; a frozen step is left as
 * it is. Steps are frozen when they are first shown (see `createStepHistory`), not when they are read: the four freezes
 * of a small step were a sixth of what reading it cost besides its values, and most steps are never shown.
 * @param step - a step from `reduceStep`
 */
export function freezeStep(step: GuardStep): void {
  if (Object.isFrozen(step)) return;
  for (const call of step.toolCalls ?? []) Object.freeze(call);
  Object.freeze(step.toolCalls);
  Object.freeze(step.usage);
  Object.freeze(step);
}

/**
 * Reads everything usable from a step exactly once; anything unusable is left out, nothing throws. The copy is not
 * frozen yet: see {@link freezeStep}.
 * @param raw - the step as given
 * @param hashKey - the guard's key for its comparisons
 * @param index - the step's index in the run: a call read only in part is marked with it, so it matches no other
 * @returns the sanitised step and its facts
 */
export function reduceStep(raw: unknown, hashKey: HashKey, index: number): ReducedStep {
  const step: Mutable<GuardStep> = {};
  const calls: CallFacts[] = [];
  const blockedCalls: GuardToolCall[] = [];
  let warnings: InputLimitWarning[] | undefined;

  const rawCalls = readArray(safeRead(raw, 'toolCalls'));
  if (rawCalls !== undefined) {
    const reader = new StepReader(hashKey);
    const toolCalls: GuardToolCall[] = [];
    let cutCalls = 0;
    for (const item of rawCalls.items) {
      const reduced = reduceCall(item, reader, index, toolCalls.length);
      if (reduced === undefined) continue;
      toolCalls.push(reduced.call);
      if (reduced.cut) cutCalls++;
      if (reduced.blocked) blockedCalls.push(reduced.call);
      else calls.push(reduced.facts);
    }
    step.toolCalls = toolCalls;
    if (rawCalls.length > rawCalls.items.length) (warnings ??= []).push(toolCallLimitWarning(rawCalls.length));
    if (cutCalls > 0) (warnings ??= []).push(readLimitWarning(cutCalls));
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

  return { step, calls, blockedCalls, finishReason: typeof finishReason === 'string' ? finishReason : undefined, warnings };
}
