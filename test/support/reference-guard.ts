/**
 * A reference guard: the documented semantics written the slow, obvious way, for the differential test
 * (`test/guard/differential.test.ts`). It keeps every recorded step and works out each detector's answer again from
 * the whole list at every check, so there is no incremental state, ring, window bookkeeping or hashing to get wrong.
 * Only what a later step cannot change is settled when a step comes in: whether it was stalled, and the exact running
 * running sums of its budget figures.
 *
 * It shares no code with `src/` beyond the public `canonicalize`, which the README names as the comparison primitive.
 * Canonical forms are compared in full here; the guard compares long ones by length and hash, which agrees barring
 * hash collisions.
 *
 * Where the README speaks, this follows the README. Where it is silent (summary state shapes, detail sentences, the
 * handling of oddities it does not mention), this follows what the guard does today, and says so next to the code.
 */
// The answer shape is stagnation's normalisation primitive, as canonicalize is the guard's: the guard's own, faster one is
// tested against this straightforward version (test/detectors/answer-shape.test.ts), which is the one used here.
import { isContentless } from '../../src/detectors/answers.js';
import { referenceAnswerShape as answerShape } from './reference-answer-shape.js';
import {
  canonicalize,
  type BudgetLimit,
  type BudgetMetric,
  type CustomDetector,
  type Guard,
  type GuardOptions,
  type GuardStep,
  type GuardSummary,
  type GuardToolCall,
  type GuardUsage,
  type GuardWarning,
  type InputShapeWarning,
  type JsonValue,
  type LoopReason,
  type OtherPolicy,
  type StopReason,
  type StopVerdict,
  type Verdict,
} from '../../src/index.js';

// ---------------------------------------------------------------------------------------------------------------------
// Budget arithmetic: each running total is rounded to 15 significant digits after every step (ten steps of 0.1 make 1)
// unless it is a whole number below 2^53, and never passes the largest finite number.

/** A figure rounded as the README says totals are: whole numbers below 2^53 as they are, others to 15 digits. */
function rounded(value: number): number {
  return Number.isSafeInteger(value) ? value : Math.min(Number(value.toPrecision(15)), Number.MAX_VALUE);
}

/** `left + right`, rounded as the README says totals are. */
export function roundedSum(left: number, right: number): number {
  return rounded(left + right);
}

/** `left × right`, rounded the same way: a `warnAt` of 0.1 on a limit of 3 is 0.3. */
export function roundedProduct(left: number, right: number): number {
  return rounded(left * right);
}

// ---------------------------------------------------------------------------------------------------------------------
// Reading a step.

/** What the README promises about a step that could not be read: anything that throws reads as missing. */
function readField(target: unknown, key: string): unknown {
  if (target === null || (typeof target !== 'object' && typeof target !== 'function')) return undefined;
  try {
    return (target as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** A number the README calls usable: finite and not negative. */
function usable(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

// Items read from one tool-call array. The README is silent on a cap; the guard stops at this many, so this does too.
const MAX_TOOL_CALLS = 10_000;

function itemsOf(list: readonly unknown[]): unknown[] {
  const items: unknown[] = [];
  const count = Math.min(list.length, MAX_TOOL_CALLS);
  for (let index = 0; index < count; index++) {
    try {
      items.push(list[index]);
    } catch {
      items.push(undefined);
    }
  }
  return items;
}

/** The keys of an object, none when they cannot be listed. */
function keysOf(value: unknown): string[] {
  try {
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
  } catch {
    return [];
  }
}

/** Another library's usage names, with the guard's. */
const FOREIGN_USAGE: readonly (readonly [string, string])[] = [
  ['prompt_tokens', 'inputTokens'],
  ['input_tokens', 'inputTokens'],
  ['promptTokens', 'inputTokens'],
  ['completion_tokens', 'outputTokens'],
  ['output_tokens', 'outputTokens'],
  ['completionTokens', 'outputTokens'],
  ['total_tokens', 'totalTokens'],
  ['cost', 'costUsd'],
];

/**
 * The docs' INPUT_SHAPE warnings: each field of a step in a shape the guard does not read, with the fix, in the order
 * they are met (calls as `[]`, each field once).
 */
function shapeWarnings(raw: unknown): InputShapeWarning[] {
  const fields: [string, string][] = [];
  const note = (field: string, fix: string): void => {
    if (!fields.some(([known]) => known === field)) fields.push([field, fix]);
  };
  const rawCalls = readField(raw, 'toolCalls');
  if (rawCalls === undefined) {
    const other = keysOf(raw).find((key) => ['toolcalls', 'tool_calls', 'calls', 'tooluses', 'tool_uses'].includes(key.toLowerCase()) && key !== 'toolCalls');
    if (other !== undefined) note(other, 'the guard reads "toolCalls", an array of { name, args, result, error }, so none of these calls was seen');
  }
  let isList: boolean | undefined;
  try {
    isList = Array.isArray(rawCalls);
  } catch {
    isList = undefined;
  }
  if (rawCalls !== undefined && rawCalls !== null && isList === false) {
    note('toolCalls', 'the guard reads "toolCalls" as an array of { name, args, result, error }; put a single call in an array');
  }
  for (const call of isList === true ? itemsOf(rawCalls as unknown[]) : []) {
    if (typeof readField(call, 'name') !== 'string') {
      const fn = readField(call, 'function');
      if (typeof readField(call, 'toolName') === 'string') note('toolCalls[].toolName', 'it is an AI SDK step; map it with toGuardStep(step), which reads its calls, results and errors');
      else if (fn !== null && typeof fn === 'object' && !Array.isArray(fn)) note('toolCalls[].function', 'it is an OpenAI tool call; pass { name: call.function.name, args: JSON.parse(call.function.arguments) }');
      else note('toolCalls[].name', 'a call without a string "name" is not read');
      continue;
    }
    if (readField(call, 'args') === undefined) {
      const other = ['input', 'arguments', 'parameters'].find((key) => readField(call, key) !== undefined);
      if (other !== undefined) note(`toolCalls[].${other}`, 'the guard reads a call\'s arguments from "args"');
    }
    if (readField(call, 'result') === undefined && readField(call, 'output') !== undefined) note('toolCalls[].output', 'the guard reads what a tool returned from "result"');
  }
  const usage = readField(raw, 'usage');
  for (const key of keysOf(usage)) {
    const foreign = FOREIGN_USAGE.find(([name]) => name === key);
    if (foreign !== undefined) note(`usage.${key}`, `the guard reads "${foreign[1]}", so budgets counted nothing of it`);
    else if (['inputTokens', 'outputTokens', 'totalTokens', 'costUsd'].includes(key) && typeof readField(usage, key) === 'string') {
      note(`usage.${key}`, 'a number given as text counts for nothing; pass a number');
    }
  }
  const text = readField(raw, 'text');
  if (text !== undefined && typeof text !== 'string') note('text', 'the guard reads the model\'s text as one string');
  return fields.map(([field, fix]) => ({ code: 'INPUT_SHAPE', field, detail: `The step's "${field}" was not read: ${fix}.` }));
}

/** Evidence previews are cut at 120 characters, the cut marked with an ellipsis. */
function preview(text: string): string {
  return text.length <= 120 ? text : `${text.slice(0, 119)}…`;
}

/** Lower-cased, whitespace runs collapsed to one space, trimmed. */
function normalizeText(text: string | undefined): string {
  if (text === undefined) return '';
  return text
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '')
    .join(' ');
}

/** Trimmed, lower-cased, `_` turned into `-`. */
function normalizeFinishReason(reason: string): string {
  return reason.trim().toLowerCase().split('_').join('-');
}

/** Providers' own finish reasons, normalised, and what they mean (the README's table). */
const PROVIDER_REASONS: readonly (readonly [string, readonly string[]])[] = [
  ['stop', ['end-turn', 'stop-sequence', 'complete', 'completed']],
  ['length', ['max-tokens', 'max-output-tokens', 'model-length', 'model-context-window-exceeded', 'error-limit', 'continuation', 'incomplete']],
  [
    'content-filter',
    ['content-filtered', 'refusal', 'safety', 'recitation', 'language', 'blocklist', 'prohibited-content', 'spii', 'image-safety', 'image-prohibited-content', 'image-recitation', 'model-armor', 'jailbreak', 'guardrail-intervened', 'error-toxic'],
  ],
  ['tool-calls', ['tool-use', 'tool-call', 'function-call', 'requires-action', 'pause-turn', 'compaction']],
  [
    'error',
    ['interrupted', 'failed', 'cancelled', 'malformed-function-call', 'unexpected-tool-call', 'too-many-tool-calls', 'no-image', 'malformed-model-output', 'malformed-tool-use', 'timeout', 'user-cancel', 'insufficient-system-resource', 'connection-closed'],
  ],
  ['other', ['unknown', 'finish-reason-unspecified', 'blocked-reason-unspecified', 'image-other', 'in-progress', 'queued', 'load', 'unload']],
];

/** What a reason means: from the table, else itself. */
function meaningOf(normalized: string): string {
  return PROVIDER_REASONS.find(([, reasons]) => reasons.includes(normalized))?.[0] ?? normalized;
}

/** A tool call with what the detectors compare, in full canonical text. */
interface RecordedCall {
  readonly name: string;
  /** The tool name plus the canonical arguments. */
  readonly signature: string;
  /** The signature plus the answer (what changes on every call blanked). */
  readonly outcome: string;
  readonly argsPreview: string;
  /** The call has an error that is neither `null` nor `undefined`. */
  readonly failed: boolean;
  readonly stepIndex: number;
  /** Length of the canonical arguments. */
  readonly argsLength: number;
  /** The result as text: a string as given, anything else canonical; `undefined` without a result. */
  readonly resultText: string | undefined;
  /** The result was a string. */
  readonly resultIsText: boolean;
  /** The error as text when the call failed: a string, `name: message` of an error with a string message, else canonical. */
  readonly errorText: string | undefined;
  /** The error was a string, or had a string message. */
  readonly errorIsText: boolean;
  /**
   * The answer as repeats compare it: the result and error texts with what changes on every call blanked (see
   * {@link blankVolatile}), `''` for a call that reports neither.
   */
  readonly answer: string;
  /** The call has not run (a refused call, judged again): its answer is predicted, not compared. */
  readonly pending?: boolean;
}

/**
 * The README's "same answer, ignoring what changes on every call": a text without a word free of digits as it is; every
 * run of letters, digits and `_` holding a digit, with the whitespace around and between such runs, becomes one `0`,
 * other whitespace one space, and a long-string token stays whole. Of a text past 4,096 characters, the first and
 * last 2,048 are read.
 */
export function blankVolatile(text: string): string {
  const read = text.length <= 4_096 ? text : `${text.slice(0, 2_048)}…${text.slice(-2_048)}`;
  // Numbers and ids alone (no word without a digit, no long-string token) are compared as they are.
  const words = read.match(/[A-Za-z0-9_]+/g) ?? [];
  if (!words.some((word) => /[A-Za-z]/.test(word) && !/[0-9]/.test(word)) && !/#[sn][0-9]+:[0-9a-f]{28}/.test(read)) return read;
  const marked = read.replace(/#[sn][0-9]+:[0-9a-f]{28}|[A-Za-z0-9_]+/g, (word) => (word.startsWith('#') || !/[0-9]/.test(word) ? word : '\uE000'));
  return marked.replace(/[\s\uE000]+/g, (run) => (run.includes('\uE000') ? '0' : ' '));
}

/** What the README says an error reads as: a string as it is, else `name: message` when it has a string message. */
function errorMessage(error: unknown): string | undefined {
  if (typeof error === 'string') return error;
  const message = readField(error, 'message');
  if (typeof message !== 'string') return undefined;
  const name = readField(error, 'name');
  return typeof name === 'string' && name.length > 0 ? `${name}: ${message}` : message;
}

/** A step as the reference remembers it: the sanitised copy history shows, and its calls. */
interface RecordedStep {
  readonly step: GuardStep;
  /** The calls that ran. */
  readonly calls: readonly RecordedCall[];
  /** The calls refused before they ran (`blocked: true`), in order. */
  readonly blocked: readonly RecordedCall[];
  readonly normalizedText: string;
  readonly finishReason: string | undefined;
  /** The running totals after this step, each rounded as it was added. */
  readonly sums: Readonly<Record<BudgetMetric, number>>;
  /**
   * None of the step's outcomes is new: each was produced by an earlier step that is remembered (every earlier step
   * of the run, or with `historyLimit` only the last that many). A step without calls always is. Later steps cannot
   * change this, so it is settled when the step comes in.
   */
  readonly stalled: boolean;
}

function recordCall(raw: unknown, stepIndex: number): { call: GuardToolCall; recorded: RecordedCall } | undefined {
  const name = readField(raw, 'name');
  if (typeof name !== 'string') return undefined;
  const args = readField(raw, 'args');
  const result = readField(raw, 'result');
  const error = readField(raw, 'error');
  const failed = error !== undefined && error !== null;
  const argsForm = canonicalize(args);
  // JSON arrays keep the parts apart whatever characters they hold; `null` marks a part that was not given.
  const signature = JSON.stringify([name, argsForm]);
  const resultText = result === undefined ? undefined : typeof result === 'string' ? result : canonicalize(result);
  const errorText = failed ? (errorMessage(error) ?? canonicalize(error)) : undefined;
  const answer =
    resultText === undefined && errorText === undefined
      ? ''
      : JSON.stringify([resultText === undefined ? null : blankVolatile(resultText), errorText === undefined ? null : blankVolatile(errorText)]);
  // The call and what it got, what changes on every call aside.
  const outcome = JSON.stringify([name, argsForm, answer]);
  const call: { name: string; args?: unknown; result?: unknown; error?: unknown; blocked?: boolean } = { name };
  if (args !== undefined) call.args = args;
  if (result !== undefined) call.result = result;
  if (error !== undefined) call.error = error;
  if (readField(raw, 'blocked') === true) call.blocked = true;
  return {
    call: Object.freeze(call),
    recorded: {
      name,
      signature,
      outcome,
      argsPreview: preview(argsForm),
      failed,
      stepIndex,
      argsLength: argsForm.length,
      resultText,
      resultIsText: typeof result === 'string',
      errorText,
      errorIsText: failed && errorMessage(error) !== undefined,
      answer,
    },
  };
}

/**
 * Reads a step the way the README describes, once, and works out what later checks need to know about it.
 * @param earlier - the run's steps before this one
 * @param window - `historyLimit`, if set
 */
function recordStep(raw: unknown, earlier: readonly RecordedStep[], window: number | undefined): RecordedStep {
  const stepIndex = earlier.length;
  const previous = earlier.at(-1);
  const step: {
    toolCalls?: readonly GuardToolCall[];
    text?: string;
    finishReason?: string;
    usage?: GuardUsage;
    durationMs?: number;
    timestamp?: number;
  } = {};
  const calls: RecordedCall[] = [];
  const blocked: RecordedCall[] = [];

  const rawCalls = readField(raw, 'toolCalls');
  // The README: "a `toolCalls` that is not an array" is dropped.
  if (Array.isArray(rawCalls)) {
    const toolCalls: GuardToolCall[] = [];
    for (const item of itemsOf(rawCalls)) {
      const read = recordCall(item, stepIndex);
      if (read === undefined) continue;
      toolCalls.push(read.call);
      (read.call.blocked === true ? blocked : calls).push(read.recorded);
    }
    step.toolCalls = Object.freeze(toolCalls);
  }

  const text = readField(raw, 'text');
  if (typeof text === 'string') step.text = text;
  const finishReason = readField(raw, 'finishReason');
  if (typeof finishReason === 'string') step.finishReason = finishReason;

  const rawUsage = readField(raw, 'usage');
  // The README is silent on a usage that is an object without usable figures (an array is one); the guard keeps it
  // as `{}`, so this does too. A function is not an object here either.
  if (rawUsage !== null && typeof rawUsage === 'object') {
    const usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number; costUsd?: number } = {};
    for (const key of ['inputTokens', 'outputTokens', 'totalTokens', 'costUsd'] as const) {
      const value = readField(rawUsage, key);
      if (usable(value)) usage[key] = value;
    }
    step.usage = Object.freeze(usage);
  }

  const durationMs = readField(raw, 'durationMs');
  if (usable(durationMs)) step.durationMs = durationMs;
  const timestamp = readField(raw, 'timestamp');
  // A point in time: any finite number is kept (the README's rule on negative numbers is about figures that add up).
  if (typeof timestamp === 'number' && Number.isFinite(timestamp)) step.timestamp = timestamp;

  const usage = step.usage;
  const input = usage?.inputTokens ?? 0;
  const output = usage?.outputTokens ?? 0;
  // What the step adds to each budget total.
  const figures: Record<BudgetMetric, number> = {
    inputTokens: input,
    outputTokens: output,
    // A step without `totalTokens` adds its input plus output.
    totalTokens: usage?.totalTokens ?? input + output,
    costUsd: usage?.costUsd ?? 0,
    durationMs: step.durationMs ?? 0,
  };
  const sum = (metric: BudgetMetric): number => roundedSum(previous?.sums[metric] ?? 0, figures[metric]);

  const remembered = earlier.slice(window === undefined ? 0 : Math.max(0, stepIndex - window));
  const seen = new Set(remembered.flatMap((recorded) => recorded.calls.map((call) => call.outcome)));

  return {
    step: Object.freeze(step),
    calls,
    blocked,
    stalled: calls.every((call) => seen.has(call.outcome)),
    normalizedText: normalizeText(step.text),
    finishReason: step.finishReason,
    sums: {
      inputTokens: sum('inputTokens'),
      outputTokens: sum('outputTokens'),
      totalTokens: sum('totalTokens'),
      costUsd: sum('costUsd'),
      durationMs: sum('durationMs'),
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Options, with the README's defaults.

interface BudgetRule {
  readonly metric: BudgetMetric;
  readonly code: string;
  readonly label: string;
  readonly limit: number;
  readonly warnAt: number | undefined;
}

interface ReferenceOptions {
  readonly maxSteps: number | false;
  readonly repeatedToolCall: { threshold: number; requireIdenticalResults: boolean; ignoreErrors: boolean; warnBefore: number | false } | false;
  readonly oscillation: { maxPeriod: number; repeats: number; requireIdenticalResults: boolean; warnBefore: number | false } | false;
  readonly noProgress: { threshold: number; warnBefore: number | false } | false;
  readonly stagnation: { window: number; maxNew: number; writeArgsLength: number; warnBefore: number | false } | false;
  readonly finishReason: { terminal: readonly string[]; otherPolicy: OtherPolicy } | false;
  readonly budget: readonly BudgetRule[] | false;
  readonly custom: readonly CustomDetector[];
  readonly now: () => number;
  readonly historyLimit: number | undefined;
}

/** Budget options in the order the README checks them. */
const BUDGET_ORDER = [
  { option: 'maxTotalTokens', metric: 'totalTokens', code: 'BUDGET_TOTAL_TOKENS', label: 'Total tokens' },
  { option: 'maxInputTokens', metric: 'inputTokens', code: 'BUDGET_INPUT_TOKENS', label: 'Input tokens' },
  { option: 'maxOutputTokens', metric: 'outputTokens', code: 'BUDGET_OUTPUT_TOKENS', label: 'Output tokens' },
  { option: 'maxCostUsd', metric: 'costUsd', code: 'BUDGET_COST_USD', label: 'Cost in USD' },
  { option: 'maxDurationMs', metric: 'durationMs', code: 'BUDGET_DURATION_MS', label: 'Duration in ms' },
] as const;

/** Reads options the differential test builds (always valid ones: option checking has tests of its own). */
function readOptions(options: GuardOptions): ReferenceOptions {
  const repeated = options.repeatedToolCall;
  const oscillation = options.oscillation;
  const noProgress = options.noProgress;
  const stagnation = options.stagnation;
  const finish = options.finishReason;
  const budget = options.budget;
  const custom = options.custom;
  return {
    maxSteps: options.maxSteps ?? 50,
    repeatedToolCall:
      repeated === false
        ? false
        : {
            threshold: repeated?.threshold ?? 3,
            requireIdenticalResults: repeated?.requireIdenticalResults ?? true,
            ignoreErrors: repeated?.ignoreErrors ?? false,
            warnBefore: repeated?.warnBefore ?? 1,
          },
    oscillation:
      oscillation === false
        ? false
        : {
            maxPeriod: oscillation?.maxPeriod ?? 3,
            repeats: oscillation?.repeats ?? 3,
            requireIdenticalResults: oscillation?.requireIdenticalResults ?? true,
            warnBefore: oscillation?.warnBefore ?? 1,
          },
    noProgress: noProgress === false ? false : { threshold: noProgress?.threshold ?? 3, warnBefore: noProgress?.warnBefore ?? 1 },
    stagnation:
      stagnation === false
        ? false
        : {
            window: stagnation?.window ?? 20,
            // The default, 9, stays below a smaller window.
            maxNew: stagnation?.maxNew ?? Math.min(9, (stagnation?.window ?? 20) - 1),
            writeArgsLength: stagnation?.writeArgsLength ?? 70,
            warnBefore: stagnation?.warnBefore ?? 1,
          },
    finishReason:
      finish === false
        ? false
        : {
            terminal: (finish?.terminal ?? ['stop', 'length', 'content-filter', 'error']).map(normalizeFinishReason),
            otherPolicy: finish?.otherPolicy ?? 'stop-if-text-only',
          },
    budget:
      budget === false
        ? false
        : BUDGET_ORDER.flatMap(({ option, metric, code, label }) => {
            const given: BudgetLimit | undefined = budget?.[option];
            if (given === undefined) return [];
            const limit = typeof given === 'number' ? given : given.limit;
            const warnAt = (typeof given === 'number' ? undefined : given.warnAt) ?? budget?.warnAt;
            return [{ metric, code, label, limit, warnAt }];
          }),
    custom: custom === undefined ? [] : typeof custom === 'function' ? [custom] : [...custom],
    now: options.now ?? Date.now,
    historyLimit: options.historyLimit === false ? undefined : options.historyLimit,
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// The detectors, each a function of everything recorded so far.

interface Finding {
  readonly code: string;
  readonly detail: string;
  readonly evidence: unknown;
}

/** Every call of the run, in order, parallel calls one by one. */
function callSequence(steps: readonly RecordedStep[]): RecordedCall[] {
  return steps.flatMap((recorded) => recorded.calls);
}

function finishReasonFinding(
  options: { terminal: readonly string[]; otherPolicy: OtherPolicy },
  current: RecordedStep,
): Finding | undefined {
  const finishReason = current.finishReason;
  if (finishReason === undefined) return undefined;
  const normalized = normalizeFinishReason(finishReason);
  if (normalized === '') return undefined;
  const hasText = current.normalizedText !== '';
  const toolCallCount = current.calls.length;
  const policy = options.otherPolicy;
  const meaning = meaningOf(normalized);
  // A provider's clean finish with tool calls means tool calls; the spec's own `stop` stays terminal.
  const readAsCalls = meaning === 'stop' && toolCallCount > 0 && finishReason !== 'stop';
  const mapped = readAsCalls ? 'tool-calls' : meaning;
  const named = mapped === normalized ? `"${normalized}"` : `"${normalized}", read as "${mapped}"`;
  const evidence = { finishReason, normalized, mapped, policy, hasText, toolCallCount };
  if (options.terminal.includes(mapped) || (!readAsCalls && options.terminal.includes(normalized))) {
    return {
      code: 'FINISH_TERMINAL',
      // Detail sentences are not in the README; these are the guard's.
      detail:
        mapped === 'stop'
          ? `The model finished its answer (finish reason ${named}).`
          : `The step ended with the terminal finish reason ${named}.`,
      evidence,
    };
  }
  if (mapped === 'tool-calls' || policy === 'continue') return undefined;
  if (policy === 'stop') {
    return {
      code: 'FINISH_OTHER',
      detail: `The step ended with the unfamiliar finish reason ${named}, and the policy is to stop on those.`,
      evidence,
    };
  }
  if (!hasText || toolCallCount > 0) return undefined;
  return {
    code: 'FINISH_OTHER_TEXT_ONLY',
    detail: `A text-only step ended with the unfamiliar finish reason ${named}; a loop that only treats "stop" as done would ask again.`,
    evidence,
  };
}

/** The detail sentences show figures rounded to four decimals (the guard's formula; the README does not say). */
function show(value: number): string {
  return value >= 1e12 ? String(value) : String(Math.round(value * 10_000) / 10_000);
}

/** The run's totals: the running sums after the last step. */
function runTotals(steps: readonly RecordedStep[]): Record<BudgetMetric, number> {
  const last = steps.at(-1);
  const total = (metric: BudgetMetric): number => last?.sums[metric] ?? 0;
  return {
    inputTokens: total('inputTokens'),
    outputTokens: total('outputTokens'),
    totalTokens: total('totalTokens'),
    costUsd: total('costUsd'),
    durationMs: total('durationMs'),
  };
}

function budgetFindings(
  rules: readonly BudgetRule[],
  totals: Record<BudgetMetric, number>,
  elapsedMs: number,
): { stop: Finding | undefined; warnings: GuardWarning[] } {
  let stop: Finding | undefined;
  const warnings: GuardWarning[] = [];
  for (const { metric, code, label, limit, warnAt } of rules) {
    const value = metric === 'durationMs' ? Math.max(totals.durationMs, elapsedMs) : totals[metric];
    if (value >= limit) {
      stop ??= {
        code,
        detail: `${label} reached ${show(value)}, at or over the limit of ${show(limit)}.`,
        evidence: { metric, value, limit },
      };
    } else if (warnAt !== undefined && value >= roundedProduct(warnAt, limit)) {
      const ratio = value / limit;
      warnings.push({
        code: 'BUDGET_WARNING',
        metric,
        value,
        limit,
        ratio,
        // The percentage is the guard's formula (floored); the README does not say.
        detail: `${label} is at ${show(value)} of a ${show(limit)} limit (${String(Math.floor(ratio * 100))}%).`,
      });
    }
  }
  return { stop, warnings };
}

function maxStepsFinding(limit: number, index: number): Finding | undefined {
  const steps = index + 1;
  if (steps < limit) return undefined;
  return {
    code: 'MAX_STEPS',
    detail: `The run has taken ${String(steps)} ${steps === 1 ? 'step' : 'steps'}, reaching its limit of ${String(limit)}.`,
    evidence: { steps, limit },
  };
}

/** Evidence lists the latest 100 step indexes at most. */
const STEP_INDEXES_KEPT = (): number => 100;

/**
 * How many calls in a row, ending at `end`, are one repeat: each with the signature of the one before it and, with
 * `requireIdenticalResults`, its answer too (a call that has not run is predicted to get the answer the call before it
 * got).
 */
function runLengthAt(sequence: readonly RecordedCall[], end: number, requireIdenticalResults: boolean): number {
  if (sequence[end] === undefined) return 0;
  let start = end;
  while (start > 0 && extendsRepeat(sequence[start - 1], sequence[start], requireIdenticalResults)) start--;
  return end - start + 1;
}

/** Whether a call carries on the repeat of the call before it. */
function extendsRepeat(before: RecordedCall | undefined, call: RecordedCall | undefined, requireIdenticalResults: boolean): boolean {
  if (before === undefined || call === undefined) return false;
  if (before.signature !== call.signature) return false;
  return !requireIdenticalResults || call.pending === true || before.answer === call.answer;
}

function repeatedToolCallSequence(options: { ignoreErrors: boolean }, sequence: readonly RecordedCall[]): RecordedCall[] {
  return sequence.filter((call) => !(options.ignoreErrors && call.failed));
}

/** Whether every call of a run got the answer the call before it got. */
function identicalAnswers(run: readonly RecordedCall[]): boolean {
  return run.every((entry, position) => position === 0 || entry.pending === true || entry.answer === run[position - 1]?.answer);
}

/** The repeat finding for the run of `count` calls ending at `position`. */
function repeatFinding(calls: readonly RecordedCall[], position: number, count: number, threshold: number): Finding {
  const run = calls.slice(position - count + 1, position + 1);
  const [first] = run as [RecordedCall];
  const stepIndexes = [...new Set(run.map((entry) => entry.stepIndex))].slice(-STEP_INDEXES_KEPT());
  const identicalResults = identicalAnswers(run);
  return {
    code: 'REPEATED_TOOL_CALL',
    detail: `The model called "${first.name}" ${String(count)} times in a row with the same arguments: ${first.name}(${first.argsPreview}).`,
    evidence: { tool: first.name, argsPreview: first.argsPreview, count, threshold, stepIndexes, identicalResults },
  };
}

function repeatedToolCallFinding(
  options: { threshold: number; requireIdenticalResults: boolean; ignoreErrors: boolean },
  sequence: readonly RecordedCall[],
  index: number,
): Finding | undefined {
  const calls = repeatedToolCallSequence(options, sequence);
  const { threshold } = options;
  let found: Finding | undefined;
  // Judged after each call of this step that is in the sequence; the last moment the run is long enough is reported.
  calls.forEach((call, position) => {
    if (call.stepIndex !== index) return;
    const count = runLengthAt(calls, position, options.requireIdenticalResults);
    if (count >= threshold) found = repeatFinding(calls, position, count, threshold);
  });
  return found;
}

/**
 * Whether a call repeats the call a cycle before it: the same signature and, with `requireIdenticalResults`, the same
 * answer (a call that has not run is predicted to get it).
 */
function repeatsCall(call: RecordedCall | undefined, earlier: RecordedCall | undefined, requireIdenticalResults: boolean): boolean {
  if (call === undefined || earlier === undefined) return false;
  if (call.signature !== earlier.signature) return false;
  return !requireIdenticalResults || call.pending === true || earlier.pending === true || call.answer === earlier.answer;
}

/** How many calls in a row, ending at `end`, repeat the call `period` places before them. */
function matchedRun(calls: readonly RecordedCall[], end: number, period: number, requireIdenticalResults: boolean): number {
  let run = 0;
  while (end - run - period >= 0 && repeatsCall(calls[end - run], calls[end - run - period], requireIdenticalResults)) run++;
  return run;
}

/**
 * The smallest period `p` for which the calls up to `end` finish with `repeats` copies of their last `p` calls (each
 * call repeating the one `p` before it), those `p` not all one call.
 */
function cycleAt(calls: readonly RecordedCall[], end: number, maxPeriod: number, repeats: number, requireIdenticalResults: boolean): number | undefined {
  for (let period = 2; period <= maxPeriod; period++) {
    if (end + 1 - period * repeats < 0) continue;
    const cycle = calls.slice(end + 1 - period, end + 1).map((call) => call.signature);
    if (cycle.every((signature) => signature === cycle[0])) continue;
    if (matchedRun(calls, end, period, requireIdenticalResults) >= period * (repeats - 1)) return period;
  }
  return undefined;
}

/** Full copies of the last `period` calls found at the end of the calls up to `end`. */
function fullCycles(calls: readonly RecordedCall[], end: number, period: number, requireIdenticalResults: boolean): number {
  return Math.floor(matchedRun(calls, end, period, requireIdenticalResults) / period) + 1;
}

function oscillationFinding(
  options: { maxPeriod: number; repeats: number; requireIdenticalResults: boolean },
  calls: readonly RecordedCall[],
  index: number,
): Finding | undefined {
  let found: Finding | undefined;
  calls.forEach((call, position) => {
    if (call.stepIndex !== index) return;
    const period = cycleAt(calls, position, options.maxPeriod, options.repeats, options.requireIdenticalResults);
    if (period === undefined) return;
    const cycle = calls.slice(position + 1 - period, position + 1).map((entry) => `${entry.name}(${entry.argsPreview})`);
    const seen = fullCycles(calls, position, period, options.requireIdenticalResults);
    found = {
      code: 'OSCILLATION',
      detail: `The last ${String(seen * period)} tool calls cycle through the same ${String(period)} calls ${String(seen)} times: ${cycle.join(' → ')}.`,
      evidence: { period, repeats: seen, threshold: options.repeats, cycle },
    };
  });
  return found;
}

/** Consecutive stalled steps ending at the last one whose normalised text is that of the last one. */
function stalledRun(steps: readonly RecordedStep[]): number {
  const text = steps.at(-1)?.normalizedText;
  let count = 0;
  for (let at = steps.length - 1; at >= 0 && steps[at]?.normalizedText === text && steps[at]?.stalled === true; at--) count++;
  return count;
}

function noProgressFinding(threshold: number, steps: readonly RecordedStep[]): Finding | undefined {
  const count = stalledRun(steps);
  if (count < threshold) return undefined;
  const textPreview = preview(steps.at(-1)?.normalizedText ?? '');
  return {
    code: 'NO_PROGRESS',
    detail:
      textPreview === ''
        ? `${String(count)} steps in a row brought no new tool result.`
        : `${String(count)} steps in a row repeated the same text with no new tool result: "${textPreview}".`,
    evidence: { steps: count, threshold, textPreview },
  };
}

// Loop warnings: the README's "warnBefore" repetitions before a stop, each with a message for the model.

/**
 * A tool as the docs say a message for the model may name it: by its name when that is a plain identifier of at most
 * 64 characters (letters, digits, `_`, `.`, `:`, `-`), else as "a tool".
 */
function toolLabel(name: string): string {
  return /^[A-Za-z0-9_.:-]{1,64}$/.test(name) ? name : 'a tool';
}

/** At most three distinct tool labels, then "and others". */
function toolList(names: readonly string[]): string {
  const labels = [...new Set(names.map(toolLabel))];
  return labels.length > 3 ? `${labels.slice(0, 3).join(', ')} and others` : labels.join(', ');
}

function loopWarning(reason: LoopReason, detail: string, message: string, evidence: unknown): GuardWarning {
  return { code: 'LOOP_WARNING', reason, detail, message, evidence } as GuardWarning;
}

function repeatedToolCallWarning(
  options: { threshold: number; requireIdenticalResults: boolean; ignoreErrors: boolean; warnBefore: number | false },
  sequence: readonly RecordedCall[],
  current: RecordedStep,
): GuardWarning | undefined {
  if (options.warnBefore === false || current.calls.length === 0) return undefined;
  const calls = repeatedToolCallSequence(options, sequence);
  const count = runLengthAt(calls, calls.length - 1, options.requireIdenticalResults);
  const { threshold } = options;
  if (count < Math.max(2, threshold - options.warnBefore) || count >= threshold) return undefined;
  const run = calls.slice(-count);
  const [first] = run as [RecordedCall];
  const identicalResults = identicalAnswers(run);
  const stepIndexes = [...new Set(run.map((entry) => entry.stepIndex))].slice(-STEP_INDEXES_KEPT());
  return loopWarning(
    'repeated-tool-call',
    `The model called "${first.name}" ${String(count)} times in a row with the same arguments; ${String(threshold)} in a row stop the run.`,
    `You have called ${toolLabel(first.name)} ${String(count)} times in a row with the same arguments${identicalResults ? ' and got the same result each time' : ''}. ` +
      'Calling it again will not tell you anything new: use what it returned, change the arguments, or try a different tool.',
    { tool: first.name, argsPreview: first.argsPreview, count, threshold, stepIndexes, identicalResults },
  );
}

function oscillationWarning(
  options: { maxPeriod: number; repeats: number; requireIdenticalResults: boolean; warnBefore: number | false },
  calls: readonly RecordedCall[],
  current: RecordedStep,
): GuardWarning | undefined {
  if (options.warnBefore === false || current.calls.length === 0) return undefined;
  const warnFrom = Math.max(2, options.repeats - options.warnBefore);
  if (warnFrom >= options.repeats) return undefined;
  const end = calls.length - 1;
  const period = cycleAt(calls, end, options.maxPeriod, warnFrom, options.requireIdenticalResults);
  if (period === undefined) return undefined;
  const labels = calls.slice(end + 1 - period).map((entry) => `${entry.name}(${entry.argsPreview})`);
  const seen = fullCycles(calls, end, period, options.requireIdenticalResults);
  const names = calls.slice(end + 1 - period).map((entry) => entry.name);
  return loopWarning(
    'oscillation',
    `The last ${String(seen * period)} tool calls cycle through the same ${String(period)} calls ${String(seen)} times in a row: ${labels.join(' → ')}; ${String(options.repeats)} cycles stop the run.`,
    `You have gone through the same ${String(period)} calls (to ${toolList(names)}) ${String(seen)} times in a row. Going round again will not get you anywhere new: try a different approach, or answer with what you have.`,
    { period, repeats: seen, threshold: options.repeats, cycle: labels },
  );
}

function noProgressWarning(options: { threshold: number; warnBefore: number | false }, steps: readonly RecordedStep[]): GuardWarning | undefined {
  if (options.warnBefore === false) return undefined;
  const count = stalledRun(steps);
  const { threshold } = options;
  if (count < Math.max(1, threshold - options.warnBefore) || count >= threshold) return undefined;
  const textPreview = preview(steps.at(-1)?.normalizedText ?? '');
  return loopWarning(
    'no-progress',
    `${count === 1 ? 'A step' : `${String(count)} steps in a row`} brought no new tool result${textPreview === '' ? '' : ' with the same text'}; ${String(threshold)} stop the run.`,
    `${count === 1 ? 'Your last step' : `Your last ${String(count)} steps`} brought no new tool result${textPreview === '' || count === 1 ? '' : ' and said the same thing'}. Doing the same again will not help: try a different approach, or answer with what you have.`,
    { steps: count, threshold, textPreview },
  );
}

/**
 * Whether running a call now (after the calls recorded so far) would complete a repeat or a cycle: judged from its
 * name and arguments alone, as a call whose result is not in yet.
 */
function refusal(settings: ReferenceOptions, sequence: readonly RecordedCall[], call: RecordedCall): Finding | undefined {
  // Without a result or an error, the outcome is the call itself; its answer is predicted, never compared.
  const outcome = JSON.stringify([...(JSON.parse(call.signature) as [string, string]), '']);
  const untried: RecordedCall = {
    ...call,
    outcome,
    failed: false,
    resultText: undefined,
    resultIsText: false,
    errorText: undefined,
    errorIsText: false,
    answer: '',
    pending: true,
  };
  const repeated = settings.repeatedToolCall;
  if (repeated !== false) {
    const calls = repeatedToolCallSequence(repeated, [...sequence, untried]);
    const count = runLengthAt(calls, calls.length - 1, repeated.requireIdenticalResults);
    if (count >= repeated.threshold) return repeatFinding(calls, calls.length - 1, count, repeated.threshold);
  }
  const oscillation = settings.oscillation;
  if (oscillation === false) return undefined;
  const calls = [...sequence, untried];
  const end = calls.length - 1;
  const period = cycleAt(calls, end, oscillation.maxPeriod, oscillation.repeats, oscillation.requireIdenticalResults);
  if (period === undefined) return undefined;
  const cycle = calls.slice(end + 1 - period).map((entry) => `${entry.name}(${entry.argsPreview})`);
  const seen = fullCycles(calls, end, period, oscillation.requireIdenticalResults);
  return {
    code: 'OSCILLATION',
    detail: `The last ${String(seen * period)} tool calls cycle through the same ${String(period)} calls ${String(seen)} times: ${cycle.join(' → ')}.`,
    evidence: { period, repeats: seen, threshold: oscillation.repeats, cycle },
  };
}

/** What one custom rule asked for, read the way the README describes, or `undefined` to go on. */
/** Phrases of a text answer that say the call failed or found nothing, looked for in its first 300 characters. */
const FAILURE_PHRASES: readonly RegExp[] = [
  /\bno (?:such|match|matches|results?|files?|entries|items|records|hits|data)\b/i,
  /\b(?:not|nothing) found\b/i,
  /\bfound 0\b/i,
  /\b0 (?:matches|results|hits|files|items|records|entries)\b/i,
  /\bdo(?:es)?(?:n't| not) exist\b/i,
  /\bsyntax error\b/i,
  /\bunexpected (?:eof|end of file|token)\b/i,
  /\busage:/i,
  /\btraceback\b/i,
  /\b[a-z]*(?:error|exception)\s?:/i,
  /\b(?:failed|unable) to\b/i,
  /\b(?:cannot|can't|could not|couldn't)\b/i,
  /\binvalid\b/i,
  /\b(?:permission|access) denied\b/i,
  /\bnot (?:allowed|permitted|supported)\b/i,
  /\bunknown (?:command|option|tool|function|argument|parameter)\b/i,
  /\btimed out\b/i,
];

/** A JSON value that says there is none. */
function isNone(value: unknown): boolean {
  if (value === null || value === false || value === 0 || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

const isEmptyList = (value: unknown): boolean => Array.isArray(value) && value.length === 0;

/** The keys whose empty list says nothing was found, rather than that the call failed. */
const FAILURE_KEYS_OF_LISTS = new Set(['results', 'matches', 'hits', 'items', 'records', 'rows', 'entries', 'documents']);

/** Top-level keys (lower-cased) that make a JSON answer a failure, given what their value says. */
const FAILURE_KEYS: Readonly<Record<string, (value: unknown) => boolean>> = {
  error: (value) => !isNone(value),
  errors: (value) => !isNone(value),
  exception: (value) => !isNone(value),
  iserror: (value) => value === true,
  success: (value) => value === false,
  ok: (value) => value === false,
  status: (value) => typeof value === 'string' && value.toLowerCase() === 'error',
  results: isEmptyList,
  matches: isEmptyList,
  hits: isEmptyList,
  items: isEmptyList,
  records: isEmptyList,
  rows: isEmptyList,
  entries: isEmptyList,
  documents: isEmptyList,
};

/**
 * The README's kinds of answer, plainly: empty (no letter or digit outside tags, in the part a shape reads), a
 * failure (JSON by its top-level keys, parsed whole; other text by the phrases above), or an answer. The guard reads
 * only the first 512 characters of JSON for keys; no generated answer that opens like JSON is that long.
 */
function answerKindOf(text: string, structured: boolean): 'empty' | 'failure' | 'answer' {
  const read = text.length <= 8192 ? text : `${text.slice(0, 4096)} ${text.slice(-4096)}`;
  if (isContentless(text) && !/[0-9]/.test(read)) return 'empty';
  if (structured || /^\s*(?:\{\s*["}]|\[\s*[[{"\]0-9-])/.test(text)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return 'answer';
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'answer';
    return Object.entries(value).some(([key, item]) => FAILURE_KEYS[key.toLowerCase()]?.(item) === true) ? 'failure' : 'answer';
  }
  const head = text.slice(0, 300);
  return FAILURE_PHRASES.some((phrase) => phrase.test(head)) ? 'failure' : 'answer';
}

/**
 * The canonical text of a structured failure's telling fields: those that say it failed, or, when none does, those
 * that say it found nothing.
 */
function failureFields(json: string): string {
  const entries = Object.entries(JSON.parse(json) as Record<string, unknown>).filter(([key, item]) => FAILURE_KEYS[key.toLowerCase()]?.(item) === true);
  const failed = entries.filter(([key]) => !FAILURE_KEYS_OF_LISTS.has(key.toLowerCase()));
  return canonicalize(Object.fromEntries(failed.length > 0 ? failed : entries));
}

/** The words of the arguments' preview, keys and escapes aside: what a failure may echo back. */
function argumentWords(argsPreview: string): Set<string> {
  const withoutKeys = argsPreview.replace(/"(?:[^"\\\n]|\\.)*":/g, ' ');
  return new Set(withoutKeys.split(/\\.|[^A-Za-z0-9_]+/).filter((word) => word !== ''));
}

/** A failure's shape, with the words it echoes from the arguments blanked too. */
function failureShape(text: string, argsPreview: string): string {
  const words = argumentWords(argsPreview);
  return answerShape(text).replace(/[A-Za-z0-9_]+/g, (word) => (words.has(word) && !/[0-9]/.test(word) ? '0' : word));
}

/** What a call's answer is compared by (the README's "answer key"), in full text. */
function answerOf(call: RecordedCall, writeArgsLength: number): { key: string; shape: string } {
  if (call.resultText === undefined && call.errorText === undefined) return { key: `call ${call.signature}`, shape: '' };
  const result = call.resultText ?? '';
  if (call.errorText === undefined) {
    const kind = answerKindOf(result, !call.resultIsText);
    // A failure by its shape, whatever the call; an answer with the call; an empty answer to a long call (a write)
    // with the call, to a short one as it is.
    if (kind === 'failure') {
      // Structured data by the top-level fields that say so, whatever else it holds.
      const shape = failureShape(call.resultIsText ? result : failureFields(result), call.argsPreview);
      return { key: `${call.resultIsText ? 'text' : 'data'} failure ${shape}`, shape };
    }
    if (kind === 'answer' || call.argsLength >= writeArgsLength) return { key: `outcome ${call.outcome}`, shape: result };
    return { key: `empty ${call.resultIsText ? 'text' : 'data'} ${result}`, shape: result };
  }
  // A failed call: text by its shape; structured data (not a string) as it is.
  const resultShape = call.resultIsText ? failureShape(result, call.argsPreview) : result;
  const errorShape = call.errorIsText ? failureShape(call.errorText, call.argsPreview) : call.errorText;
  const shape = `${resultShape}${resultShape === '' ? '' : ' '}error: ${errorShape}`;
  const kind = `${call.resultIsText ? 'text' : 'data'} ${call.errorIsText ? 'text error' : 'data error'}`;
  return { key: `${kind} ${String(resultShape.length)} ${shape}`, shape };
}

interface StagnationEntry {
  readonly step: number;
  readonly isNew: boolean;
  readonly calls: readonly { readonly call: RecordedCall; readonly key: string; readonly shape: string }[];
}

/**
 * The stagnation window worked out again from the whole run: every call's answer, whether it was new (not brought by
 * an earlier call, or with `historyLimit` by one of the last that many steps, this one included), which calls count
 * (not one repeating the call just before it without news), and the entries of the steps with such calls.
 */
function stagnationEntries(writeArgsLength: number, steps: readonly RecordedStep[], memory: number | undefined): {
  entries: StagnationEntry[];
  answers: Map<string, number>;
} {
  const answers = new Map<string, number>();
  const entries: StagnationEntry[] = [];
  let previous: string | undefined;
  steps.forEach((recorded, index) => {
    const kept: StagnationEntry['calls'][number][] = [];
    let isNew = false;
    for (const call of recorded.calls) {
      const { key, shape } = answerOf(call, writeArgsLength);
      const last = answers.get(key);
      const fresh = last === undefined || (memory !== undefined && last < index - memory);
      answers.set(key, index);
      const repeat = call.signature === previous && !fresh;
      previous = call.signature;
      if (repeat) continue;
      if (fresh) isNew = true;
      kept.push({ call, key, shape });
    }
    if (kept.length > 0) entries.push({ step: index, isNew, calls: kept });
  });
  return { entries, answers };
}

/** The most frequent items, at most three, ties in order of first appearance. */
function topThree<T>(items: readonly T[], keyOf: (item: T) => string): { item: T; count: number }[] {
  const counts = new Map<string, { item: T; count: number }>();
  for (const item of items) {
    const key = keyOf(item);
    const counted = counts.get(key);
    if (counted === undefined) counts.set(key, { item, count: 1 });
    else counted.count++;
  }
  return [...counts.values()].sort((left, right) => right.count - left.count).slice(0, 3);
}

function stagnationJudgement(
  options: { window: number; maxNew: number; writeArgsLength: number; warnBefore: number | false },
  steps: readonly RecordedStep[],
  memory: number | undefined,
): { finding?: Finding; warning?: GuardWarning } {
  const { entries } = stagnationEntries(options.writeArgsLength, steps, memory);
  const index = steps.length - 1;
  if (entries.at(-1)?.step !== index || entries.length < options.window) return {};
  const window = entries.slice(-options.window);
  const newOutcomes = window.filter((entry) => entry.isNew).length;
  const warnUpTo = options.warnBefore === false ? options.maxNew : options.maxNew + options.warnBefore;
  if (newOutcomes > warnUpTo) return {};
  const calls = window.flatMap((entry) => entry.calls);
  const topCalls = topThree(calls, (entry) => entry.call.signature).map(({ item, count }) => ({
    tool: item.call.name,
    argsPreview: item.call.argsPreview,
    count,
  }));
  const answerTop = topThree(calls, (entry) => entry.key);
  const topAnswers = answerTop.map(({ item, count }) => ({ shapePreview: preview(item.shape), count }));
  const [call] = topCalls as [(typeof topCalls)[number]];
  const [answer] = topAnswers as [(typeof topAnswers)[number]];
  const most =
    call.count >= answer.count
      ? `${call.tool}(${call.argsPreview}) was called ${call.count === 1 ? 'once' : `${String(call.count)} times`}`
      : `the same answer came back ${String(answer.count)} times: "${answer.shapePreview}"`;
  // The model hears of a tool by a plain name and of an answer by its kind, never by words a tool wrote.
  const answerKey = answerTop[0]?.item.key ?? '';
  const kind = answerKey.startsWith('empty ') ? 'the same empty result' : /^(?:text|data) failure /.test(answerKey) ? 'the same failure' : 'the same error';
  const mostForModel =
    call.count >= answer.count
      ? `${toolLabel(call.tool)} was called ${call.count === 1 ? 'once' : `${String(call.count)} times`}`
      : `${kind} came back ${String(answer.count)} times`;
  const evidence = {
    window: options.window,
    maxNew: options.maxNew,
    newOutcomes,
    calls: topCalls,
    answers: topAnswers,
    callCount: calls.length,
    distinctCalls: new Set(calls.map((entry) => entry.call.signature)).size,
    stepIndexes: window.slice(-100).map((entry) => entry.step),
  };
  const share = `${String(newOutcomes)} of the last ${String(options.window)} steps with tool calls`;
  if (newOutcomes > options.maxNew) {
    return {
      warning: loopWarning(
        'stagnation',
        `Only ${share} brought an answer not seen before in this run; ${most}. ${String(options.maxNew)} or fewer stop the run.`,
        `Only ${share} brought you an answer you had not seen before; ${mostForModel}. Searching the same way is not finding anything new: change your approach, or answer with what you have.`,
        evidence,
      ),
    };
  }
  return { finding: { code: 'STAGNATION', detail: `Only ${share} brought an answer not seen before in this run; ${most}.`, evidence } };
}

function stagnationState(
  options: { window: number; maxNew: number; writeArgsLength: number; warnBefore: number | false },
  steps: readonly RecordedStep[],
  memory: number | undefined,
): JsonValue {
  const { entries, answers } = stagnationEntries(options.writeArgsLength, steps, memory);
  const window = entries.slice(-options.window);
  // With a memory, answers are forgotten when a later step with calls is read: counted as of the last such step.
  const lastWithCalls = steps.reduce((last, recorded, index) => (recorded.calls.length > 0 ? index : last), -1);
  // Answers compared with their call (`call …`, `outcome …`) are outcomes, which noProgress counts: only the others.
  const remembered = [...answers]
    .filter(([key]) => !key.startsWith('call ') && !key.startsWith('outcome '))
    .filter(([, last]) => memory === undefined || last >= lastWithCalls - memory).length;
  return {
    window: options.window,
    maxNew: options.maxNew,
    steps: window.length,
    newInWindow: window.filter((entry) => entry.isNew).length,
    distinctFailures: remembered,
  };
}

function customFinding(result: unknown): Finding | undefined {
  if (result === null || typeof result !== 'object') return undefined;
  const { stop, code, detail, evidence } = result as { stop?: unknown; code?: unknown; detail?: unknown; evidence?: unknown };
  if (stop !== true) return undefined;
  return {
    // The README gives the defaults for absent fields; an empty or non-string one gets them too, as in the guard.
    code: typeof code === 'string' && code !== '' ? code : 'CUSTOM',
    detail: typeof detail === 'string' && detail !== '' ? detail : 'A custom detector stopped the run.',
    evidence: evidence === undefined ? {} : evidence,
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Summary state. The README only says `detectors` holds "each enabled detector's state by its reason name"; the shapes
// (and their key order) are the guard's.

function repeatedToolCallState(
  options: { threshold: number; requireIdenticalResults: boolean; ignoreErrors: boolean },
  sequence: readonly RecordedCall[],
): JsonValue {
  const calls = repeatedToolCallSequence(options, sequence);
  const last = calls.length - 1;
  const count = runLengthAt(calls, last, options.requireIdenticalResults);
  return { tool: calls[last]?.name ?? null, count, threshold: options.threshold };
}

function oscillationState(options: { maxPeriod: number; repeats: number; requireIdenticalResults: boolean }, calls: readonly RecordedCall[]): JsonValue {
  let longestMatch = 0;
  // Calls in a row, up to the latest, repeating the call `period` places before them.
  for (let period = 2; period <= options.maxPeriod; period++) longestMatch = Math.max(longestMatch, matchedRun(calls, calls.length - 1, period, options.requireIdenticalResults));
  return { maxPeriod: options.maxPeriod, repeats: options.repeats, longestMatch };
}

function noProgressState(threshold: number, steps: readonly RecordedStep[], window: number | undefined): JsonValue {
  const stalled = stalledRun(steps);
  // Without a window: every distinct outcome of the run. With one, the guard forgets lazily, when a step with calls
  // comes in; it then holds the outcomes of that step and the `window` steps before it. This copies that.
  let remembered: readonly RecordedStep[] = steps;
  if (window !== undefined) {
    let lastWithCalls = steps.length - 1;
    while (lastWithCalls >= 0 && steps[lastWithCalls]?.calls.length === 0) lastWithCalls--;
    remembered = lastWithCalls < 0 ? [] : steps.slice(Math.max(0, lastWithCalls - window), lastWithCalls + 1);
  }
  const distinctOutcomes = new Set(callSequence(remembered).map((call) => call.outcome)).size;
  return { stalledSteps: stalled, distinctOutcomes, threshold };
}

function lastFinishReason(steps: readonly RecordedStep[]): string | null {
  for (let at = steps.length - 1; at >= 0; at--) {
    const reason = steps[at]?.finishReason;
    if (reason !== undefined && normalizeFinishReason(reason) !== '') return normalizeFinishReason(reason);
  }
  return null;
}

/**
 * Verdict codes and details are one line of a log: every character that could break or recolour the line is written
 * as an escape (newline as `\\n`, others as `\\u` and four hex digits), as are unpaired surrogate halves.
 */
function escapeForLog(text: string): string {
  let out = '';
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const high = code >= 0xd800 && code <= 0xdbff;
    const low = code >= 0xdc00 && code <= 0xdfff;
    const next = text.charCodeAt(index + 1);
    if (high && next >= 0xdc00 && next <= 0xdfff) {
      out += text.slice(index, index + 2);
      index++;
      continue;
    }
    const control = code < 0x20 || (code >= 0x7f && code <= 0x9f) || [0x61c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069].includes(code);
    if (!control && !high && !low) out += text.charAt(index);
    else if (code === 10) out += '\\n';
    else if (code === 13) out += '\\r';
    else if (code === 9) out += '\\t';
    else out += `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------------
// The guard.

/** Everything about the run in progress; `reset()` starts a new one. */
/** The detectors in the order their stops win. */
const PRIORITY: readonly StopReason[] = ['finish-reason', 'budget', 'max-steps', 'repeated-tool-call', 'oscillation', 'no-progress', 'stagnation', 'custom'];

interface ReferenceRun {
  readonly steps: RecordedStep[];
  readonly startedAt: number;
  blockedBefore: boolean;
  stops: number;
  customStops: number;
  lastVerdict: Verdict | null;
  /** The fields already warned of as being in another shape: each once per run. */
  readonly warnedFields: Set<string>;
}

/**
 * A guard with the same public surface as `createGuard`'s, written straight from the documented semantics.
 * Slow on purpose: every check works each detector's answer out again from every recorded step.
 * @param options - valid guard options (they are not checked here)
 * @returns a guard to compare with the real one, step by step
 */
/** What the reference implements of a guard: recording steps, starting over, and reporting. */
export type ReferenceGuard = Pick<Guard, 'check' | 'reset' | 'summary' | 'history'>;

export function createReferenceGuard(options: GuardOptions = {}): ReferenceGuard {
  const settings = readOptions(options);
  const newRun = (): ReferenceRun => ({
    steps: [],
    startedAt: settings.now(),
    blockedBefore: false,
    stops: 0,
    customStops: 0,
    lastVerdict: null,
    warnedFields: new Set(),
  });
  let run = newRun();

  /** The steps `history` shows and custom rules receive. */
  const kept = (): readonly GuardStep[] => {
    const all = run.steps.map((recorded) => recorded.step);
    return Object.freeze(settings.historyLimit === undefined ? all : all.slice(-settings.historyLimit));
  };

  function check(raw: GuardStep): Verdict {
    const steps = run.steps;
    const index = steps.length;
    const current = recordStep(raw, steps, settings.historyLimit);
    steps.push(current);
    const calls = callSequence(steps);

    const findings: [StopReason, Finding | undefined][] = [];
    // Fields in another shape come first, each once a run.
    const shapes = shapeWarnings(raw).filter((warning) => !run.warnedFields.has(warning.field));
    for (const warning of shapes) run.warnedFields.add(warning.field);
    let warnings: GuardWarning[] = [];
    if (settings.finishReason !== false) findings.push(['finish-reason', finishReasonFinding(settings.finishReason, current)]);
    if (settings.budget !== false) {
      const elapsed = settings.now() - run.startedAt;
      const budget = budgetFindings(settings.budget, runTotals(steps), Number.isFinite(elapsed) ? elapsed : 0);
      findings.push(['budget', budget.stop]);
      warnings = budget.warnings;
    }
    if (settings.maxSteps !== false) findings.push(['max-steps', maxStepsFinding(settings.maxSteps, index)]);
    // A loop detector that does not stop may warn, in priority order after the budget's warnings.
    const loop = (reason: StopReason, finding: Finding | undefined, warning: () => GuardWarning | undefined): void => {
      findings.push([reason, finding]);
      const warned = finding === undefined ? warning() : undefined;
      if (warned !== undefined) warnings.push(warned);
    };
    const repeated = settings.repeatedToolCall;
    if (repeated !== false) {
      loop('repeated-tool-call', repeatedToolCallFinding(repeated, calls, index), () => repeatedToolCallWarning(repeated, calls, current));
    }
    const oscillation = settings.oscillation;
    if (oscillation !== false) loop('oscillation', oscillationFinding(oscillation, calls, index), () => oscillationWarning(oscillation, calls, current));
    const noProgress = settings.noProgress;
    if (noProgress !== false) loop('no-progress', noProgressFinding(noProgress.threshold, steps), () => noProgressWarning(noProgress, steps));
    if (settings.stagnation !== false) {
      const { finding, warning } = stagnationJudgement(settings.stagnation, steps, settings.historyLimit);
      loop('stagnation', finding, () => warning);
    }
    if (settings.custom.length > 0) {
      // Every rule sees every step, even after an earlier one asked to stop; the first to ask wins.
      const history = kept();
      const step = current.step;
      const asked = settings.custom.map((rule) => customFinding(rule(history, step)));
      const first = asked.find((finding) => finding !== undefined);
      if (first !== undefined) run.customStops++;
      findings.push(['custom', first]);
    }

    let winner = findings.find(([, finding]) => finding !== undefined);
    // Refused calls: the first the guard would refuse too, judged after the step's calls that ran. A second such
    // refusal in a run means the model persisted: it stops the run, unless something else already does.
    for (const call of current.blocked) {
      const refused = refusal(settings, calls, call);
      if (refused === undefined) continue;
      // A stop of a detector after the refused one in priority gives way to the refusal.
      const refusedBy: StopReason = refused.code === 'OSCILLATION' ? 'oscillation' : 'repeated-tool-call';
      const rank = (reason: StopReason): number => PRIORITY.indexOf(reason);
      if (run.blockedBefore && (winner === undefined || rank(winner[0]) > rank(refusedBy))) winner = [refusedBy, refused];
      run.blockedBefore = true;
      break;
    }
    // Warning details are one line of a log too.
    const all: GuardWarning[] = [...shapes, ...warnings];
    const extra = all.length === 0 ? {} : { warnings: all.map((warning) => ({ ...warning, detail: escapeForLog(warning.detail) })) };
    let verdict: Verdict;
    if (winner?.[1] === undefined) {
      verdict = { stop: false, ...extra };
    } else {
      const [reason, { code, detail, evidence }] = winner;
      verdict = { stop: true, reason, code: escapeForLog(code), detail: escapeForLog(detail), evidence, ...extra } as StopVerdict;
      run.stops++;
    }
    run.lastVerdict = verdict;
    return verdict;
  }

  function summary(): GuardSummary {
    const steps = run.steps;
    const calls = callSequence(steps);
    const detectors: Record<string, JsonValue> = {};
    if (settings.finishReason !== false) {
      detectors['finish-reason'] = { lastFinishReason: lastFinishReason(steps), otherPolicy: settings.finishReason.otherPolicy };
    }
    if (settings.budget !== false) {
      detectors.budget = { limits: settings.budget.map(({ metric, limit }) => ({ metric, limit })) };
    }
    if (settings.maxSteps !== false) detectors['max-steps'] = { steps: steps.length, limit: settings.maxSteps };
    if (settings.repeatedToolCall !== false) {
      detectors['repeated-tool-call'] = repeatedToolCallState(settings.repeatedToolCall, calls);
    }
    if (settings.oscillation !== false) detectors.oscillation = oscillationState(settings.oscillation, calls);
    if (settings.noProgress !== false) {
      detectors['no-progress'] = noProgressState(settings.noProgress.threshold, steps, settings.historyLimit);
    }
    if (settings.stagnation !== false) detectors.stagnation = stagnationState(settings.stagnation, steps, settings.historyLimit);
    if (settings.custom.length > 0) detectors.custom = { detectors: settings.custom.length, stops: run.customStops };
    return {
      steps: steps.length,
      toolCalls: calls.length,
      stops: run.stops,
      lastVerdict: run.lastVerdict,
      totals: runTotals(steps),
      detectors,
    };
  }

  return {
    check,
    reset(): void {
      run = newRun();
    },
    summary,
    get history(): readonly GuardStep[] {
      return kept();
    },
  };
}
