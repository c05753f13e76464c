import type { CallFacts, RunTotals, StepFacts } from '../detectors/detector.js';
import type { GuardStep } from '../types.js';
import { formKeyWith } from '../canonical/comparison-key.js';
import { hashOfKey, type HashKey } from '../canonical/hash-key.js';
import { MAX_NORMALIZED_TEXT, normalizeText, preview } from './normalize-text.js';
import type { ReducedStep } from './reduce-step.js';

/** Where the facts of a step get what is not in the step itself. */
export interface FactsSource {
  /** The history as custom rules see it, including the current step. */
  readonly history: () => readonly GuardStep[];
  /** Wall-clock milliseconds since the run started. */
  readonly elapsed: () => number;
  /** The run's totals, including the current step. */
  readonly totals: Readonly<RunTotals>;
  /** The run's key for comparisons. */
  readonly hashKey: HashKey;
}

// Matches a string that holds something besides whitespace: exactly when its normalised form is not empty.
const NOT_BLANK = /\S/;

/**
 * The facts of the step being checked. A guard keeps one and loads each step into it, so every guard shares one object
 * shape and a check allocates no facts object; what only some detectors need (normalised text, the clock, the rules'
 * history) is worked out when first asked for, at most once per step.
 */
export class LoadedStepFacts implements StepFacts {
  index = 0;
  step: GuardStep = {};
  calls: readonly CallFacts[] = [];
  finishReason: string | undefined = undefined;
  readonly totals: Readonly<RunTotals>;
  #text: string | undefined = undefined;
  #normalizedText: string | undefined = undefined;
  #elapsedMs: number | undefined = undefined;
  readonly #source: FactsSource;

  constructor(source: FactsSource) {
    this.#source = source;
    this.totals = source.totals;
  }

  /**
   * Makes these the facts of another step.
   * @param index - the step's 0-based index in the run
   * @param reduced - the step as `reduceStep` read it
   */
  load(index: number, reduced: ReducedStep): void {
    this.index = index;
    this.step = reduced.step;
    this.calls = reduced.calls;
    this.finishReason = reduced.finishReason;
    this.#text = reduced.step.text;
    this.#normalizedText = undefined;
    this.#elapsedMs = undefined;
  }

  /** The normalised text; of a text too long to normalise whole, the normalised start. */
  get #normalized(): string {
    const text = this.#text;
    if (text === undefined) return '';
    return (this.#normalizedText ??= normalizeText(text.length > MAX_NORMALIZED_TEXT ? text.slice(0, MAX_NORMALIZED_TEXT) : text));
  }

  get textKey(): string {
    const text = this.#text;
    // Too long to normalise whole: compared exactly, by length and hash of the text as given.
    const hash = hashOfKey(this.#source.hashKey);
    if (text !== undefined && text.length > MAX_NORMALIZED_TEXT) return `#t${String(text.length)}:${hash(text)}`;
    return `=${formKeyWith(this.#normalized, hash)}`;
  }

  get textPreview(): string {
    return preview(this.#normalized);
  }

  get hasText(): boolean {
    return this.#normalizedText === undefined ? this.#text !== undefined && NOT_BLANK.test(this.#text) : this.#normalizedText !== '';
  }

  get history(): readonly GuardStep[] {
    return this.#source.history();
  }

  get elapsedMs(): number {
    if (this.#elapsedMs === undefined) {
      const elapsed = this.#source.elapsed();
      this.#elapsedMs = Number.isFinite(elapsed) ? elapsed : 0;
    }
    return this.#elapsedMs;
  }
}
