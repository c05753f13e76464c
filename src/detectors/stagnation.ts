import { preview } from '../guard/normalize-text.js';
import type { StopEvidence } from '../types.js';
import { answerShape, isContentless } from './answer-shape.js';
import type { CallFacts, Detector } from './detector.js';
import { createOutcomeMemory } from './outcome-memory.js';

/** Step indexes kept in evidence, as for the other detectors. */
const MAX_STEP_INDEXES = 100;
/** Calls and answers listed in evidence. */
const TOP_ENTRIES = 3;

/** What one call brought, as the window keeps it. */
interface WindowCall {
  readonly signature: string;
  readonly tool: string;
  readonly argsPreview: string;
  readonly answer: string;
  readonly shapePreview: string;
}

/** One step with tool calls, as the window keeps it. */
interface Entry {
  readonly step: number;
  readonly isNew: boolean;
  readonly calls: readonly WindowCall[];
}

/** A count of something in the window, with what evidence shows of it. */
type Counted<Shown> = Shown & { count: number };

/**
 * What a call's answer is compared by: the answer, not the call.
 * - Without a result or an error there is nothing to compare, so the call itself is the key.
 * - An answer without words (see `isContentless`) to a call with at least `writeArgsLength` characters of arguments is
 *   keyed by the call too: that is how a successful write answers, and twenty different writes answered "ok" made
 *   progress. To a shorter call, it is compared as it is: `[]` after `[]` ("find" with no hit again) is the same
 *   answer, `42` after `17` (a calculator) is not.
 * - Otherwise the shape of the result, with the shape of the error when the call failed. The tool name is left out:
 *   some agents name a call after the first word the model typed, and the answer is what tells whether it learnt
 *   anything.
 */
function answerOf(call: CallFacts, writeArgsLength: number, keyOf: (text: string) => string): { key: string; shape: string } {
  const { resultText, errorText } = call;
  if (resultText === undefined && errorText === undefined) return { key: keyOf(`c${call.signature}`), shape: '' };
  const result = resultText ?? '';
  if (errorText === undefined && isContentless(result)) {
    const shape = answerShape(result);
    return call.argsLength >= writeArgsLength ? { key: keyOf(`w${call.signature}\u0000${shape}`), shape } : { key: keyOf(`x${result}`), shape };
  }
  let shape = answerShape(result);
  if (errorText !== undefined) shape += `${shape === '' ? '' : ' '}error: ${answerShape(errorText)}`;
  // The prefix keeps failures apart from results that read the same.
  return { key: keyOf(`${errorText === undefined ? 'a' : 'e'}${shape}`), shape };
}

/** Adds `delta` to the count kept under `key`, dropping it at zero. */
function adjust<Shown>(counts: Map<string, Counted<Shown>>, key: string, shown: Shown, delta: 1 | -1): void {
  const counted = counts.get(key);
  if (counted === undefined) counts.set(key, { ...shown, count: 1 });
  else if ((counted.count += delta) === 0) counts.delete(key);
}

/** The most frequent entries, ties in the order they entered the window. */
function top<Shown>(counts: Map<string, Counted<Shown>>): Counted<Shown>[] {
  return [...counts.values()].sort((left, right) => right.count - left.count).slice(0, TOP_ENTRIES);
}

/**
 * Stops when, of the last `window` steps with tool calls, at most `maxNew` brought an answer not seen before in the
 * run: the agent cycles irregularly among calls whose answers never change, or varies its arguments and keeps getting
 * the same kind of answer. Answers are compared by shape (see `answerShape`).
 *
 * A call identical to the one just before it whose answer is not new is left out: a run of identical calls is
 * `repeatedToolCall`'s business. A step's remaining calls form one entry of the window, new when any of them brought
 * a new answer, so ten parallel lookups count once. Steps without such calls add nothing and never stop. A step costs
 * O(its calls): the window is a ring with running counts, and evidence is built only on a stop.
 * @param options - the resolved `stagnation` options
 * @param keyOf - the guard's comparison key for a text (itself when short, length and hash when long)
 * @param memory - with `historyLimit`, answers count as seen only when one of the last `memory` steps brought them
 */
export function stagnationDetector(
  options: { readonly window: number; readonly maxNew: number; readonly writeArgsLength: number },
  keyOf: (text: string) => string,
  memory?: number,
): Detector<'stagnation'> {
  const { window, maxNew, writeArgsLength } = options;
  const seen = createOutcomeMemory(memory);
  const ring: (Entry | undefined)[] = [];
  let entries = 0;
  let newInWindow = 0;
  let callsInWindow = 0;
  // Kept up to date as entries come and go, so evidence needs no rescan of the window.
  const callCounts = new Map<string, Counted<{ tool: string; argsPreview: string }>>();
  const answerCounts = new Map<string, Counted<{ shapePreview: string }>>();
  let previousSignature: string | undefined;

  function count(calls: readonly WindowCall[], delta: 1 | -1): void {
    for (const call of calls) {
      adjust(callCounts, call.signature, { tool: call.tool, argsPreview: call.argsPreview }, delta);
      adjust(answerCounts, call.answer, { shapePreview: call.shapePreview }, delta);
      callsInWindow += delta;
    }
  }

  function evidence(): StopEvidence['stagnation'] {
    const stepIndexes: number[] = [];
    for (let offset = Math.max(0, window - MAX_STEP_INDEXES); offset < window; offset++) {
      const entry = ring[(entries + offset) % window];
      if (entry !== undefined) stepIndexes.push(entry.step);
    }
    return {
      window,
      maxNew,
      newOutcomes: newInWindow,
      calls: top(callCounts).map(({ tool, argsPreview, count: times }) => ({ tool, argsPreview, count: times })),
      answers: top(answerCounts).map(({ shapePreview, count: times }) => ({ shapePreview, count: times })),
      callCount: callsInWindow,
      distinctCalls: callCounts.size,
      stepIndexes,
    };
  }

  return {
    kind: 'stagnation',
    check(facts) {
      const kept: WindowCall[] = [];
      let anyNew = false;
      for (const call of facts.calls) {
        const answer = answerOf(call, writeArgsLength, keyOf);
        const isNew = seen.remember(answer.key, facts.index);
        const repeat = call.signature === previousSignature && !isNew;
        previousSignature = call.signature;
        if (repeat) continue;
        if (isNew) anyNew = true;
        kept.push({ signature: call.signature, tool: call.name, argsPreview: call.argsPreview, answer: answer.key, shapePreview: preview(answer.shape) });
      }
      if (kept.length === 0) return undefined;

      const slot = entries % window;
      const leaving = ring[slot];
      if (leaving !== undefined) {
        if (leaving.isNew) newInWindow--;
        count(leaving.calls, -1);
      }
      ring[slot] = { step: facts.index, isNew: anyNew, calls: kept };
      if (anyNew) newInWindow++;
      count(kept, 1);
      entries++;

      if (entries < window || newInWindow > maxNew) return undefined;
      const found = evidence();
      // Whichever repeats more says what kind of loop it is: a call (a cycle) or an answer (new arguments, same reply).
      const [call] = found.calls as [StopEvidence['stagnation']['calls'][number]];
      const [answer] = found.answers as [StopEvidence['stagnation']['answers'][number]];
      const most =
        call.count >= answer.count
          ? `${call.tool}(${call.argsPreview}) was called ${String(call.count)} times`
          : `the same answer came back ${String(answer.count)} times: "${answer.shapePreview}"`;
      return {
        stop: {
          code: 'STAGNATION',
          detail: `Only ${String(newInWindow)} of the last ${String(window)} steps with tool calls brought an answer not seen before in this run; ${most}.`,
          evidence: found,
        },
      };
    },
    state: () => ({ window, maxNew, steps: Math.min(entries, window), newInWindow, distinctAnswers: seen.size }),
  };
}
