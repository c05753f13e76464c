import { formKey } from '../canonical/form.js';
import type { TextHash } from '../canonical/hash.js';
import type { CallFacts, RunTotals, StepFacts } from '../detectors/detector.js';
import type { GuardStep } from '../types.js';
import { MAX_NORMALIZED_TEXT, normalizeText, preview } from '../utils/text.js';
import type { ReadStep } from './read-step.js';
import type { RunMemory } from './run-memory.js';

/** What the facts of a step get from the run rather than from the step. */
export interface FactsContext {
  readonly hash: TextHash;
  /** The history as custom rules see it, including the step. */
  readonly history: () => readonly GuardStep[];
  /** Wall-clock milliseconds since the run started. */
  readonly elapsedMs: () => number;
  readonly outcomes: RunMemory;
  readonly answers: RunMemory;
}

// Matches a string that holds something besides whitespace: exactly when its normalised form is not empty.
const NOT_BLANK = /\S/;

/** The facts of one step, as detectors read them; what only some detectors need is worked out when first asked for. */
export class Facts implements StepFacts {
  readonly index: number;
  readonly step: GuardStep;
  readonly calls: readonly CallFacts[];
  readonly finishReason: string | undefined;
  readonly totals: RunTotals;
  readonly pending: boolean;
  readonly #context: FactsContext;
  #normalized: string | undefined;
  #newOutcomes: readonly boolean[] | undefined;
  #elapsedMs: number | undefined;

  /** @param pending - the calls have not run: `judgeCall` is asking about them */
  constructor(read: ReadStep, index: number, totals: RunTotals, context: FactsContext, pending = false) {
    this.index = index;
    this.step = read.step;
    this.calls = read.calls;
    this.finishReason = read.finishReason;
    this.totals = totals;
    this.pending = pending;
    this.#context = context;
  }

  /** The normalised text; of a text too long to normalise whole, the normalised start. */
  get #normalizedText(): string {
    const text = this.step.text ?? '';
    return (this.#normalized ??= normalizeText(text.length > MAX_NORMALIZED_TEXT ? text.slice(0, MAX_NORMALIZED_TEXT) : text));
  }

  get textKey(): string {
    const text = this.step.text;
    // Too long to normalise whole: compared exactly, by length and hash of the text as given.
    if (text !== undefined && text.length > MAX_NORMALIZED_TEXT) return `#t${text.length}:${this.#context.hash(text)}`;
    return `=${formKey(this.#normalizedText, this.#context.hash)}`;
  }

  get textPreview(): string {
    return preview(this.#normalizedText);
  }

  get hasText(): boolean {
    return NOT_BLANK.test(this.step.text ?? '');
  }

  get history(): readonly GuardStep[] {
    return this.#context.history();
  }

  get elapsedMs(): number {
    return (this.#elapsedMs ??= this.#context.elapsedMs());
  }

  get newOutcomes(): readonly boolean[] {
    if (this.#newOutcomes === undefined) {
      const inStep = new Set<string>();
      this.#newOutcomes = this.calls.map(({ outcome }) => {
        const isNew = this.#context.outcomes.isNew(outcome, this.index) && !inStep.has(outcome);
        inStep.add(outcome);
        return isNew;
      });
    }
    return this.#newOutcomes;
  }

  /** Whether the run's memory of outcomes was consulted for this step, so it must record the step's outcomes. */
  get outcomesAsked(): boolean {
    return this.#newOutcomes !== undefined;
  }

  isNewAnswer(key: string): boolean {
    return this.#context.answers.isNew(key, this.index);
  }

  keyOf(text: string): string {
    return formKey(text, this.#context.hash);
  }
}
