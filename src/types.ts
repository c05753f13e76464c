/**
 * Public data types: what a step looks like, what a verdict looks like, and the options a guard takes.
 * Everything here is plain data so verdicts and summaries survive `JSON.stringify`.
 */

/** One tool call the model made in a step, with what came back if the caller knows it. */
export interface GuardToolCall {
  /** The tool's name. Calls without a string name are ignored. */
  readonly name: string;
  /** The arguments the model passed. Compared canonically (key order does not matter). */
  readonly args?: unknown;
  /** What the tool returned. */
  readonly result?: unknown;
  /** What the tool threw or reported as an error. `null` and `undefined` mean "no error". */
  readonly error?: unknown;
  /**
   * The call was refused before it ran (by `judgeCall`, a tool approval or a hook): it is not part of the call
   * sequence. A refused call the guard would refuse again, after an earlier one, stops the run: the model persisted.
   * @default false
   */
  readonly blocked?: boolean | undefined;
}

/** Token and cost figures the caller reports for a step. Anything not finite and non-negative is ignored. */
export interface GuardUsage {
  readonly inputTokens?: number | undefined;
  readonly outputTokens?: number | undefined;
  /** Falls back to `inputTokens + outputTokens` when absent. */
  readonly totalTokens?: number | undefined;
  readonly costUsd?: number | undefined;
}

/** One finished step of an agent loop: what the model said and which tools it called. */
export interface GuardStep {
  readonly toolCalls?: readonly GuardToolCall[] | undefined;
  readonly text?: string | undefined;
  /** `'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other' | 'unknown'` or any provider string. */
  readonly finishReason?: string | undefined;
  readonly usage?: GuardUsage | undefined;
  /** How long the step took, in milliseconds. Summed by the `budget` detector. */
  readonly durationMs?: number | undefined;
  /** Recorded in `history`; no detector reads it. */
  readonly timestamp?: number | undefined;
}

/** Why a guard said stop. */
export type StopReason =
  | 'max-steps'
  | 'repeated-tool-call'
  | 'oscillation'
  | 'no-progress'
  | 'stagnation'
  | 'finish-reason'
  | 'budget'
  | 'custom';

/** How a finish reason that is neither terminal nor `tool-calls` is treated. */
export type OtherPolicy = 'stop' | 'continue' | 'stop-if-text-only';

/** A cumulative figure the `budget` detector tracks. */
export type BudgetMetric = 'totalTokens' | 'inputTokens' | 'outputTokens' | 'costUsd' | 'durationMs';

/** Any value `JSON.stringify` writes and `JSON.parse` reads back unchanged. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** Evidence attached to each kind of stop verdict, keyed by `reason`. */
export interface StopEvidence {
  'max-steps': { readonly steps: number; readonly limit: number };
  'repeated-tool-call': {
    readonly tool: string;
    /** Canonical arguments, shortened to at most 120 characters. */
    readonly argsPreview: string;
    /** Length of the run of identical calls that ends the call sequence. */
    readonly count: number;
    readonly threshold: number;
    /** 0-based indexes of the steps holding the calls of the run, ascending, without duplicates. */
    readonly stepIndexes: readonly number[];
    /** Whether every call in the run also had the same result or error. */
    readonly identicalResults: boolean;
  };
  oscillation: {
    /** Number of calls in one cycle. */
    readonly period: number;
    /** Full cycles found at the end of the call sequence. */
    readonly repeats: number;
    /** The configured `repeats`. */
    readonly threshold: number;
    /** One cycle, oldest call first, each written `name(argsPreview)`. */
    readonly cycle: readonly string[];
  };
  'no-progress': {
    /** Consecutive stalled steps with the same text. */
    readonly steps: number;
    readonly threshold: number;
    /** The normalised text, shortened to at most 120 characters. */
    readonly textPreview: string;
  };
  stagnation: {
    /** Steps with tool calls looked back over (the `window` option). */
    readonly window: number;
    /** The `maxNew` option. */
    readonly maxNew: number;
    /** How many of the window's steps brought an answer not seen before in the run. */
    readonly newOutcomes: number;
    /** The calls that filled the window, most frequent first (at most 3), with how many times each was made. */
    readonly calls: readonly { readonly tool: string; readonly argsPreview: string; readonly count: number }[];
    /**
     * The answers that came back most often in the window (at most 3), shortened, and how often: the shape of an
     * answer compared by its shape (a failure, "nothing found", an error), otherwise the answer as given.
     */
    readonly answers: readonly { readonly shapePreview: string; readonly count: number }[];
    /** Calls the window's steps made (a call repeating the one before it without news is not counted). */
    readonly callCount: number;
    /** Distinct calls (tool and arguments) among them: few means a cycle, about `callCount` new arguments and old answers. */
    readonly distinctCalls: number;
    /** 0-based indexes of the window's steps, ascending (the latest 100 at most). */
    readonly stepIndexes: readonly number[];
  };
  'finish-reason': {
    /** The finish reason as given. */
    readonly finishReason: string;
    /** Trimmed, lower-cased, `_` replaced by `-`. */
    readonly normalized: string;
    /**
     * What the reason means in the guard's vocabulary (`stop`, `length`, `content-filter`, `tool-calls`, `error`,
     * `other`) when it is a provider's own reason, such as `end-turn` → `stop`; otherwise `normalized`.
     */
    readonly mapped: string;
    /** The `otherPolicy` in force. */
    readonly policy: OtherPolicy;
    /** Whether the step has non-blank text. */
    readonly hasText: boolean;
    readonly toolCallCount: number;
  };
  budget: { readonly metric: BudgetMetric; readonly value: number; readonly limit: number };
  custom: unknown;
}

/** Stable machine-readable codes, keyed by `reason`. */
export interface StopCodes {
  'max-steps': 'MAX_STEPS';
  'repeated-tool-call': 'REPEATED_TOOL_CALL';
  oscillation: 'OSCILLATION';
  'no-progress': 'NO_PROGRESS';
  stagnation: 'STAGNATION';
  'finish-reason': 'FINISH_TERMINAL' | 'FINISH_OTHER' | 'FINISH_OTHER_TEXT_ONLY';
  budget:
    | 'BUDGET_TOTAL_TOKENS'
    | 'BUDGET_INPUT_TOKENS'
    | 'BUDGET_OUTPUT_TOKENS'
    | 'BUDGET_COST_USD'
    | 'BUDGET_DURATION_MS';
  custom: string;
}

/** A budget figure that is at or past its `warnAt` ratio but below its limit. */
export interface BudgetWarning {
  readonly code: 'BUDGET_WARNING';
  readonly metric: BudgetMetric;
  readonly value: number;
  readonly limit: number;
  /** `value / limit`. */
  readonly ratio: number;
  readonly detail: string;
}

/**
 * Part of a step was not read because it went past a limit on what one step may hold; detection went on with the
 * rest. The documentation's limits page (docs/limits.md in the repository) lists every limit.
 *
 * - `toolCallsPerStep`: the step held more tool calls than are read; the ones past `maximum` were not seen.
 * - `readPerStep`: the step's calls held more data than one step may read (`maximumValues` values or
 *   `maximumCharacters` characters in all); `cutCalls` calls were read only in part, so they are compared with no
 *   other call, and can neither repeat nor complete a loop.
 */
export type InputLimitWarning =
  | {
      readonly code: 'INPUT_LIMIT';
      readonly limit: 'toolCallsPerStep';
      /** The limit's value. */
      readonly maximum: number;
      /** How many the step held. */
      readonly given: number;
      readonly detail: string;
    }
  | {
      readonly code: 'INPUT_LIMIT';
      readonly limit: 'readPerStep';
      readonly maximumValues: number;
      readonly maximumCharacters: number;
      /** How many of the step's calls were read only in part. */
      readonly cutCalls: number;
      readonly detail: string;
    };

/** The detectors that watch for loops: they can warn before they stop. */
export type LoopReason = 'repeated-tool-call' | 'oscillation' | 'no-progress' | 'stagnation';

/** A loop detector will stop the run soon if the model goes on as it is: what to tell the model, and why. */
export type LoopWarning = {
  [Reason in LoopReason]: {
    readonly code: 'LOOP_WARNING';
    readonly reason: Reason;
    /** One sentence for logs. */
    readonly detail: string;
    /** One or two sentences for the model: what it has been doing, and what to do instead. */
    readonly message: string;
    /** As in the stop verdict this would become. */
    readonly evidence: StopEvidence[Reason];
  };
}[LoopReason];

/** Something a verdict says next to its answer: a budget nearly spent, a loop forming, or a step read only in part. */
/**
 * A step had a field in a shape the guard does not read: another library's (an AI SDK step's `toolName` and `input`,
 * OpenAI's `tool_calls` or `usage.prompt_tokens`), a misspelling, or a number given as text. The guard read the rest
 * and went on; what it could not read counted for nothing. Given once per run for each field.
 */
export interface InputShapeWarning {
  readonly code: 'INPUT_SHAPE';
  /** Where the field is, with `[]` for any call: `tool_calls`, `toolCalls[].toolName`, `usage.prompt_tokens`. */
  readonly field: string;
  /** What was not read, and what to pass instead. */
  readonly detail: string;
}

export type GuardWarning = BudgetWarning | LoopWarning | InputLimitWarning | InputShapeWarning;

/** The detectors that can judge a call before it runs, from its name and arguments alone. */
export type BlockReason = 'repeated-tool-call' | 'oscillation';

/** What `judgeCall` says of a call that has not run yet. */
export type CallVerdict =
  | { readonly block: false }
  | {
      [Reason in BlockReason]: {
        readonly block: true;
        readonly reason: Reason;
        readonly code: StopCodes[Reason];
        /** One sentence for logs. */
        readonly detail: string;
        /** What to tell the model instead of the call's result: why it was not run, and what to do instead. */
        readonly message: string;
        /** As in the stop verdict running the call would have brought. */
        readonly evidence: StopEvidence[Reason];
      };
    }[BlockReason];

/** The calls of one model response, judged in order before they run (see `Guard.screen`). */
export interface CallScreen {
  /** What `judgeCall(call, allowed)` says, where `allowed` are the calls this screen allowed so far. */
  judge(call: GuardToolCall): CallVerdict;
}

/** A refusal `judgeCall` gave. */
export type CallRefusal = Extract<CallVerdict, { readonly block: true }>;

/** A stop verdict for one particular reason. */
export type StopVerdictFor<R extends StopReason> = R extends StopReason
  ? {
      readonly stop: true;
      readonly reason: R;
      readonly code: StopCodes[R];
      /** One readable sentence. */
      readonly detail: string;
      readonly evidence: StopEvidence[R];
      readonly warnings?: readonly GuardWarning[] | undefined;
    }
  : never;

/** A verdict that says stop. `reason` narrows `code` and `evidence`. */
export type StopVerdict = StopVerdictFor<StopReason>;

/** A verdict that says go on, possibly with budget warnings. */
export interface ContinueVerdict {
  readonly stop: false;
  readonly warnings?: readonly GuardWarning[] | undefined;
}

/** What `check` returns: plain JSON. */
export type Verdict = ContinueVerdict | StopVerdict;

/** What a custom detector returns to ask for a stop. */
export interface CustomStop {
  readonly stop: true;
  /** @default 'CUSTOM' */
  readonly code?: string | undefined;
  /** @default 'A custom detector stopped the run.' */
  readonly detail?: string | undefined;
  /** @default {} */
  readonly evidence?: unknown;
}

/**
 * A rule of your own. Receives the history (the current step last; the guard's live array, so read it but do not
 * change it; with `historyLimit`, a frozen copy of the kept steps) and the current step.
 * Return `undefined` or `{ stop: false }` to continue. Errors it throws propagate out of `check`.
 *
 * A guard restored from a snapshot gives a rule the steps recorded before the snapshot (the last `historyLimit` of
 * them, if set) as plain JSON, as `JSON.stringify` writes them (a `Date` as its ISO text, a `Map` or a `Set` as `{}`)
 * with a bigint as `"10n"`. What a rule keeps in its own closure is not in the snapshot: derive it from the history,
 * or save it beside the snapshot yourself.
 */
export type CustomDetector = (
  history: readonly GuardStep[],
  step: GuardStep,
) => CustomStop | { readonly stop: false } | undefined;

/**
 * What makes two calls of one tool the same call, or that the tool's calls are left to budgets (see
 * `GuardOptions.tools`). Give `key` or `keyFields`, or `exempt: true`, not more than one.
 */
export interface ToolIdentity {
  /**
   * The part of the arguments that makes two calls the same: two calls whose keys are canonically equal are one call
   * to every loop detector, whatever else their arguments hold. Called with the arguments as given (anything, from a
   * model); if it throws, the call is compared by its whole arguments instead. A function cannot be saved, so a
   * snapshot records only that the tool has one: restore it with the same function.
   */
  readonly key?: ((args: unknown) => unknown) | undefined;
  /**
   * The top-level argument fields that make two calls the same; the others are ignored. Arguments that are not an
   * object are compared whole. At most 1,000 names.
   */
  readonly keyFields?: readonly string[] | undefined;
  /**
   * Leave the tool's calls out of every loop detector (`repeatedToolCall`, `oscillation`, `noProgress`, `stagnation`):
   * they are neither repeats nor progress, and a step that made only such calls leaves the detectors as they were. For
   * a status poll or a paginated read that repeats on purpose; `maxSteps` and budgets still see every step.
   * @default false
   */
  readonly exempt?: boolean | undefined;
}

/** A budget limit: a number, or a number with its own warning ratio. */
export type BudgetLimit = number | { readonly limit: number; readonly warnAt?: number | undefined };

/** How many repetitions before the stop a loop detector warns (from 1 to 1,000), or `false` for never. */
export type WarnBefore = number | false | undefined;

/** Options of the `repeatedToolCall` detector. */
export interface RepeatedToolCallOptions {
  /** How many identical calls in a row stop the run. At least 2. @default 3 */
  readonly threshold?: number | undefined;
  /**
   * Count a call as a repeat only while it gets the answer the call before it got (result and error, ignoring what
   * changes on every call: runs of letters and digits that hold a digit, such as timestamps, durations, counters, ids
   * and percentages). A repeated call whose answer brings something new (the next page, a build that got further)
   * starts the count again. `judgeCall` refuses the call that would make the count reach `threshold`, predicting it
   * gets the same answer again. `false` counts identical calls whatever they return (the behaviour of 0.1.0).
   * @default true
   */
  readonly requireIdenticalResults?: boolean | undefined;
  /** Leave calls with a non-null `error` out of the sequence. @default false */
  readonly ignoreErrors?: boolean | undefined;
  /** Repetitions before the stop to warn at (a `LOOP_WARNING` with a message for the model), or `false`. @default 1 */
  readonly warnBefore?: WarnBefore;
}

/** Options of the `oscillation` detector. */
export interface OscillationOptions {
  /** Longest cycle looked for, in calls. At least 2. @default 3 */
  readonly maxPeriod?: number | undefined;
  /**
   * Count a cycle only while each of its calls gets the answer it got one cycle before (ignoring what changes on every
   * call, as `repeatedToolCall` does): an edit and a test that alternate while the test's output changes are work, not
   * a loop. `false` compares the calls alone (the behaviour of 0.1.0). @default true
   */
  readonly requireIdenticalResults?: boolean | undefined;
  /** Full cycles in a row that stop the run. At least 2. @default 3 */
  readonly repeats?: number | undefined;
  /** Repetitions before the stop to warn at (a `LOOP_WARNING` with a message for the model), or `false`. @default 1 */
  readonly warnBefore?: WarnBefore;
}

/** Options of the `noProgress` detector. */
export interface NoProgressOptions {
  /** Consecutive stalled steps with the same text that stop the run. At least 2. @default 3 */
  readonly threshold?: number | undefined;
  /** Repetitions before the stop to warn at (a `LOOP_WARNING` with a message for the model), or `false`. @default 1 */
  readonly warnBefore?: WarnBefore;
}

/** Options of the `stagnation` detector. */
export interface StagnationOptions {
  /** Steps with tool calls looked back over. An integer from 2 to 1,000. @default 20 */
  readonly window?: number | undefined;
  /**
   * Stop when at most this many of those steps brought an answer not seen before: a call not made before with that
   * answer, or, for an answer that says only that the call failed or found nothing, an answer of that shape not seen
   * before. From 0 to `window - 1` (the default, 9, stays below a smaller window). @default 9
   */
  readonly maxNew?: number | undefined;
  /**
   * An empty answer (no letter and no digit outside markup tags: `''`, `[]`, `<output></output>`) to a call with at
   * least this many characters of canonical arguments is compared with the call, as a successful write answers; to a
   * shorter call it means nothing was found, and counts as seen once any call got it. An integer of at least 0.
   * @default 70
   */
  readonly writeArgsLength?: number | undefined;
  /**
   * Warn while at most `maxNew` plus this many of a full window's steps were new (a `LOOP_WARNING` with a message for
   * the model), or `false` for no warnings. From 1 to 1,000.
   * @default 1
   */
  readonly warnBefore?: number | false | undefined;
}

/** Options of the `finishReason` detector. */
export interface FinishReasonOptions {
  /** Normalised finish reasons that end the run. @default ['stop', 'length', 'content-filter', 'error'] */
  readonly terminal?: readonly string[] | undefined;
  /** What to do with a reason that is neither terminal nor `tool-calls`. @default 'stop-if-text-only' */
  readonly otherPolicy?: OtherPolicy | undefined;
}

/** Options of the `budget` detector. No limit is set unless you set it. */
export interface BudgetOptions {
  /** @default undefined (no limit) */
  readonly maxTotalTokens?: BudgetLimit | undefined;
  /** @default undefined (no limit) */
  readonly maxInputTokens?: BudgetLimit | undefined;
  /** @default undefined (no limit) */
  readonly maxOutputTokens?: BudgetLimit | undefined;
  /** @default undefined (no limit) */
  readonly maxCostUsd?: BudgetLimit | undefined;
  /** Compared with the larger of summed `durationMs` and wall-clock time since creation or `reset()`. @default undefined (no limit) */
  readonly maxDurationMs?: BudgetLimit | undefined;
  /** Warning ratio (0 to 1) for limits that do not set their own. @default undefined (no warnings) */
  readonly warnAt?: number | undefined;
}

/** Options of `createGuard`. Every detector can be tuned, or switched off with `false`. */
export interface GuardOptions {
  /** Stop when this many steps have been recorded. @default 50 */
  readonly maxSteps?: number | false | undefined;
  /** @default { threshold: 3, requireIdenticalResults: true, ignoreErrors: false, warnBefore: 1 } */
  readonly repeatedToolCall?: RepeatedToolCallOptions | false | undefined;
  /** @default { maxPeriod: 3, repeats: 3, requireIdenticalResults: true, warnBefore: 1 } */
  readonly oscillation?: OscillationOptions | false | undefined;
  /** @default { threshold: 3 } */
  readonly noProgress?: NoProgressOptions | false | undefined;
  /** @default { window: 20, maxNew: 9, writeArgsLength: 70, warnBefore: 1 } */
  readonly stagnation?: StagnationOptions | false | undefined;
  /** @default { terminal: ['stop', 'length', 'content-filter', 'error'], otherPolicy: 'stop-if-text-only' } */
  readonly finishReason?: FinishReasonOptions | false | undefined;
  /** @default {} (no limits) */
  readonly budget?: BudgetOptions | false | undefined;
  /**
   * Per tool name (compared exactly), what makes two of its calls the same call (`key` or `keyFields`), or that its
   * calls are exempt from the loop detectors (`exempt: true`). Honoured by `check`, `peek` and `judgeCall`, and so by
   * every adapter. At most 10,000 tools.
   * @example { get_job_status: { exempt: true }, search: { keyFields: ['query'] } }
   * @default {}
   */
  readonly tools?: Readonly<Record<string, ToolIdentity>> | undefined;
  /** Your own rules, run after the built-in ones. @default [] */
  readonly custom?: CustomDetector | readonly CustomDetector[] | undefined;
  /** Clock for the wall-clock part of `maxDurationMs`, in milliseconds. @default Date.now */
  readonly now?: (() => number) | undefined;
  /**
   * Keep only the most recent this-many steps, so a guard that lives for a long session holds bounded memory.
   * `history` and what custom detectors receive then hold at most this many steps, and `noProgress` treats an
   * outcome as new unless one of the last `historyLimit` steps produced it (a cycle longer than that looks like
   * progress). Counts, totals and the other detectors are unaffected: their state never depended on old steps.
   * An integer of at least 1, or `false` to keep every step.
   * @default false
   */
  readonly historyLimit?: number | false | undefined;
}

/** What `summary()` returns: counts, totals and each detector's state, all JSON, nothing time-dependent. */
export interface GuardSummary {
  readonly steps: number;
  readonly toolCalls: number;
  readonly stops: number;
  readonly lastVerdict: Verdict | null;
  readonly totals: {
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly totalTokens: number;
    readonly costUsd: number;
    readonly durationMs: number;
  };
  /** Each enabled detector's state, keyed by its `kind`. */
  readonly detectors: Readonly<Record<string, JsonValue>>;
}

/**
 * A guard's whole state as plain JSON, from `guard.snapshot()`: store it anywhere, and pass it (after a JSON round trip
 * if you like) to `createGuard(options, { snapshot })` to go on where the guard left off, in this process or another.
 */
export interface GuardSnapshot {
  /** The snapshot format; a guard reads only the versions it knows. */
  readonly version: 3;
  /** What the state belongs to: each option's path with a short hash of its value (not the options themselves). */
  readonly options: Readonly<Record<string, string>>;
  readonly steps: number;
  readonly toolCalls: number;
  readonly stops: number;
  readonly lastVerdict: Verdict | null;
  /** A call the guard would refuse was refused already: asking for one again stops the run. */
  readonly blockedBefore: boolean;
  /** The totals as `summary()` shows them: what later steps add to. */
  readonly totals: GuardSummary['totals'];
  /** The clock's reading when the run started, for the wall-clock part of `maxDurationMs`. */
  readonly startedAt: number;
  /**
   * The clock the times were read from: `Date.now`, which every process shares, or another (a frozen clock, or one whose
   * zero is the process's own). Restored onto another clock, or from another one, the run goes on from `elapsedMs`.
   */
  readonly clock: 'Date.now' | 'custom';
  /** Wall-clock milliseconds the run had taken when the snapshot was taken. */
  readonly elapsedMs: number;
  /**
   * The run's secret key for comparing tool output (32 hex characters). Keep snapshots where you keep the run's
   * data: someone who reads the key can build tool output that the guard takes for a repeat.
   */
  readonly hashKey: string;
  /** The recorded steps (the last `historyLimit` of them, if set), as plain JSON. */
  readonly history: readonly JsonValue[];
  /**
   * What the run has seen, each key (a call's outcome, or an answer a detector compares across calls) with the last step
   * that produced it: what tells a new answer from an old one.
   */
  readonly memory: { readonly outcomes: readonly (readonly [string, number])[]; readonly answers: readonly (readonly [string, number])[] };
  /** The step fields the run was warned of as being in another shape (`INPUT_SHAPE`): each is warned of once. */
  readonly warnedFields: readonly string[];
  /** Each enabled detector's state, keyed by its `kind`. */
  readonly detectors: Readonly<Record<string, JsonValue>>;
}

/** How `createGuard` starts: from nothing, or from a snapshot. */
export interface RestoreOptions {
  /**
   * What `guard.snapshot()` returned, as it is or after a JSON round trip. Refused with a `TypeError` naming the field
   * when it is malformed, or the option that differs when it was taken under other options; never half applied.
   * @default undefined (a new run)
   */
  readonly snapshot?: unknown;
}

/** A guard for one agent run. */
export interface Guard {
  /** Record one finished step and say whether to go on. Never throws on odd step data. */
  check(step: GuardStep): Verdict;
  /**
   * The verdict `check(step)` would give now, without recording anything: history, totals, counts, `summary()` and
   * later verdicts stay as if it had not been called. Custom rules are called, with the step last in their history.
   */
  peek(step: GuardStep): Verdict;
  /**
   * Before a tool call runs: would running it complete a loop (the repeated call or the cycle that would stop the
   * run)? Judged from name and arguments alone, by the detectors that can (`repeatedToolCall` unless it compares
   * results, and `oscillation`), without recording anything.
   * @param call - the call the model asked for
   * @param earlier - calls of the same step that run before it
   */
  judgeCall(call: GuardToolCall, earlier?: readonly GuardToolCall[]): CallVerdict;
  /**
   * Before the calls of one model response run: judges them one by one, each after the calls of the response allowed
   * before it, as `judgeCall(call, allowed)` would, at a cost that does not grow with the number of calls before it.
   * Records nothing; make one per response.
   */
  screen(): CallScreen;
  /** The guard's whole state as plain JSON, to restore with `createGuard(options, { snapshot })`. */
  snapshot(): GuardSnapshot;
  /** Forget the run (history, totals, detector state, clock start); keep the options. */
  reset(): void;
  /** Counts, totals and per-detector state as JSON. */
  summary(): GuardSummary;
  /** The steps recorded so far (the last `historyLimit` of them, if set), as a frozen shallow copy. */
  readonly history: readonly GuardStep[];
}
