import { integer, list, savedArray, savedError, text } from '../utils/validate.js';

/**
 * What a run has seen: keys (call outcomes, or answers a detector asked it to remember) with the last step that
 * produced each. Every key of the run, or, with a window (`historyLimit`), those of the last `window` steps before the
 * current one: a queue in step order forgets keys once their step leaves the window, so memory stays bounded by the
 * keys of `window` steps.
 */
export class RunMemory {
  readonly #window: number | undefined;
  readonly #lastSeen = new Map<string, number>();
  // Every key recorded with a window, oldest first; `#head` is the first entry not yet forgotten.
  #queue: (readonly [string, number])[] = [];
  #head = 0;

  constructor(window: number | undefined) {
    this.#window = window;
  }

  /** Whether `key` would be new at step `index`: never seen, or seen only before the window. */
  isNew(key: string, index: number): boolean {
    const last = this.#lastSeen.get(key);
    return last === undefined || (this.#window !== undefined && last < index - this.#window);
  }

  /** Records that step `index` produced `keys`, first forgetting what step `index` no longer looks back to. */
  record(index: number, keys: readonly string[]): void {
    if (this.#window !== undefined) this.#forgetBefore(index - this.#window);
    for (const key of keys) {
      this.#lastSeen.set(key, index);
      if (this.#window !== undefined) this.#queue.push([key, index]);
    }
  }

  #forgetBefore(firstKept: number): void {
    for (let entry = this.#queue[this.#head]; entry !== undefined && entry[1] < firstKept; entry = this.#queue[++this.#head]) {
      // A later step may have produced the key again; then it stays.
      if (this.#lastSeen.get(entry[0]) === entry[1]) this.#lastSeen.delete(entry[0]);
    }
    // Drop the forgotten front now and then, so the queue holds about the window and no more.
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
  }

  /** How many distinct keys are remembered. */
  get size(): number {
    return this.#lastSeen.size;
  }

  /** Each key with the last step that produced it, in step order (keys of one step sorted): plain JSON, one form. */
  save(): [string, number][] {
    return [...this.#lastSeen].sort(([leftKey, left], [rightKey, right]) => left - right || (leftKey < rightKey ? -1 : leftKey > rightKey ? 1 : 0));
  }

  /**
   * A memory from what `save()` wrote, checked.
   * @param steps - the steps the snapshot's run had taken: no key can come from a later one
   * @throws TypeError naming the field that does not fit
   */
  static restore(saved: unknown, window: number | undefined, steps: number, path: string): RunMemory {
    const memory = new RunMemory(window);
    const entries = list((entry, entryPath) => {
      const pair = savedArray(entry, entryPath);
      if (pair.length !== 2) savedError(entryPath, 'a key and a step index', entry);
      return [text(pair[0], `${entryPath}[0]`), integer(0, Math.max(steps - 1, 0))(pair[1], `${entryPath}[1]`)] as const;
    })(saved, path);
    entries.forEach(([key, index], position) => {
      const entryPath = `${path}[${position}]`;
      // Saved in step order, each key once: anything else was not written by `save()`.
      if (index < (entries[position - 1]?.[1] ?? 0)) savedError(`${entryPath}[1]`, 'a step index no lower than the one before', index);
      if (memory.#lastSeen.has(key)) savedError(`${entryPath}[0]`, 'a key not listed before', key);
      memory.record(index, [key]);
    });
    return memory;
  }
}
