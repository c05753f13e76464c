import { DEFAULT_LIMITS, STEP_CHARACTERS, STEP_VALUES, UNREADABLE_PREFIX, UnreadableNumbering } from '../canonical/form.js';
import type { TextHash } from '../canonical/hash.js';
import { StepReader } from '../canonical/step-reader.js';
import { readResultFields, volatileBlanked } from '../detectors/answers.js';
import { roundFigure } from '../detectors/budget.js';
import type { CallFacts } from '../detectors/detector.js';
import type { GuardStep, GuardToolCall, GuardUsage, InputLimitWarning, InputShapeWarning } from '../types.js';
import { isFiniteNumber, MAX_ARRAY_ITEMS, type Mutable, readArray, safeRead, usableNumber } from '../utils/read.js';
import { isRecord } from '../utils/validate.js';
import { NAME_LENGTH, preview } from '../utils/text.js';
import { identityOf, NO_TOOLS, type ToolRules } from './tools.js';

/** A step's own keys; none for anything that is not an object whose keys can be listed. */
function keysOf(value: unknown): string[] {
  try {
    return isRecord(value) ? Object.keys(value) : [];
  } catch {
    return [];
  }
}

/** Whether a value is an array; `undefined` when that cannot be told (a revoked proxy). */
function isArray(value: unknown): boolean | undefined {
  try {
    return Array.isArray(value);
  } catch {
    return undefined;
  }
}

/** Usage figures in other libraries' names, with the name the guard reads them by. */
const OTHER_USAGE_NAMES: Readonly<Record<string, string>> = {
  prompt_tokens: 'inputTokens',
  input_tokens: 'inputTokens',
  promptTokens: 'inputTokens',
  completion_tokens: 'outputTokens',
  output_tokens: 'outputTokens',
  completionTokens: 'outputTokens',
  total_tokens: 'totalTokens',
  cost: 'costUsd',
};
const USAGE_NAMES = ['inputTokens', 'outputTokens', 'totalTokens', 'costUsd'];

/**
 * The fields of a step in a shape the guard does not read, with what to pass instead: a caller's mistake that would
 * otherwise go unseen (the guard reads the rest and stops nothing it cannot see). Filled in while the step is read,
 * each field once, calls as `[]`.
 */
type ShapeFindings = Map<string, string>;

/** What a call the guard reads by name holds under other libraries' names. */
function callShapes(raw: unknown, args: unknown, result: unknown, found: ShapeFindings): void {
  const argumentsKey = args === undefined ? ['input', 'arguments', 'parameters'].find((key) => safeRead(raw, key) !== undefined) : undefined;
  if (argumentsKey !== undefined) found.set(`toolCalls[].${argumentsKey}`, 'the guard reads a call\'s arguments from "args"');
  if (result === undefined && safeRead(raw, 'output') !== undefined) found.set('toolCalls[].output', 'the guard reads what a tool returned from "result"');
}

/** Why a call without a string name was not read. */
function namelessShape(raw: unknown, found: ShapeFindings): void {
  if (typeof safeRead(raw, 'toolName') === 'string') found.set('toolCalls[].toolName', 'it is an AI SDK step; map it with toGuardStep(step), which reads its calls, results and errors');
  else if (isRecord(safeRead(raw, 'function'))) found.set('toolCalls[].function', 'it is an OpenAI tool call; pass { name: call.function.name, args: JSON.parse(call.function.arguments) }');
  else found.set('toolCalls[].name', 'a call without a string "name" is not read');
}

/** Usage figures under other libraries' names, or given as text. */
function usageShapes(usage: unknown, found: ShapeFindings): void {
  for (const key of keysOf(usage)) {
    const name = OTHER_USAGE_NAMES[key];
    if (name !== undefined && Object.hasOwn(OTHER_USAGE_NAMES, key)) found.set(`usage.${key}`, `the guard reads "${name}", so budgets counted nothing of it`);
    else if (USAGE_NAMES.includes(key) && typeof safeRead(usage, key) === 'string') found.set(`usage.${key}`, 'a number given as text counts for nothing; pass a number');
  }
}

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
  /** The step's fields in a shape the guard does not read, each with the fix. */
  readonly shapes: readonly InputShapeWarning[];
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
function readCall(
  raw: unknown,
  reader: StepReader,
  stepIndex: number,
  position: number,
  tools: ToolRules,
  found: ShapeFindings,
): { call: GuardToolCall; facts: CallFacts; cut: boolean } | undefined {
  const name = safeRead(raw, 'name');
  if (typeof name !== 'string') {
    namelessShape(raw, found);
    return undefined;
  }
  const args = safeRead(raw, 'args');
  const result = safeRead(raw, 'result');
  callShapes(raw, args, result, found);
  const error = safeRead(raw, 'error');
  const failed = error !== undefined && error !== null;
  const rule = tools.get(name);

  const cutBefore = reader.truncated;
  const argsForm = reader.form(args);
  // Under the `tools` option a call may be compared by a key of its arguments; evidence still shows the arguments.
  const identity = identityOf(rule, args, safeRead);
  // The name counts against the step's budget like any string: a name shared by many calls costs each of them.
  const nameKey = reader.stringKey(name);
  let signature = (nameKey ?? '') + (identity.keyed ? `\u0000k${reader.formKey(reader.form(identity.value))}` : reader.formKey(argsForm));
  // Results and errors are compared with long strings hashed raw; their forms double as the text detectors read.
  const resultForm = result === undefined ? undefined : reader.rawForm(result);
  const errorForm = failed ? reader.rawForm(error) : undefined;
  const cut = nameKey === undefined || (reader.budgetSpent && reader.truncated > cutBefore);
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
  // A structured result is read from its own top-level fields, whatever its size; its failure fields are what two
  // failures are compared by.
  const structured = result !== undefined && typeof result !== 'string' ? readResultFields(result) : undefined;
  const failureForm = !cut && structured?.fields !== undefined ? reader.rawForm(structured.fields) : undefined;
  const resultKey = resultForm === undefined ? '' : reader.formKey(resultForm);
  const errorKey = errorForm === undefined ? '' : reader.formKey(errorForm);
  // What the call got, as every loop detector compares it: what changes on every call (timestamps, durations,
  // counters, ids) blanked. The marks keep a result apart from an error; the length keeps where one ends.
  let answer = '';
  if (cut) answer = `#${resultKey}\u0000${errorKey}`;
  else if (resultText !== undefined || errorText !== undefined) {
    // An answer holding an unreadable value is compared as it is: blanking its digits would make its placeholder equal
    // every other one, and it must equal nothing.
    const blanked = (text: string, isForm: boolean): string => (isForm && text.includes(UNREADABLE_PREFIX) ? text : volatileBlanked(text));
    const resultPart = resultText === undefined ? '' : `r${reader.formKey(blanked(resultText, typeof result !== 'string'))}`;
    answer = errorText === undefined ? resultPart : `${String(resultPart.length)}:${resultPart}e${reader.formKey(blanked(errorText, !errorIsText))}`;
  }
  const outcome = answer === '' ? signature : `${signature}\u0000${answer}`;

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
    answer,
    failed,
    exempt: rule?.exempt === true,
    resultReading: structured?.reading,
    failureForm,
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
 * @param tools - the `tools` option: what makes two calls of a tool the same, or that its calls are exempt
 * @param unreadable - numbers the placeholders of unreadable values under the step's index (`[Unreadable:<index>.<n>]`),
 *   so none equals one an earlier step wrote, in this process or in the one a snapshot came from; pass one numbering
 *   to reads at the same index whose facts are compared with each other
 */
export function readStep(
  raw: unknown,
  hash: TextHash,
  index: number,
  tools: ToolRules = NO_TOOLS,
  unreadable: UnreadableNumbering = new UnreadableNumbering(`${String(index)}.`),
): ReadStep {
  const step: Mutable<GuardStep> = {};
  const calls: CallFacts[] = [];
  const blockedCalls: GuardToolCall[] = [];
  const warnings: InputLimitWarning[] = [];
  const found: ShapeFindings = new Map();

  const givenCalls = safeRead(raw, 'toolCalls');
  if (givenCalls === undefined) {
    // Not `toolCalls` itself: one whose reading threw is unreadable, not misspelt.
    const other = keysOf(raw).find((key) => key !== 'toolCalls' && /^(tool_?calls|calls|tool_?uses)$/i.test(key));
    if (other !== undefined) found.set(other, 'the guard reads "toolCalls", an array of { name, args, result, error }, so none of these calls was seen');
  } else if (givenCalls !== null && isArray(givenCalls) === false) {
    found.set('toolCalls', 'the guard reads "toolCalls" as an array of { name, args, result, error }; put a single call in an array');
  }
  const rawCalls = readArray(givenCalls);
  if (rawCalls !== undefined) {
    const reader = new StepReader(hash, DEFAULT_LIMITS, unreadable);
    const toolCalls: GuardToolCall[] = [];
    let cutCalls = 0;
    for (const item of rawCalls.items) {
      const read = readCall(item, reader, index, toolCalls.length, tools, found);
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
  const givenUsage = safeRead(raw, 'usage');
  const usage = readUsage(givenUsage);
  if (usage !== undefined) step.usage = Object.freeze(usage);
  usageShapes(givenUsage, found);
  if (text !== undefined && typeof text !== 'string') found.set('text', 'the guard reads the model\'s text as one string');
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
    shapes: [...found].map(([field, fix]) => ({ code: 'INPUT_SHAPE', field, detail: `The step's "${field}" was not read: ${fix}.` })),
  };
}
