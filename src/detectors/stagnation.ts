import { preview } from '../guard/normalize-text.js';
import type { StopEvidence } from '../types.js';
import { answerKind } from './answer-kind.js';
import { answerShape } from './answer-shape.js';
import { blankEchoes, echoedWords } from './blank-echoes.js';
import type { CallFacts, Detector } from './detector.js';
import { createOutcomeMemory } from './outcome-memory.js';
import type { SharedOutcomes } from './shared-outcomes.js';
import { savedArray, savedBoolean, savedInteger, savedObject, savedOptional, savedString } from '../snapshot/read-saved.js';

/** What `stagnation` shares with the run and the other detectors. */
export interface StagnationRun {
  /** The guard's comparison key for a text (itself when short, length and hash when long). */
  readonly keyOf: (text: string) => string;
  /** The run's memory of call outcomes, which `noProgress` shares. */
  readonly outcomes: SharedOutcomes;
  /** Whether this detector saves and restores `outcomes` (when `noProgress`, which otherwise does, is off). */
  readonly ownsOutcomes: boolean;
  /** With `historyLimit`, answers count as seen only when one of the last `memory` steps brought them. */
  readonly memory: number | undefined;
}

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

/** What a call's answer is compared by, and how evidence shows it (see `answerOf`). */
interface Answer {
  readonly key: string;
  readonly shape: string;
  readonly byCall: boolean;
}

/** The shape a failure is compared by: quoted spans, numbers and the words that echo the call's arguments blanked. */
function failureShape(text: string, argsPreview: string): string {
  return blankEchoes(answerShape(text), echoedWords(argsPreview));
}

/**
 * What a call's answer is compared by. An answer with information of its own is new whenever the call is: it is
 * compared together with the call, exactly (tool, canonical arguments and the answer as `outcome` holds it). So twenty
 * lookups by id, twenty pages, twenty different writes answered `ok` or `{ success: true }` are twenty new outcomes,
 * while an irregular cycle among reads whose answers never change brings none. Only answers that say nothing beyond
 * "it did not work" are compared across calls, where new arguments that keep getting one answer are the loop:
 * - Without a result or an error there is nothing to compare, so the call itself is the key.
 * - A result that reads as a failure or as "nothing found" (see `answerKind`), and a text error, by its shape with
 *   the words that echo the arguments blanked too (see `blankEchoes`): "No matches found for "a"" and "... for "b"",
 *   `javac: command not found` and `mvn: command not found`, are one answer. Structured errors as they are. The tool
 *   name is left out: some agents name a call after the first word the model typed.
 * - An empty result (no letter, no digit: `''`, `[]`, `<output></output>`) to a call with at least `writeArgsLength`
 *   characters of arguments is how a successful write answers, so the call is the progress; to a shorter call it is
 *   nothing found, compared exactly (by the key `outcome` holds for it, not hashed again) across calls.
 * @returns the key, and the answer as evidence shows it (its shape when compared by shape, else the answer itself);
 *   `byCall` when the key is the call's outcome, whose newness the run's shared memory of outcomes knows
 */
function answerOf(call: CallFacts, writeArgsLength: number, keyOf: (text: string) => string): Answer {
  const { resultText, errorText } = call;
  // The call's outcome itself is the key of an answer compared with its call (and of a call with neither result nor
  // error, whose outcome is its signature): the run's shared memory of outcomes says whether it is new. An outcome
  // opens with a quoted tool name or a token (`"` or `#`), so it meets none of the marked keys below, which this
  // detector remembers itself.
  if (resultText === undefined && errorText === undefined) return { key: call.outcome, shape: '', byCall: true };
  const result = resultText ?? '';
  if (errorText === undefined) {
    const kind = answerKind(result, !call.resultIsText, call.resultKeys);
    if (kind === 'failure') {
      const shape = failureShape(result, call.argsPreview);
      return { key: `${call.resultIsText ? 'a' : 's'}\u0000${keyOf(shape)}`, shape, byCall: false };
    }
    if (kind === 'answer' || call.argsLength >= writeArgsLength) return { key: call.outcome, shape: result, byCall: true };
    return { key: `x${call.resultKey}`, shape: result, byCall: false };
  }
  // Text by its shape; structured data as it is, by the key `outcome` holds (not hashed again). The marks keep text
  // apart from data and failures apart from results; the length keeps the result's part apart from the error's.
  const resultShape = call.resultIsText ? failureShape(result, call.argsPreview) : result;
  const resultPart = call.resultIsText ? keyOf(resultShape) : call.resultKey;
  const errorShape = call.errorIsText ? failureShape(errorText, call.argsPreview) : errorText;
  const errorPart = call.errorIsText ? keyOf(errorShape) : call.errorKey;
  return {
    key: `${call.resultIsText ? 'a' : 's'}${call.errorIsText ? 'e' : 'f'}\u0000${String(resultPart.length)}:${resultPart}${errorPart}`,
    shape: `${resultShape}${resultShape === '' ? '' : ' '}error: ${errorShape}`,
    byCall: false,
  };
}

/**
 * The most frequent of some items of the window's calls, at most three, with their counts; ties in the order of
 * their first appearance in the window (oldest first).
 */
function top<Shown>(calls: readonly WindowCall[], keyOf: (call: WindowCall) => string, show: (call: WindowCall) => Shown): (Shown & { count: number })[] {
  const counted = new Map<string, Shown & { count: number }>();
  for (const call of calls) {
    const key = keyOf(call);
    const entry = counted.get(key);
    if (entry === undefined) counted.set(key, { ...show(call), count: 1 });
    else entry.count++;
  }
  // A stable sort keeps first appearances in order among equal counts.
  return [...counted.values()].sort((left, right) => right.count - left.count).slice(0, TOP_ENTRIES);
}

/** The window: the last `window` entries as a ring, with how many of them were new. */
interface Window {
  readonly ring: (Entry | undefined)[];
  /** Entries ever added; the next goes to slot `entries % window`. */
  entries: number;
  newInWindow: number;
}

/** Adds an entry, pushing out the oldest once the ring is full. */
function addEntry(window: Window, size: number, entry: Entry): void {
  const slot = window.entries % size;
  if (window.ring[slot]?.isNew === true) window.newInWindow--;
  window.ring[slot] = entry;
  if (entry.isNew) window.newInWindow++;
  window.entries++;
}

/** The window's entries, oldest first. */
function entriesOf(window: Window, size: number): Entry[] {
  const entries: Entry[] = [];
  for (let offset = 0; offset < size; offset++) {
    const entry = window.ring[(window.entries + offset) % size];
    if (entry !== undefined) entries.push(entry);
  }
  return entries;
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
 * the same failure or the same "nothing found". An answer is new with its call unless it says only that (see
 * `answerOf`).
 *
 * A call identical to the one just before it whose answer is not new is left out: a run of identical calls is
 * `repeatedToolCall`'s business. A step's remaining calls form one entry of the window, new when any of them brought
 * a new answer, so ten parallel lookups count once. Steps without such calls add nothing and never stop. A step costs
 * O(its calls): the window is a ring with running counts, and evidence is built only on a stop.
 * @param options - the resolved `stagnation` options
 * @param run - what the detector shares with the run: see {@link StagnationRun}
 * @param saved - what `save()` returned, to continue from there (validated; `path` names it in errors)
 */
export function stagnationDetector(
  options: { readonly window: number; readonly maxNew: number; readonly writeArgsLength: number; readonly warnBefore: number | false },
  run: StagnationRun,
  saved?: unknown,
  path = '',
): Detector<'stagnation'> {
  const { window: size, maxNew, writeArgsLength, warnBefore } = options;
  const { keyOf, outcomes, ownsOutcomes, memory } = run;
  // A full window with at most this many new steps warns, above `maxNew`.
  const warnUpTo = warnBefore === false ? maxNew : maxNew + warnBefore;
  const record = saved === undefined ? undefined : savedObject(saved, path);
  // The answers compared across calls; those compared with their call are in the shared memory of outcomes.
  const seen = createOutcomeMemory(memory, record === undefined ? undefined : { value: record.answers, path: `${path}.answers` });
  if (record !== undefined && ownsOutcomes) outcomes.restore(record.outcomes, `${path}.outcomes`);
  const window: Window = { ring: [], entries: 0, newInWindow: 0 };
  let previousSignature: string | undefined;
  if (record !== undefined) {
    // Saved oldest first; replayed into an empty window, which rebuilds the counts.
    const entries = savedArray(record.window, `${path}.window`, size);
    window.entries = savedInteger(record.entries, `${path}.entries`, entries.length) - entries.length;
    entries.forEach((entry, index) => {
      addEntry(window, size, readEntry(entry, `${path}.window[${String(index)}]`));
    });
    previousSignature = savedOptional(record.previousSignature, (value) => savedString(value, `${path}.previousSignature`));
  }

  /** Built only on a stop: a scan of the window, bounded by its size. */
  function evidence(from: Window): StopEvidence['stagnation'] {
    const entries = entriesOf(from, size);
    const calls = entries.flatMap((entry) => entry.calls);
    const stepIndexes = entries.slice(-MAX_STEP_INDEXES).map((entry) => entry.step);
    return {
      window: size,
      maxNew,
      newOutcomes: from.newInWindow,
      calls: top(calls, (call) => call.signature, ({ tool, argsPreview }) => ({ tool, argsPreview })),
      answers: top(calls, (call) => call.answer, ({ shapePreview }) => ({ shapePreview })),
      callCount: calls.length,
      distinctCalls: new Set(calls.map((call) => call.signature)).size,
      stepIndexes,
    };
  }

  return {
    kind: 'stagnation',
    judgesCalls: false,
    check(facts, remember) {
      const kept: WindowCall[] = [];
      const { calls, index } = facts;
      const fresh = outcomes.newness(facts, remember);
      // What is remembered is counted as of the last step with calls, whether or not it brought answers kept here.
      if (remember && calls.length > 0) seen.moveTo(index);
      // A peek must not record answers: those new in this step are tracked here instead.
      const newInStep = remember ? undefined : new Set<string>();
      let anyNew = false;
      let previous = previousSignature;
      let position = 0;
      for (const call of calls) {
        const outcomeIsNew = fresh[position++] === true;
        const answer = answerOf(call, writeArgsLength, keyOf);
        let isNew: boolean;
        if (answer.byCall) isNew = outcomeIsNew;
        else if (newInStep === undefined) isNew = seen.remember(answer.key, index);
        else {
          isNew = seen.isNew(answer.key, index) && !newInStep.has(answer.key);
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

      const entry: Entry = { step: index, isNew: anyNew, calls: kept };
      let after = window;
      if (remember) addEntry(window, size, entry);
      else {
        // A peek works out the count first, and copies the ring (at most `window` slots) only to build evidence.
        const newAfter = window.newInWindow + (anyNew ? 1 : 0) - (window.ring[window.entries % size]?.isNew === true ? 1 : 0);
        if (window.entries + 1 < size || newAfter > warnUpTo) return undefined;
        after = { ...window, ring: window.ring.slice() };
        addEntry(after, size, entry);
      }
      if (after.entries < size || after.newInWindow > warnUpTo) return undefined;
      const found = evidence(after);
      // Whichever repeats more says what kind of loop it is: a call (a cycle) or an answer (new arguments, same reply).
      const [call] = found.calls as [StopEvidence['stagnation']['calls'][number]];
      const [answer] = found.answers as [StopEvidence['stagnation']['answers'][number]];
      const most =
        call.count >= answer.count
          ? `${call.tool}(${call.argsPreview}) was called ${call.count === 1 ? 'once' : `${String(call.count)} times`}`
          : `the same answer came back ${String(answer.count)} times: "${answer.shapePreview}"`;
      const share = `${String(after.newInWindow)} of the last ${String(size)} steps with tool calls`;
      if (after.newInWindow > maxNew) {
        return {
          warnings: [
            {
              code: 'LOOP_WARNING',
              reason: 'stagnation',
              detail: `Only ${share} brought an answer not seen before in this run; ${most}. ${String(maxNew)} or fewer stop the run.`,
              message: `Only ${share} brought you an answer you had not seen before; ${most}. Searching the same way is not finding anything new: change your approach, or answer with what you have.`,
              evidence: found,
            },
          ],
        };
      }
      return {
        stop: {
          code: 'STAGNATION',
          detail: `Only ${share} brought an answer not seen before in this run; ${most}.`,
          evidence: found,
        },
      };
    },
    state: () => ({ window: size, maxNew, steps: Math.min(window.entries, size), newInWindow: window.newInWindow, distinctFailures: seen.size() }),
    save: () => ({
      answers: seen.save(),
      ...(ownsOutcomes ? { outcomes: outcomes.save() } : {}),
      entries: window.entries,
      window: entriesOf(window, size),
      previousSignature: previousSignature ?? null,
    }),
  };
}
