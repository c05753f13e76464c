import { flattenString } from '../canonical/flatten-string.js';

/**
 * The tool outcomes a `noProgress` detector has already seen: every one in the run, or, with a window, those produced
 * by the last `window` steps before the current one.
 */
export interface OutcomeMemory {
  /** Records that step `index` produced `outcome`; true when it is new (not remembered from an earlier step). */
  remember(outcome: string, index: number): boolean;
  /** How many distinct outcomes are remembered now. */
  readonly size: number;
}

/**
 * Without a window, a set of every outcome of the run. With one, the step that last produced each outcome, plus a
 * queue in step order to forget outcomes once their step leaves the window: constant work per call on average, and
 * memory bounded by the outcomes of `window` steps.
 * @param window - steps looked back over; `undefined` for the whole run
 */
export function createOutcomeMemory(window: number | undefined): OutcomeMemory {
  // Stryker disable next-line all: equivalent: the windowed memory given no window never forgets (index - undefined is NaN), so it answers like the Set; the Set is only cheaper.
  if (window === undefined) {
    const seen = new Set<string>();
    return {
      remember(outcome) {
        if (seen.has(outcome)) return false;
        // Kept for the rest of the run: worth storing in one piece.
        seen.add(flattenString(outcome));
        return true;
      },
      get size() {
        return seen.size;
      },
    };
  }

  const lastSeen = new Map<string, number>();
  // Every call, oldest first; `head` is the first entry not yet forgotten.
  let queue: { readonly outcome: string; readonly index: number }[] = [];
  let head = 0;

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
      const isNew = !lastSeen.has(outcome);
      lastSeen.set(isNew ? flattenString(outcome) : outcome, index);
      queue.push({ outcome, index });
      return isNew;
    },
    get size() {
      return lastSeen.size;
    },
  };
}
