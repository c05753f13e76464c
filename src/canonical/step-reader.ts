import { formKeyWith, stringKeyWith } from './comparison-key.js';
import { type HashKey, hashOfKey } from './hash-key.js';
import { type ReadLimits, DEFAULT_LIMITS } from './limits.js';
import type { TextHash } from './text-hash.js';
import { Walker } from './walker.js';

/**
 * Reads everything one step holds (every call's arguments, results and errors) against one budget, and hashes what
 * it compares with a secret key. Make one per step and drop it with the step.
 *
 * - The budget: each value read may spend up to the per-value limits (`MAX_VALUES`, `MAX_CHARACTERS`), and all the
 *   step's reads together up to `STEP_VALUES` values and `STEP_CHARACTERS` characters. Past it, values become
 *   `[Truncated]` as within one value; {@link StepReader.truncated} counts the reads that were cut, so the guard can
 *   say so, and {@link StepReader.budgetSpent} tells that the step's own budget ran out.
 * - An object met again in the step is written from memory, not walked again (see `Walker` for when that applies;
 *   the form is the one a new walk would write).
 * - Tokens for long strings and huge bigints, and hashed keys, use SipHash keyed with the guard's key (see
 *   `hashOfKey`): someone who controls tool output but not the key cannot build two values with the same key.
 *
 * Keys from {@link StepReader.key}, {@link StepReader.formKey} and {@link StepReader.stringKey} are three different
 * kinds: compare keys of one kind with each other only.
 */
export class StepReader {
  readonly #walker: Walker;
  readonly #hash: TextHash;
  readonly #limits: ReadLimits;

  /**
   * @param hashKey - the guard's key (`createHashKey`, or one restored from a snapshot)
   * @param limits - the cut-offs; the documented defaults unless a test says otherwise
   */
  constructor(hashKey: HashKey, limits: ReadLimits = DEFAULT_LIMITS) {
    this.#hash = hashOfKey(hashKey);
    this.#limits = limits;
    this.#walker = new Walker(limits, this.#hash);
  }

  /**
   * A value's canonical form, as `canonicalize` writes it but for the shared budget and the keyed hash in tokens of
   * strings and bigints too long to write out. For tool arguments: the guard shows the start of it.
   * @param value - anything
   * @returns the form
   */
  form(value: unknown): string {
    return this.#walker.read(value, this.#limits.longStringLength);
  }

  /**
   * The comparison key of a form from {@link StepReader.form}: the form when it is short, otherwise its length and
   * keyed hash.
   * @param form - a form this reader wrote
   * @returns the key
   */
  formKey(form: string): string {
    return formKeyWith(form, this.#hash);
  }

  /**
   * The comparison key of a value, for tool results and errors: two values read with the same budget left get equal
   * keys exactly when their canonical forms are equal (barring hash collisions; a read the step's budget cuts short
   * ends in `[Truncated]`, as {@link StepReader.truncated} tells). Strings longer than `RAW_STRING_LENGTH` are hashed
   * raw, as tokens, instead of escaped, and no form is kept beyond the key.
   * @param value - anything
   * @returns the key
   */
  key(value: unknown): string {
    return formKeyWith(this.rawForm(value), this.#hash);
  }

  /**
   * A value's form with strings longer than `RAW_STRING_LENGTH` written as tokens: what {@link StepReader.key} hashes.
   * For a value the guard needs both to compare and to read as text, in one walk.
   * @param value - anything
   * @returns the form
   */
  rawForm(value: unknown): string {
    return this.#walker.read(value, this.#limits.rawStringLength);
  }

  /**
   * The comparison key of a string, for tool names and step texts: quoted when short, otherwise a keyed token. Costs
   * nothing from the budget and never escapes or lower-cases a long string.
   * @param text - the string
   * @returns the key
   */
  stringKey(text: string): string {
    return stringKeyWith(text, this.#hash);
  }

  /**
   * The keys of the object at the top of the last form this reader wrote, in the order written, when it was written
   * member by member (see `Walker.topKeys`); `undefined` otherwise. Every key of that form's top level is one of them.
   */
  get topKeys(): readonly string[] | undefined {
    return this.#walker.topKeys;
  }

  /** How many of this reader's reads were cut short (their form ends with `[Truncated]`). */
  get truncated(): number {
    return this.#walker.truncatedReads;
  }

  /** Whether the step's own budget, of values or of characters, is spent: every further read is `[Truncated]`. */
  get budgetSpent(): boolean {
    return this.#walker.stepBudgetSpent;
  }
}
