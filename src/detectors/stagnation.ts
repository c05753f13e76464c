import { preview } from '../guard/normalize-text.js';
import type { StopEvidence } from '../types.js';
import { answerShape, isContentless } from './answer-shape.js';
import type { CallFacts, Detector } from './detector.js';
import { createOutcomeMemory } from './outcome-memory.js';
import { savedArray, savedBoolean, savedInteger, savedObject, savedOptional, savedString } from '../snapshot/read-saved.js';

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

/** The window: the last `window` entries as a ring, with running counts so evidence needs no rescan. */
interface Window {
  readonly ring: (Entry | undefined)[];
  /** Entries ever added; the next goes to slot `entries % window`. */
  entries: number;
  newInWindow: number;
  callsInWindow: number;
  readonly callCounts: Map<string, Counted<{ tool: string; argsPreview: string }>>;
  readonly answerCounts: Map<string, Counted<{ shapePreview: string }>>;
}

function emptyWindow(): Window {
  return { ring: [], entries: 0, newInWindow: 0, callsInWindow: 0, callCounts: new Map(), answerCounts: new Map() };
}

function countCalls(window: Window, calls: readonly WindowCall[], delta: 1 | -1): void {
  for (const call of calls) {
    adjust(window.callCounts, call.signature, { tool: call.tool, argsPreview: call.argsPreview }, delta);
    adjust(window.answerCounts, call.answer, { shapePreview: call.shapePreview }, delta);
    window.callsInWindow += delta;
  }
}

/** Adds an entry, pushing out the oldest once the ring is full. */
function addEntry(window: Window, size: number, entry: Entry): void {
  const slot = window.entries % size;
  const leaving = window.ring[slot];
  if (leaving !== undefined) {
    if (leaving.isNew) window.newInWindow--;
    countCalls(window, leaving.calls, -1);
  }
  window.ring[slot] = entry;
  if (entry.isNew) window.newInWindow++;
  countCalls(window, entry.calls, 1);
  window.entries++;
}

/** A copy a peek can change: the ring and the counts (not the entries, which never change). */
function copyWindow(window: Window): Window {
  const copyCounts = <Shown>(counts: Map<string, Counted<Shown>>): Map<string, Counted<Shown>> =>
    new Map([...counts].map(([key, counted]) => [key, { ...counted }]));
  return { ...window, ring: window.ring.slice(), callCounts: copyCounts(window.callCounts), answerCounts: copyCounts(window.answerCounts) };
}

function readCall(value: unknown, path: string): WindowCall {
  const record = savedObject(value, path);
  return {
    signature: savedString(record.signature, `${path}.signature`),
    tool: savedString(record.tool, `${path}.tool`),
    argsPreview: savedString(record.argsPreview, `${path}.argsPreview`),
    answer: savedString(record.answer, `${path}.answer`),
    shapePreview: savedString(record.shapePreview, `${path}.shapePreview`),
  };
}

function readEntry(value: unknown, path: string): Entry {
  const record = savedObject(value, path);
  return {
    step: savedInteger(record.step, `${path}.step`),
    isNew: savedBoolean(record.isNew, `${path}.isNew`),
    calls: savedArray(record.calls, `${path}.calls`).map((call, index) => readCall(call, `${path}.calls[${String(index)}]`)),
  };
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
 * @param saved - what `save()` returned, to continue from there (validated; `path` names it in errors)
 */
export function stagnationDetector(
  options: { readonly window: number; readonly maxNew: number; readonly writeArgsLength: number },
  keyOf: (text: string) => string,
  memory?: number,
  saved?: unknown,
  path = '',
): Detector<'stagnation'> {
  const { window: size, maxNew, writeArgsLength } = options;
  const record = saved === undefined ? undefined : savedObject(saved, path);
  const seen = createOutcomeMemory(memory, record?.answers, `${path}.answers`);
  const window = emptyWindow();
  let previousSignature: string | undefined;
  if (record !== undefined) {
    // Saved oldest first; replayed into an empty window, which rebuilds the counts.
    const entries = savedArray(record.window, `${path}.window`, size);
    window.entries = savedInteger(record.entries, `${path}.entries`, entries.length) - entries.length;
    entries.forEach((entry, index) => addEntry(window, size, readEntry(entry, `${path}.window[${String(index)}]`)));
    previousSignature = savedOptional(record.previousSignature, (value) => savedString(value, `${path}.previousSignature`));
  }

  function evidence(from: Window): StopEvidence['stagnation'] {
    const stepIndexes: number[] = [];
    for (let offset = Math.max(0, size - MAX_STEP_INDEXES); offset < size; offset++) {
      const entry = from.ring[(from.entries + offset) % size];
      if (entry !== undefined) stepIndexes.push(entry.step);
    }
    return {
      window: size,
      maxNew,
      newOutcomes: from.newInWindow,
      calls: top(from.callCounts).map(({ tool, argsPreview, count }) => ({ tool, argsPreview, count })),
      answers: top(from.answerCounts).map(({ shapePreview, count }) => ({ shapePreview, count })),
      callCount: from.callsInWindow,
      distinctCalls: from.callCounts.size,
      stepIndexes,
    };
  }

  return {
    kind: 'stagnation',
    check(facts, remember) {
      const kept: WindowCall[] = [];
      // A peek must not record answers: those new in this step are tracked here instead.
      const newInStep = remember ? undefined : new Set<string>();
      let anyNew = false;
      let previous = previousSignature;
      for (const call of facts.calls) {
        const answer = answerOf(call, writeArgsLength, keyOf);
        let isNew: boolean;
        if (newInStep === undefined) isNew = seen.remember(answer.key, facts.index);
        else {
          isNew = seen.isNew(answer.key, facts.index) && !newInStep.has(answer.key);
          newInStep.add(answer.key);
        }
        const repeat = call.signature === previous && !isNew;
        previous = call.signature;
        if (repeat) continue;
        if (isNew) anyNew = true;
        kept.push({ signature: call.signature, tool: call.name, argsPreview: call.argsPreview, answer: answer.key, shapePreview: preview(answer.shape) });
      }
      if (remember) previousSignature = previous;
      if (kept.length === 0) return undefined;

      const entry: Entry = { step: facts.index, isNew: anyNew, calls: kept };
      let after = window;
      if (remember) addEntry(window, size, entry);
      else {
        const leaving = window.ring[window.entries % size];
        const newAfter = window.newInWindow + (anyNew ? 1 : 0) - (leaving?.isNew === true ? 1 : 0);
        if (window.entries + 1 < size || newAfter > maxNew) return undefined;
        after = copyWindow(window);
        addEntry(after, size, entry);
      }
      if (after.entries < size || after.newInWindow > maxNew) return undefined;
      const found = evidence(after);
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
          detail: `Only ${String(after.newInWindow)} of the last ${String(size)} steps with tool calls brought an answer not seen before in this run; ${most}.`,
          evidence: found,
        },
      };
    },
    state: () => ({ window: size, maxNew, steps: Math.min(window.entries, size), newInWindow: window.newInWindow, distinctAnswers: seen.size }),
    save() {
      const held = Math.min(window.entries, size);
      const entries = Array.from({ length: held }, (_, index) => window.ring[(window.entries - held + index) % size] as Entry);
      return { answers: seen.save(), entries: window.entries, window: entries, previousSignature: previousSignature ?? null };
    },
  };
}
