import type { GuardStep } from '../types.js';

/**
 * The steps a guard keeps: every one, or only the most recent `limit`. Steps come in frozen (see `readStep`), so the
 * array can be handed to custom rules as it is.
 */
export class History {
  readonly #limit: number | undefined;
  readonly #steps: GuardStep[];
  #copy: readonly GuardStep[] | undefined;

  constructor(limit: number | undefined, initial: readonly GuardStep[] = []) {
    this.#limit = limit;
    this.#steps = [...initial];
  }

  /**
   * Records a step; with a limit, the oldest kept step is forgotten once the limit is reached.
   * @returns a function that takes the step back out, leaving the history as it was (for a peek)
   */
  push(step: GuardStep): () => void {
    const steps = this.#steps;
    const copy = this.#copy;
    this.#copy = undefined;
    steps.push(step);
    const dropped = this.#limit !== undefined && steps.length > this.#limit ? steps.shift() : undefined;
    return () => {
      steps.pop();
      if (dropped !== undefined) steps.unshift(dropped);
      this.#copy = copy;
    };
  }

  /** The kept steps, oldest first, as a frozen copy made at most once per recorded step. */
  snapshot(): readonly GuardStep[] {
    return (this.#copy ??= Object.freeze([...this.#steps]));
  }

  /**
   * What custom rules receive. Without a limit, the live array: a copy per step would make every check cost grow with
   * the run. With a limit, the copy: at most `limit` steps, so the cost stays bounded.
   */
  forRules(): readonly GuardStep[] {
    return this.#limit === undefined ? this.#steps : this.snapshot();
  }
}
