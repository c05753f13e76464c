import { createGuard } from '../guard/create-guard.js';
import type { CallVerdict, Guard, GuardStep, GuardToolCall, Verdict } from '../types.js';
import { loopMessage } from '../guard/verdict.js';
import { argumentError, isRecord } from '../utils/validate.js';
import { isGuard } from './per-run-guard.js';

/** Whether a value can be iterated, with `for await` or `for`. */
function isIterable(value: unknown): value is Iterable<unknown> | AsyncIterable<unknown> {
  try {
    const object = value as { [Symbol.iterator]?: unknown; [Symbol.asyncIterator]?: unknown } | null | undefined;
    return typeof object?.[Symbol.asyncIterator] === 'function' || typeof object?.[Symbol.iterator] === 'function';
  } catch {
    return false;
  }
}

/** The steps of a source, as long as the guard lets them through, plus the last verdict. */
export interface GuardedSteps<Step extends GuardStep> extends AsyncIterable<Step> {
  /** The verdict on the latest step; `undefined` before the first one. */
  readonly verdict: Verdict | undefined;
  /** What to tell the model of a loop that is forming (see `loopMessage`), from the latest verdict, or `undefined`. */
  readonly nudge: string | undefined;
  /** Whether running a tool call now would complete a loop (see `guard.judgeCall`), before the source runs it. */
  readonly judgeCall: (call: GuardToolCall, earlier?: readonly GuardToolCall[]) => CallVerdict;
}

/**
 * Passes the steps of a sync or async iterable through a guard while you iterate them.
 *
 * Every step is checked before it is handed on. The step that makes the guard say stop is still handed on (it has
 * already happened); after it, iteration ends and the source iterator is closed, so its `return()` runs (a
 * generator's `finally` blocks, a stream's cleanup). Breaking out of the loop closes the source too.
 * @param source - the steps, as they happen
 * @param guard - the guard that judges them. @default createGuard()
 * @returns an async iterable of the same steps with a `verdict` property
 */
export function withGuard<Step extends GuardStep>(
  source: Iterable<Step | PromiseLike<Step>> | AsyncIterable<Step>,
  guard: Guard = createGuard(),
): GuardedSteps<Step> {
  if (!isIterable(source)) argumentError('withGuard takes an iterable or async iterable of steps (an array, a generator, a stream)', source);
  if (!isGuard(guard)) argumentError('withGuard\'s guard is one createGuard() made', guard);
  let verdict: Verdict | undefined;
  // The source is the caller's code: an item that is not a step is its mistake, named here rather than in check.
  const judge = (step: unknown): Verdict => {
    if (!isRecord(step)) argumentError('withGuard\'s source must yield steps, objects such as { toolCalls, text, finishReason }', step);
    return guard.check(step);
  };
  async function* guarded(): AsyncGenerator<Step, undefined, undefined> {
    if (Symbol.asyncIterator in source) {
      for await (const step of source) {
        verdict = judge(step);
        yield step;
        // Returning from inside `for await` calls the source iterator's `return()`.
        if (verdict.stop) return undefined;
      }
      return undefined;
    }
    // A sync iterable is walked by hand: `for await` over one does not close it when an item's promise rejects.
    const iterator = source[Symbol.iterator]();
    let open = true;
    try {
      for (;;) {
        let next: IteratorResult<Step | PromiseLike<Step>>;
        try {
          next = iterator.next();
        } catch (error) {
          // An iterator whose `next` throws is finished; it is not closed.
          open = false;
          throw error;
        }
        if (next.done === true) {
          open = false;
          return undefined;
        }
        const step = await next.value;
        verdict = judge(step);
        yield step;
        if (verdict.stop) return undefined;
      }
    } finally {
      if (open) iterator.return?.();
    }
  }
  return {
    get verdict() {
      return verdict;
    },
    get nudge() {
      return loopMessage(verdict);
    },
    judgeCall: (call, earlier) => guard.judgeCall(call, earlier),
    [Symbol.asyncIterator]: guarded,
  };
}
