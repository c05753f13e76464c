/**
 * The one shape every detector has, built-in or custom: plain data and pure functions, tagged by a kind. The guard
 * treats all alike: it validates each detector's options, starts its state, hands it each step's facts, keeps the state
 * it returns (or, for a peek, drops it), saves that state in snapshots and checks it again on restore. Everything a
 * detector remembers is in its state, so a detector added to the registry is covered by all of that at once.
 */
import { expectObject, integerOption } from '../utils/validate.js';
import type { ResultReading } from './answers.js';
import type { GuardStep, GuardWarning, JsonValue, StopCodes, StopEvidence, StopReason } from '../types.js';

/** One tool call reduced to comparable facts. */
export interface CallFacts {
  readonly name: string;
  /** Comparison key of the tool name plus canonical arguments. */
  readonly signature: string;
  /** `signature` plus `answer`; equals `signature` when neither a result nor an error was supplied. */
  readonly outcome: string;
  /**
   * The comparison key of what the call got (result and error) with what changes on every call blanked (see
   * `volatileBlanked`): two answers that differ only in timestamps, durations, counters or ids are one answer. `''`
   * when neither a result nor an error was supplied.
   */
  readonly answer: string;
  /** Canonical arguments, shortened for evidence. */
  readonly argsPreview: string;
  /** Length of the canonical arguments. */
  readonly argsLength: number;
  /** The result as text (a string as given, anything else in canonical form); `undefined` when none was supplied. */
  readonly resultText: string | undefined;
  /** `resultText` is text the tool wrote (the result was a string), not the canonical form of structured data. */
  readonly resultIsText: boolean;
  /** The comparison key of the canonical result, exactly; `''` without a result. */
  readonly resultKey: string;
  /** The error as text when the call failed: a string, `name: message` of an error, else its canonical form. */
  readonly errorText: string | undefined;
  /** `errorText` is text (a string, or an error's message), not the canonical form of structured data. */
  readonly errorIsText: boolean;
  /** The comparison key of the canonical error, exactly; `''` without an error. */
  readonly errorKey: string;
  /** The call carries a non-null `error`. */
  readonly failed: boolean;
  /** The `tools` option exempts this tool from the loop detectors: they neither count the call nor are reset by it. */
  readonly exempt: boolean;
  /** What a structured result's top-level fields say (see `readResultFields`); `undefined` for text or no result. */
  readonly resultReading: ResultReading | undefined;
  /** The canonical form of the fields that made `resultReading` a failure or "nothing found"; else `undefined`. */
  readonly failureForm: string | undefined;
}

/** Running totals of the figures steps report. */
export interface RunTotals {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  costUsd: number;
  durationMs: number;
}

/** One step reduced to comparable facts, once, by the guard. Detectors read only this. */
export interface StepFacts {
  /** 0-based index of the step in the run. */
  readonly index: number;
  /** The step as recorded in history (a sanitised copy). */
  readonly step: GuardStep;
  /** The history including this step (the guard's own array: copying it every step would grow with the run). */
  readonly history: readonly GuardStep[];
  readonly calls: readonly CallFacts[];
  /** The normalised text (lower-cased, whitespace collapsed, trimmed) as a comparison key. */
  readonly textKey: string;
  /** The normalised text, shortened for evidence. */
  readonly textPreview: string;
  /** The step has non-blank text. */
  readonly hasText: boolean;
  /** The finish reason, if it was a string. */
  readonly finishReason: string | undefined;
  /** Totals including this step. */
  readonly totals: Readonly<RunTotals>;
  /** Wall-clock milliseconds since the run started. */
  readonly elapsedMs: number;
  /**
   * For each call, in order: its outcome is new, produced neither by an earlier step (with `historyLimit`, one of the
   * last `historyLimit` before this one) nor by an earlier call of this step.
   */
  readonly newOutcomes: readonly boolean[];
  /**
   * The calls have not run: `judgeCall` asks whether they would complete a loop, from their names and arguments alone.
   * A detector that compares answers predicts that such a call gets the answer the same call got before it.
   */
  readonly pending: boolean;
  /** Whether an answer key a detector asked the run to remember is new as of this step (see {@link Judgement.remember}). */
  isNewAnswer(key: string): boolean;
  /** The run's comparison key for a text: itself when short, its length and keyed hash when long. */
  keyOf(text: string): string;
}

/** What a detector found that should end the run. The guard adds `stop: true` and the detector's kind as `reason`. */
export interface Finding<Reason extends StopReason = StopReason> {
  readonly code: StopCodes[Reason];
  /** One readable sentence. */
  readonly detail: string;
  readonly evidence: StopEvidence[Reason];
  /** For a detector that judges calls before they run: what to tell the model when the call is refused instead. */
  readonly message?: string;
}

/** What a detector says of one step, with its state after the step. */
export interface Judgement<Reason extends StopReason, State> {
  readonly state: State;
  readonly stop?: Finding<Reason> | undefined;
  readonly warnings?: readonly GuardWarning[] | undefined;
  /**
   * Answer keys the run remembers as seen from this step on, when the step is recorded. Kept by the guard rather than in
   * the state, so a run's memory of answers is not copied on every step.
   */
  readonly remember?: readonly string[] | undefined;
}

/** What a detector may read about the run as a whole when it reports its state. */
export interface RunView {
  readonly steps: number;
  /** Distinct call outcomes the run remembers. */
  readonly distinctOutcomes: number;
  /** Distinct answer keys the run remembers (see {@link Judgement.remember}). */
  readonly distinctAnswers: number;
}

/**
 * A detector: a kind, the option that configures it, and pure functions over options and state. `check` never changes
 * the state it is given: a peek is a check whose new state is dropped.
 */
export interface Detector<Reason extends StopReason = StopReason, Options = unknown, State = unknown> {
  readonly kind: Reason;
  /** The key of `GuardOptions` that configures it. */
  readonly option: string;
  /** Its options are functions, which a JSON file (the replay command's `--config`) cannot hold. */
  readonly takesFunctions?: true;
  /**
   * Validates what the caller passed (`undefined` for nothing), filling in defaults.
   * @returns the options, or `false` when the detector is off
   * @throws TypeError naming the option path when a value does not fit
   */
  resolve(value: unknown): Options | false;
  /** Whether it can judge a call before it runs, from name and arguments alone (for `judgeCall`). */
  judgesCalls(options: Options): boolean;
  /** The state of a new run: plain JSON. */
  start(options: Options): State;
  /** Judges one step. */
  check(state: State, facts: StepFacts, options: Options): Judgement<Reason, State>;
  /** The state as `summary()` shows it. */
  summary(state: State, options: Options, run: RunView): JsonValue;
  /**
   * A state read back from a snapshot, checked field by field, and against the run it was saved in: no count above
   * what the run did, no step index from after its last step.
   * @param path - where it sits in the snapshot, to name in errors
   * @param run - the steps and calls of the snapshot's run; unbounded when absent
   * @throws TypeError naming the field that does not fit
   */
  restore(saved: unknown, options: Options, path: string, run?: SavedRun): State;
  /** What `explain` suggests to whoever reads one of its stops: where to look, what to change. */
  hint(stop: { readonly code: string; readonly evidence: unknown }): string;
  /** What of the options a snapshot is tied to; the options themselves when absent. */
  fingerprint?(options: Options): unknown;
}

/** What a snapshot's run had done when it was taken: what a detector's saved state is checked against. */
export interface SavedRun {
  readonly steps: number;
  readonly toolCalls: number;
}

/** No bound: a state checked for its own consistency only. */
export const ANY_RUN: SavedRun = { steps: Number.MAX_SAFE_INTEGER, toolCalls: Number.MAX_SAFE_INTEGER };

/** `false` switches a detector off; `undefined` or `true` keep its defaults; an object tunes it. */
export function optionSection(path: string, value: unknown, known: readonly string[]): Record<string, unknown> | false {
  if (value === false) return false;
  if (value === undefined || value === true) return Object.create(null) as Record<string, unknown>;
  return expectObject(path, value, known);
}

/** Most repetitions before the stop a loop detector may warn. */
export const MAX_WARN_BEFORE = 1_000;

/** How many repetitions before the stop a loop detector warns, or `false` for never. */
export function warnBeforeOption(path: string, value: unknown, fallback: number): number | false {
  if (value === false) return false;
  return integerOption(path, value, 1, fallback, MAX_WARN_BEFORE);
}
