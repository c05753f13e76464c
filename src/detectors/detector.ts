import type { GuardStep, GuardWarning, JsonValue, StopCodes, StopEvidence, StopReason } from '../types.js';

/** One tool call reduced to comparable facts. */
export interface CallFacts {
  readonly name: string;
  /** Comparison key of the tool name plus canonical arguments. */
  readonly signature: string;
  /** `signature` plus the canonical result or error; equals `signature` when neither was supplied. */
  readonly outcome: string;
  /** Canonical arguments, shortened for evidence. */
  readonly argsPreview: string;
  /** Length of the canonical arguments. */
  readonly argsLength: number;
  /** The result as text (a string as given, anything else in canonical form); `undefined` when none was supplied. */
  readonly resultText: string | undefined;
  /** `resultText` is text the tool wrote (the result was a string), not the canonical form of structured data. */
  readonly resultIsText: boolean;
  /** The comparison key of the canonical result, as in `outcome`; `''` without a result. */
  readonly resultKey: string;
  /**
   * The keys of the object at the top of the result's canonical form, in the order written, when it was written
   * member by member; `undefined` otherwise (no result, a list, a string, a built-in, a form from memory). Every key
   * of that form's top level is one of these, so a detector looking for one can rule it out without scanning.
   */
  readonly resultKeys: readonly string[] | undefined;
  /**
   * The error as text when the call failed: a string as given, `name: message` of an error with a string message,
   * anything else in canonical form; `undefined` otherwise.
   */
  readonly errorText: string | undefined;
  /** `errorText` is text (a string, or an error's message), not the canonical form of structured data. */
  readonly errorIsText: boolean;
  /** The comparison key of the canonical error, as in `outcome`; `''` without an error. */
  readonly errorKey: string;
  /** The call carries a non-null `error`. */
  readonly failed: boolean;
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
  /**
   * The history including this step. The guard's own array, not a copy: copying it on every step would make a
   * check cost grow with the length of the run.
   */
  readonly history: readonly GuardStep[];
  readonly calls: readonly CallFacts[];
  /**
   * The text normalised (lower-cased, whitespace collapsed, trimmed; `''` without text) as a comparison key: short texts
   * as themselves, long ones by length and hash.
   */
  readonly textKey: string;
  /** The normalised text, shortened for evidence. */
  readonly textPreview: string;
  /** The step has non-blank text. */
  readonly hasText: boolean;
  /** The finish reason if it was a string. */
  readonly finishReason: string | undefined;
  /** Totals including this step. */
  readonly totals: Readonly<RunTotals>;
  /** Wall-clock milliseconds since the guard was created or reset. */
  readonly elapsedMs: number;
}

/** What a detector found that should end the run. The guard adds `stop: true` and the detector's kind as `reason`. */
export interface Finding<Reason extends StopReason = StopReason> {
  readonly code: StopCodes[Reason];
  /** One readable sentence. */
  readonly detail: string;
  readonly evidence: StopEvidence[Reason];
  /**
   * For a detector that judges calls before they run: what to tell the model when the call that would complete this
   * finding is refused instead. Not part of stop verdicts.
   */
  readonly message?: string;
}

/** What a detector says about one step: a finding that stops the run, warnings, or both. */
export interface DetectorResult<Reason extends StopReason = StopReason> {
  readonly stop?: Finding<Reason>;
  readonly warnings?: readonly GuardWarning[];
}

/** What a detector may read about the run as a whole when it reports its state. */
export interface RunView {
  /** Steps checked so far. */
  readonly steps: number;
}

/**
 * The one shape every detector has, built-in or custom: a kind, a judgement per step over state of its own, and that
 * state as JSON. The guard calls `check` for every step in priority order and never looks inside; starting over means
 * building the detectors again, and restoring means building them from what `save` returned.
 */
export interface Detector<Reason extends StopReason = StopReason> {
  readonly kind: Reason;
  /**
   * Whether the detector can judge a call before it runs, from its name and arguments alone (`judgeCall` asks only
   * these). A detector that needs results, text or usage cannot.
   */
  readonly judgesCalls: boolean;
  /**
   * Judges one step; `undefined` when there is nothing to say. With `record`, remembers what later steps need. Without
   * it (a peek), answers exactly as it would have and leaves its state as it was.
   */
  check(facts: StepFacts, record: boolean): DetectorResult<Reason> | undefined;
  /** The detector's state as JSON, for `summary()`. */
  state(run: RunView): JsonValue;
  /** Everything the detector needs to go on from here, as data JSON can write, for snapshots. */
  save(): unknown;
}
