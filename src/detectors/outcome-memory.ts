import { flattenString } from '../canonical/flatten-string.js';
import type { JsonValue } from '../types.js';
import { savedArray, savedInteger, savedObject, savedString } from '../snapshot/read-saved.js';

/**
 * The answers a detector has already seen: every one in the run, or, with a window, those of the last `window` steps
 * before the current one.
 */
export interface OutcomeMemory {
  /** Records that step `index` produced `outcome`; true when it is new (not remembered from an earlier step). */
  remember(outcome: string, index: number): boolean;
  /** Whether `outcome` would be new at step `index`, without recording anything. */
  isNew(outcome: string, index: number): boolean;
  /**
   * Forgets what step `index` no longer looks back to, as recording anything at that step does: for a count of what
   * is remembered as of a step in which nothing was recorded.
   */
  moveTo(index: number): void;
  /**
   * How many distinct outcomes are remembered now. A method, not a getter: a getter in an object literal gives every
   * memory a hidden class of its own, which made each new guard several times slower to create and collect.
   */
  size(): number;
  /** What `createOutcomeMemory` needs to continue from here, as JSON. */
  save(): JsonValue;
}

/**
 * Without a window, a set of every outcome of the run. With one, the step that last produced each outcome, plus a
 * queue in step order to forget outcomes once their step leaves the window: constant work per call on average, and
 * memory bounded by the outcomes of `window` steps.
 * @param window - steps looked back over; `undefined` for the whole run
 * @param saved - to continue from a snapshot: what `save()` returned, validated, and where it sits, to name in errors
 */
export function createOutcomeMemory(window: number | undefined, saved?: { readonly value: unknown; readonly path: string }): OutcomeMemory {
  // Stryker disable next-line all: equivalent: the windowed memory given no window never forgets (index - undefined is NaN), so it answers like the Set; the Set is only cheaper.
  if (window === undefined) {
    const seen = new Set<string>();
    if (saved !== undefined) {
      const { value, path } = saved;
      savedArray(value, path).forEach((outcome, index) => seen.add(savedString(outcome, `${path}[${String(index)}]`)));
    }
    return {
      remember(outcome) {
        // In one piece before it is looked up: a string kept for the rest of the run is half the size flat, and the
        // hash the lookup works out stays with the flat string the set then keeps, instead of being worked out twice.
        const flat = flattenString(outcome);
        if (seen.has(flat)) return false;
        seen.add(flat);
        return true;
      },
      isNew: (outcome) => !seen.has(outcome),
      moveTo() {
        // Nothing is forgotten without a window.
      },
      size: () => seen.size,
      save: () => [...seen],
    };
  }

  const lastSeen = new Map<string, number>();
  // Every call, oldest first; `head` is the first entry not yet forgotten.
  let queue: { readonly outcome: string; readonly index: number }[] = [];
  let head = 0;
  if (saved !== undefined) {
    const { value, path } = saved;
    const record = savedObject(value, path);
    savedArray(record.queue, `${path}.queue`).forEach((entry, position) => {
      const entryPath = `${path}.queue[${String(position)}]`;
      const [outcome, index] = savedArray(entry, entryPath);
      queue.push({ outcome: savedString(outcome, `${entryPath}[0]`), index: savedInteger(index, `${entryPath}[1]`) });
    });
    // The latest step of each outcome is the last queue entry that holds it.
    for (const { outcome, index } of queue) lastSeen.set(outcome, index);
  }

  function forgetBefore(firstKept: number): void {
    for (let entry = queue[head]; entry !== undefined && entry.index < firstKept; entry = queue[++head]) {
      // A later step may have produced the outcome again; then it stays.
      if (lastSeen.get(entry.outcome) === entry.index) lastSeen.delete(entry.outcome);
    }
    // Drop the forgotten front now and then, so the queue holds about the window and no more.
    // Stryker disable next-line all: equivalent: when the forgotten front is dropped changes memory use, never an answer.
    if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  }

  return {
    remember(outcome, index) {
      // Whatever is still remembered after this came from one of the last `window` steps (or from this one).
      forgetBefore(index - window);
      const flat = flattenString(outcome);
      const isNew = !lastSeen.has(flat);
      lastSeen.set(flat, index);
      queue.push({ outcome: flat, index });
      return isNew;
    },
    isNew(outcome, index) {
      const last = lastSeen.get(outcome);
      return last === undefined || last < index - window;
    },
    moveTo(index) {
      forgetBefore(index - window);
    },
    size: () => lastSeen.size,
    save: () => ({ queue: queue.slice(head).map(({ outcome, index }) => [outcome, index]) }),
  };
}
