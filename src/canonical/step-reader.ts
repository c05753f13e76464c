import { type Budget, DEFAULT_LIMITS, formKey, LONG_STRING_LENGTH, RAW_STRING_LENGTH, type ReadLimits, readForm, stringKey, UnreadableNumbering } from './form.js';
import type { TextHash } from './hash.js';

/**
 * Reads everything one step holds (every call's arguments, results and errors) against one budget, and hashes what it
 * compares with the run's key. Each value read may spend up to the per-value limits, and all the step's reads
 * together up to `STEP_VALUES` values and `STEP_CHARACTERS` characters; past that, values become `[Truncated]`.
 * Make one per step.
 */
export class StepReader {
  readonly #hash: TextHash;
  readonly #limits: ReadLimits;
  readonly #budget: Budget;
  readonly #unreadable: UnreadableNumbering;
  /** How many of this reader's reads were cut short. */
  truncated = 0;
  /** The step's own budget ran out: every further read is `[Truncated]`. */
  budgetSpent = false;

  /**
   * @param hash - the run's keyed hash
   * @param limits - the cut-offs
   * @param unreadable - numbers the placeholders of values whose reading threw; a guard numbers them under the step's
   *   index, and a reader of its own numbers them from 0
   */
  constructor(hash: TextHash, limits: ReadLimits = DEFAULT_LIMITS, unreadable: UnreadableNumbering = new UnreadableNumbering('')) {
    this.#hash = hash;
    this.#unreadable = unreadable;
    this.#limits = limits;
    this.#budget = { values: limits.stepValues, characters: limits.stepCharacters };
  }

  #read(value: unknown, tokenFrom: number): string {
    const reading = readForm(value, this.#hash, tokenFrom, this.#budget, this.#limits, this.#unreadable);
    if (reading.cut) this.truncated++;
    if (reading.stepSpent) this.budgetSpent = true;
    return reading.form;
  }

  /** A value's canonical form, as `canonicalize` writes it but with the run's hash in tokens (for arguments). */
  form(value: unknown): string {
    return this.#read(value, LONG_STRING_LENGTH);
  }

  /** A value's form with strings longer than `RAW_STRING_LENGTH` written as tokens (for results and errors). */
  rawForm(value: unknown): string {
    return this.#read(value, RAW_STRING_LENGTH);
  }

  /** The comparison key of a form this reader wrote. */
  formKey(form: string): string {
    return formKey(form, this.#hash);
  }

  /**
   * The comparison key of a string (tool names): quoted when short, otherwise a keyed token. It costs its length from
   * the step's budget, as any string read does; `undefined` when the step has not that much left, and then the budget
   * counts as spent.
   */
  stringKey(text: string): string | undefined {
    if (text.length > this.#budget.characters) {
      this.truncated++;
      this.budgetSpent = true;
      return undefined;
    }
    this.#budget.characters -= text.length;
    return stringKey(text, this.#hash);
  }
}
