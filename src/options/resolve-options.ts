import { multiplyFigures } from '../guard/exact-sum.js';
import { isSafeInteger } from '../guard/safe-read.js';
import { DEFAULT_OPTIONS } from './default-options.js';
import { normalizeFinishReason } from '../detectors/normalize-finish-reason.js';
import {
  booleanOption,
  expectObject,
  integerOption,
  listOption,
  optionError,
  positiveNumber,
  ratioOption,
} from './option-errors.js';
import type { BudgetMetric, CustomDetector, OtherPolicy, StopCodes } from '../types.js';

/** One budget limit after validation. */
export interface ResolvedBudgetLimit {
  readonly metric: BudgetMetric;
  readonly code: StopCodes['budget'];
  readonly limit: number;
  /** Absent: no warnings for this limit. */
  readonly warnAt: number | undefined;
  /** `warnAt` times `limit` as decimals multiply: where warnings start. Absent without `warnAt`. */
  readonly warnFrom: number | undefined;
}

/** Options after validation, with every default filled in. Detectors trust these. */
export interface ResolvedOptions {
  readonly maxSteps: { readonly limit: number } | false;
  readonly repeatedToolCall:
    | { readonly threshold: number; readonly requireIdenticalResults: boolean; readonly ignoreErrors: boolean; readonly warnBefore: number | false }
    | false;
  readonly oscillation: { readonly maxPeriod: number; readonly repeats: number; readonly warnBefore: number | false } | false;
  readonly noProgress: { readonly threshold: number; readonly warnBefore: number | false } | false;
  readonly stagnation:
    | { readonly window: number; readonly maxNew: number; readonly writeArgsLength: number; readonly warnBefore: number | false }
    | false;
  readonly finishReason: { readonly terminal: readonly string[]; readonly otherPolicy: OtherPolicy } | false;
  readonly budget: { readonly limits: readonly ResolvedBudgetLimit[] } | false;
  readonly custom: readonly CustomDetector[];
  readonly now: () => number;
  /** Steps kept in history; `undefined` keeps every step. */
  readonly historyLimit: number | undefined;
}

/** Budget option names in the order limits are checked, with the metric and code each one maps to. */
const BUDGET_LIMITS = [
  ['maxTotalTokens', 'totalTokens', 'BUDGET_TOTAL_TOKENS'],
  ['maxInputTokens', 'inputTokens', 'BUDGET_INPUT_TOKENS'],
  ['maxOutputTokens', 'outputTokens', 'BUDGET_OUTPUT_TOKENS'],
  ['maxCostUsd', 'costUsd', 'BUDGET_COST_USD'],
  ['maxDurationMs', 'durationMs', 'BUDGET_DURATION_MS'],
] as const;

const OTHER_POLICIES: readonly OtherPolicy[] = ['stop', 'continue', 'stop-if-text-only'];

/**
 * The largest values of the options whose size costs work or memory on every check, so a typo cannot make each check
 * slow or exhaust the heap: oscillation looks back `maxPeriod` calls for every call; every custom rule runs on every
 * step; every terminal reason is normalised and kept.
 */
export const OPTION_MAXIMA = Object.freeze({
  oscillationMaxPeriod: 64,
  stagnationWindow: 1_000,
  warnBefore: 1_000,
  customRules: 1_000,
  terminalReasons: 1_000,
  terminalReasonLength: 1_000,
});

const TOP_LEVEL_KEYS = [
  'maxSteps',
  'repeatedToolCall',
  'oscillation',
  'noProgress',
  'stagnation',
  'finishReason',
  'budget',
  'custom',
  'now',
  'historyLimit',
];

/** `false` switches a detector off; `undefined` or `true` keep its defaults; an object tunes it. */
function section(path: string, value: unknown, known: readonly string[]): Record<string, unknown> | false {
  if (value === false) return false;
  if (value === undefined || value === true) return Object.create(null) as Record<string, unknown>;
  return expectObject(path, value, known);
}

/** How many repetitions before the stop a loop detector warns, or `false` for never. */
function warnBeforeOption(path: string, value: unknown, fallback: number): number | false {
  if (value === false) return false;
  return integerOption(path, value, 1, fallback, OPTION_MAXIMA.warnBefore);
}

function resolveMaxSteps(value: unknown): ResolvedOptions['maxSteps'] {
  if (value === false) return false;
  return { limit: integerOption('maxSteps', value, 1, DEFAULT_OPTIONS.maxSteps) };
}

function resolveRepeatedToolCall(value: unknown): ResolvedOptions['repeatedToolCall'] {
  const options = section('repeatedToolCall', value, ['threshold', 'requireIdenticalResults', 'ignoreErrors', 'warnBefore']);
  if (options === false) return false;
  const defaults = DEFAULT_OPTIONS.repeatedToolCall;
  return {
    threshold: integerOption('repeatedToolCall.threshold', options.threshold, 2, defaults.threshold),
    requireIdenticalResults: booleanOption(
      'repeatedToolCall.requireIdenticalResults',
      options.requireIdenticalResults,
      defaults.requireIdenticalResults,
    ),
    ignoreErrors: booleanOption('repeatedToolCall.ignoreErrors', options.ignoreErrors, defaults.ignoreErrors),
    warnBefore: warnBeforeOption('repeatedToolCall.warnBefore', options.warnBefore, defaults.warnBefore),
  };
}

function resolveOscillation(value: unknown): ResolvedOptions['oscillation'] {
  const options = section('oscillation', value, ['maxPeriod', 'repeats', 'warnBefore']);
  if (options === false) return false;
  const defaults = DEFAULT_OPTIONS.oscillation;
  return {
    maxPeriod: integerOption('oscillation.maxPeriod', options.maxPeriod, 2, defaults.maxPeriod, OPTION_MAXIMA.oscillationMaxPeriod),
    repeats: integerOption('oscillation.repeats', options.repeats, 2, defaults.repeats),
    warnBefore: warnBeforeOption('oscillation.warnBefore', options.warnBefore, defaults.warnBefore),
  };
}

function resolveNoProgress(value: unknown): ResolvedOptions['noProgress'] {
  const options = section('noProgress', value, ['threshold', 'warnBefore']);
  if (options === false) return false;
  const defaults = DEFAULT_OPTIONS.noProgress;
  return {
    threshold: integerOption('noProgress.threshold', options.threshold, 2, defaults.threshold),
    warnBefore: warnBeforeOption('noProgress.warnBefore', options.warnBefore, defaults.warnBefore),
  };
}

function resolveStagnation(value: unknown): ResolvedOptions['stagnation'] {
  const options = section('stagnation', value, ['window', 'maxNew', 'writeArgsLength', 'warnBefore']);
  if (options === false) return false;
  const defaults = DEFAULT_OPTIONS.stagnation;
  const window = integerOption('stagnation.window', options.window, 2, defaults.window, OPTION_MAXIMA.stagnationWindow);
  // Below the window, so a run whose every step brings a new answer can never stop.
  const maxNew = integerOption('stagnation.maxNew', options.maxNew, 0, Math.min(defaults.maxNew, window - 1), window - 1);
  return {
    window,
    maxNew,
    writeArgsLength: integerOption('stagnation.writeArgsLength', options.writeArgsLength, 0, defaults.writeArgsLength),
    warnBefore: warnBeforeOption('stagnation.warnBefore', options.warnBefore, defaults.warnBefore),
  };
}

function resolveFinishReason(value: unknown): ResolvedOptions['finishReason'] {
  const options = section('finishReason', value, ['terminal', 'otherPolicy']);
  if (options === false) return false;
  const defaults = DEFAULT_OPTIONS.finishReason;
  let terminal: readonly string[] = defaults.terminal;
  if (options.terminal !== undefined) {
    const list = listOption('finishReason.terminal', options.terminal, OPTION_MAXIMA.terminalReasons, 'an array of strings');
    terminal = list.map((reason, index) => {
      if (typeof reason !== 'string' || reason.length > OPTION_MAXIMA.terminalReasonLength) {
        optionError(`finishReason.terminal[${String(index)}]`, `a string of at most ${String(OPTION_MAXIMA.terminalReasonLength)} characters`, reason);
      }
      return normalizeFinishReason(reason);
    });
  }
  const otherPolicy = options.otherPolicy === undefined ? defaults.otherPolicy : options.otherPolicy;
  if (!OTHER_POLICIES.includes(otherPolicy as OtherPolicy)) {
    optionError('finishReason.otherPolicy', `one of ${OTHER_POLICIES.map((p) => `"${p}"`).join(', ')}`, otherPolicy);
  }
  return { terminal: Object.freeze(terminal), otherPolicy: otherPolicy as OtherPolicy };
}

function budgetLimit(metric: BudgetMetric, code: StopCodes['budget'], limit: number, warnAt: number | undefined): ResolvedBudgetLimit {
  return { metric, code, limit, warnAt, warnFrom: warnAt === undefined ? undefined : multiplyFigures(warnAt, limit) };
}

function resolveBudget(value: unknown): ResolvedOptions['budget'] {
  const options = section('budget', value, [...BUDGET_LIMITS.map(([name]) => name), 'warnAt']);
  if (options === false) return false;
  const sharedWarnAt = options.warnAt === undefined ? undefined : ratioOption('budget.warnAt', options.warnAt);
  const limits: ResolvedBudgetLimit[] = [];
  for (const [name, metric, code] of BUDGET_LIMITS) {
    const raw = options[name];
    if (raw === undefined) continue;
    const path = `budget.${name}`;
    if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
      const limitOptions = expectObject(path, raw, ['limit', 'warnAt']);
      const warnAt = limitOptions.warnAt === undefined ? sharedWarnAt : ratioOption(`${path}.warnAt`, limitOptions.warnAt);
      limits.push(budgetLimit(metric, code, positiveNumber(`${path}.limit`, limitOptions.limit), warnAt));
    } else {
      limits.push(budgetLimit(metric, code, positiveNumber(path, raw), sharedWarnAt));
    }
  }
  return { limits: Object.freeze(limits) };
}

function resolveCustom(value: unknown): readonly CustomDetector[] {
  if (value === undefined) return [];
  const list = typeof value === 'function' ? [value] : listOption('custom', value, OPTION_MAXIMA.customRules, 'a function or an array of functions');
  list.forEach((detector, index) => {
    if (typeof detector !== 'function') {
      optionError(`custom[${String(index)}]`, 'a function', detector);
    }
  });
  return Object.freeze(list as CustomDetector[]);
}

function resolveNow(value: unknown): () => number {
  if (value === undefined) return Date.now;
  if (typeof value !== 'function') optionError('now', 'a function returning milliseconds', value);
  try {
    (value as () => unknown)();
  } catch (error) {
    // Most often a method passed without its object, such as `performance.now`.
    throw new TypeError(
      `agent-loopguard: option "now" threw when called (${error instanceof Error ? error.message : String(error)}); pass a function that can be called on its own, such as () => performance.now().`,
      { cause: error },
    );
  }
  return value as () => number;
}

function resolveHistoryLimit(value: unknown): number | undefined {
  if (value === undefined || value === false) return undefined;
  if (!isSafeInteger(value) || value < 1) optionError('historyLimit', 'an integer of at least 1, or false', value);
  return value;
}

/**
 * Validates options once, when a guard is created, into a frozen object with every default filled in.
 * @throws TypeError naming the option path when a value does not fit.
 */
export function resolveOptions(options: unknown): ResolvedOptions {
  const given = options === undefined ? (Object.create(null) as Record<string, unknown>) : expectObject('', options, TOP_LEVEL_KEYS);
  return Object.freeze({
    maxSteps: resolveMaxSteps(given.maxSteps),
    repeatedToolCall: resolveRepeatedToolCall(given.repeatedToolCall),
    oscillation: resolveOscillation(given.oscillation),
    noProgress: resolveNoProgress(given.noProgress),
    stagnation: resolveStagnation(given.stagnation),
    finishReason: resolveFinishReason(given.finishReason),
    budget: resolveBudget(given.budget),
    custom: resolveCustom(given.custom),
    now: resolveNow(given.now),
    historyLimit: resolveHistoryLimit(given.historyLimit),
  });
}
