import { STEP_CHARACTERS, STEP_VALUES } from '../canonical/form.js';
import type { TextHash } from '../canonical/hash.js';
import { StepReader } from '../canonical/step-reader.js';
import { roundFigure } from '../detectors/budget.js';
import type { CallFacts } from '../detectors/detector.js';
import type { GuardStep, GuardToolCall, GuardUsage, InputLimitWarning } from '../types.js';
import { isFiniteNumber, MAX_ARRAY_ITEMS, type Mutable, readArray, safeRead, usableNumber } from '../utils/read.js';
import { NAME_LENGTH, preview } from '../utils/text.js';

/** A step read once: a sanitised copy for history, and the facts detectors compare. */
export interface ReadStep {
  readonly step: GuardStep;
  /** The calls that ran. */
  readonly calls: readonly CallFacts[];
  /** The calls that were refused before they ran (`blocked: true`): not part of the call sequence. */
  readonly blockedCalls: readonly GuardToolCall[];
  readonly finishReason: string | undefined;
  /** What of the step was not read, when a limit on one step's input was passed. */
  readonly warnings: readonly InputLimitWarning[] | undefined;
}

/** What an error says as text: a string as it is, `name: message` of an error (or anything) with a string message. */
function errorMessage(error: unknown): string | undefined {
  if (typeof error === 'string') return error;
  const message = safeRead(error, 'message');
  if (typeof message !== 'string') return undefined;
  const name = safeRead(error, 'name');
  return typeof name === 'string' && name !== '' ? `${name}: ${message}` : message;
}

/** One call read: its sanitised copy, its facts, and whether the step's budget ran out while it was read. */
function readCall(raw: unknown, reader: StepReader, stepIndex: number, position: number): { call: GuardToolCall; facts: CallFacts; cut: boolean } | undefined {
  const name = safeRead(raw, 'name');
  if (typeof name !== 'string') return undefined;
  const args = safeRead(raw, 'args');
  const result = safeRead(raw, 'result');
  const error = safeRead(raw, 'error');
  const failed = error !== undefined && error !== null;

  const cutBefore = reader.truncated;
  const argsForm = reader.form(args);
  let signature = reader.stringKey(name) + reader.formKey(argsForm);
  // Results and errors are compared with long strings hashed raw; their forms double as the text detectors read.
  const resultForm = result === undefined ? undefined : reader.rawForm(result);
  const errorForm = failed ? reader.rawForm(error) : undefined;
  const cut = reader.budgetSpent && reader.truncated > cutBefore;
  let resultText: string | undefined;
  let errorText: string | undefined;
  let errorIsText = false;
  if (cut) {
    // Read in part, the call might look like another call read in part: it is made unlike every other call instead.
    signature += `\u0000cut:${stepIndex}:${position}`;
  } else {
    resultText = typeof result === 'string' ? result : resultForm;
    const message = failed ? errorMessage(error) : undefined;
    errorIsText = message !== undefined;
    errorText = message ?? errorForm;
  }
  const resultKey = resultForm === undefined ? '' : reader.formKey(resultForm);
  const errorKey = errorForm === undefined ? '' : reader.formKey(errorForm);
  let outcome = signature;
  if (resultForm !== undefined) outcome += `\u0000r${resultKey}`;
  if (errorForm !== undefined) outcome += `\u0000e${errorKey}`;

  const call: Mutable<GuardToolCall> = { name };
  if (args !== undefined) call.args = args;
  if (result !== undefined) call.result = result;
  if (error !== undefined) call.error = error;
  if (safeRead(raw, 'blocked') === true) call.blocked = true;
  const facts: CallFacts = {
    name: preview(name, NAME_LENGTH),
    signature,
    outcome,
    argsPreview: preview(argsForm),
    argsLength: argsForm.length,
    resultText,
    resultIsText: typeof result === 'string',
    resultKey,
    errorText,
    errorIsText,
    errorKey,
    failed,
  };
  return { call, facts, cut };
}

/** The usable figures of a step's `usage`: those that are finite and non-negative; `undefined` when it is not an object. */
export function readUsage(raw: unknown): GuardUsage | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const usage: Mutable<GuardUsage> = {};
  for (const key of ['inputTokens', 'outputTokens', 'totalTokens', 'costUsd'] as const) {
    const value = usableNumber(safeRead(raw, key));
    if (value !== undefined) usage[key] = value;
  }
  return usage;
}

/** The totals a step's usage adds to. */
export type UsageTotals = Record<'inputTokens' | 'outputTokens' | 'totalTokens' | 'costUsd', number>;

/**
 * Adds one step's usage as {@link readUsage} read it, each total rounded (see `roundFigure`): a usage without
 * `totalTokens` counts its input plus output. The one place usage is added up, for the guard's totals and for the
 * replay command's.
 * @param totals - changed in place
 */
export function addUsage(totals: UsageTotals, usage: GuardUsage): void {
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  totals.inputTokens = roundFigure(totals.inputTokens + input);
  totals.outputTokens = roundFigure(totals.outputTokens + output);
  totals.totalTokens = roundFigure(totals.totalTokens + (usage.totalTokens ?? input + output));
  totals.costUsd = roundFigure(totals.costUsd + (usage.costUsd ?? 0));
}

/**
 * Reads everything usable from a step exactly once; anything unusable is left out, nothing throws. The copy is frozen,
 * with its calls and usage, as history hands it out.
 * @param raw - the step as given
 * @param hash - the run's keyed hash for its comparisons
 * @param index - the step's index in the run: a call read only in part is marked with it, so it matches no other
 */
export function readStep(raw: unknown, hash: TextHash, index: number): ReadStep {
  const step: Mutable<GuardStep> = {};
  const calls: CallFacts[] = [];
  const blockedCalls: GuardToolCall[] = [];
  const warnings: InputLimitWarning[] = [];

  const rawCalls = readArray(safeRead(raw, 'toolCalls'));
  if (rawCalls !== undefined) {
    const reader = new StepReader(hash);
    const toolCalls: GuardToolCall[] = [];
    let cutCalls = 0;
    for (const item of rawCalls.items) {
      const read = readCall(item, reader, index, toolCalls.length);
      if (read === undefined) continue;
      toolCalls.push(Object.freeze(read.call));
      if (read.cut) cutCalls++;
      if (read.call.blocked === true) blockedCalls.push(read.call);
      else calls.push(read.facts);
    }
    step.toolCalls = Object.freeze(toolCalls);
    if (rawCalls.length > rawCalls.items.length) {
      warnings.push({
        code: 'INPUT_LIMIT',
        limit: 'toolCallsPerStep',
        maximum: MAX_ARRAY_ITEMS,
        given: rawCalls.length,
        detail: `The step held ${rawCalls.length} tool calls; only the first ${MAX_ARRAY_ITEMS} were read.`,
      });
    }
    if (cutCalls > 0) {
      warnings.push({
        code: 'INPUT_LIMIT',
        limit: 'readPerStep',
        maximumValues: STEP_VALUES,
        maximumCharacters: STEP_CHARACTERS,
        cutCalls,
        detail: `The step's tool calls held more than one step may read (${STEP_VALUES} values or ${STEP_CHARACTERS} characters); ${cutCalls} ${cutCalls === 1 ? 'call was' : 'calls were'} read in part and compared with no other.`,
      });
    }
  }

  const text = safeRead(raw, 'text');
  if (typeof text === 'string') step.text = text;
  const finishReason = safeRead(raw, 'finishReason');
  if (typeof finishReason === 'string') step.finishReason = finishReason;
  const usage = readUsage(safeRead(raw, 'usage'));
  if (usage !== undefined) step.usage = Object.freeze(usage);
  const durationMs = usableNumber(safeRead(raw, 'durationMs'));
  if (durationMs !== undefined) step.durationMs = durationMs;
  const timestamp = safeRead(raw, 'timestamp');
  if (isFiniteNumber(timestamp)) step.timestamp = timestamp;

  return {
    step: Object.freeze(step),
    calls,
    blockedCalls,
    finishReason: typeof finishReason === 'string' ? finishReason : undefined,
    warnings: warnings.length === 0 ? undefined : warnings,
  };
}
