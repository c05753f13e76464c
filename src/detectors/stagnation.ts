import type { StopEvidence } from '../types.js';
import { preview, toolLabel } from '../utils/text.js';
import { flag, integer, integerOption, list, nullable, record, savedError, text } from '../utils/validate.js';
import { answerKind, failureShape } from './answers.js';
import { DEFAULT_OPTIONS } from './defaults.js';
import { ANY_RUN, type CallFacts, type Detector, optionSection, type SavedRun, warnBeforeOption } from './detector.js';

/** Largest window: evidence is built from it. */
const MAX_WINDOW = 1_000;
/** Step indexes kept in evidence, as for the other detectors. */
const MAX_STEP_INDEXES = 100;
/** Calls and answers listed in evidence. */
const TOP_ENTRIES = 3;

/** Options of `stagnation` after validation. */
export interface StagnationSettings {
  readonly window: number;
  readonly maxNew: number;
  readonly writeArgsLength: number;
  readonly warnBefore: number | false;
}

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

interface StagnationState {
  /** Entries ever added. */
  readonly entries: number;
  /** The last `window` entries, oldest first. */
  readonly window: readonly Entry[];
  /** How many of them were new. */
  readonly newInWindow: number;
  /** The signature of the last call seen, to leave out a call that repeats it without news. */
  readonly previousSignature: string | null;
}

function resolveStagnation(value: unknown): StagnationSettings | false {
  const options = optionSection('stagnation', value, ['window', 'maxNew', 'writeArgsLength', 'warnBefore']);
  if (options === false) return false;
  const defaults = DEFAULT_OPTIONS.stagnation;
  const window = integerOption('stagnation.window', options.window, 2, defaults.window, MAX_WINDOW);
  return {
    window,
    // Below the window, so a run whose every step brings a new answer can never stop.
    maxNew: integerOption('stagnation.maxNew', options.maxNew, 0, Math.min(defaults.maxNew, window - 1), window - 1),
    writeArgsLength: integerOption('stagnation.writeArgsLength', options.writeArgsLength, 0, defaults.writeArgsLength),
    warnBefore: warnBeforeOption('stagnation.warnBefore', options.warnBefore, defaults.warnBefore),
  };
}

/** What a call's answer is compared by, and how evidence shows it (see `answerOf`). */
interface Answer {
  readonly key: string;
  readonly shape: string;
  readonly byCall: boolean;
}

/**
 * What a call's answer is compared by. An answer with information of its own is new whenever the call is: it is
 * compared together with the call, exactly (tool, canonical arguments and the answer as `outcome` holds it). So twenty
 * lookups by id, twenty pages, twenty different writes answered `ok` or `{ success: true }` are twenty new outcomes,
 * while an irregular cycle among reads whose answers never change brings none. Only answers that say nothing beyond
 * "it did not work" are compared across calls, where new arguments that keep getting one answer are the loop:
 * - Without a result or an error there is nothing to compare, so the call itself is the key.
 * - A result that reads as a failure or as "nothing found" (see `answerKind`), and a text error, by its shape with
 *   the words that echo the arguments blanked too (see `failureShape`): "No matches found for "a"" and "... for "b"",
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
    const kind = answerKind(result, call.resultReading);
    if (kind === 'failure') {
      // A structured failure by the fields that say so, whatever else the value holds.
      const shape = failureShape(call.failureForm ?? result, call.argsPreview);
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
    key: `${call.resultIsText ? 'a' : 's'}${call.errorIsText ? 'e' : 'f'}\u0000${resultPart.length}:${resultPart}${errorPart}`,
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

/**
 * Evidence lists the most frequent calls and answers among at most this many of the window's latest calls: built on
 * every warning and stop, it costs no more than reading one step of the most calls a step may hold, whatever the
 * window.
 */
export const EVIDENCE_CALLS = 10_000;

/** The latest calls of the window, whole entries only, at most {@link EVIDENCE_CALLS} (the latest entry's at least). */
function latestCalls(window: readonly Entry[]): WindowCall[] {
  const entries: Entry[] = [];
  let count = 0;
  for (const entry of [...window].reverse()) {
    if (entries.length > 0 && count + entry.calls.length > EVIDENCE_CALLS) break;
    entries.push(entry);
    count += entry.calls.length;
  }
  return entries.reverse().flatMap((entry) => entry.calls.slice(0, EVIDENCE_CALLS));
}

/** What a message for the model calls an answer, by the kind its key says it is (see `answerOf`): never its words. */
function kindOfAnswer(key: string): string {
  if (key.startsWith('x')) return 'the same empty result';
  // Only answers compared across calls can outnumber the most frequent call: failures (`a` or `s` and a zero) and
  // errors (two marks and a zero); an answer compared with its call is counted with it.
  return key.charAt(1) === '\u0000' ? 'the same failure' : 'the same error';
}

/**
 * Built only on a warning or a stop, from the window's latest calls (see {@link EVIDENCE_CALLS}); `callCount` counts
 * every call of the window. With the key of the most frequent answer, which says what kind of answer it is.
 */
function evidenceOf({ window, newInWindow }: StagnationState, size: number, maxNew: number): { evidence: StopEvidence['stagnation']; answerKey: string } {
  const calls = latestCalls(window);
  const answers = top(calls, (call) => call.answer, ({ shapePreview, answer }) => ({ shapePreview, answer }));
  return {
    evidence: {
      window: size,
      maxNew,
      newOutcomes: newInWindow,
      calls: top(calls, (call) => call.signature, ({ tool, argsPreview }) => ({ tool, argsPreview })),
      answers: answers.map(({ shapePreview, count }) => ({ shapePreview, count })),
      callCount: window.reduce((sum, entry) => sum + entry.calls.length, 0),
      distinctCalls: new Set(calls.map((call) => call.signature)).size,
      stepIndexes: window.slice(-MAX_STEP_INDEXES).map((entry) => entry.step),
    },
    answerKey: answers[0]?.answer ?? '',
  };
}

/**
 * A saved state, checked: a window as full as the entries say and no fuller than `window`, no more entries than the
 * run took steps, its steps in order and none after the run's last, each with a call.
 */
function restoreStagnation(saved: unknown, { window: size }: StagnationSettings, path: string, { steps }: SavedRun = ANY_RUN): StagnationState {
  const call = record({ signature: text, tool: text, argsPreview: text, answer: text, shapePreview: text });
  const { entries, window, previousSignature } = record({
    entries: integer(0, steps),
    window: list(record({ step: integer(0, Math.max(steps - 1, 0)), isNew: flag, calls: list(call) }), size),
    previousSignature: nullable(text),
  })(saved, path);
  if (entries < window.length) savedError(`${path}.entries`, `an integer from ${window.length} to ${steps}`, entries);
  if (window.length !== Math.min(entries, size)) savedError(`${path}.window`, `an array of ${Math.min(entries, size)} entries`, window);
  window.forEach((entry, position) => {
    if (position > 0 && entry.step <= (window[position - 1]?.step ?? -1)) savedError(`${path}.window[${position}].step`, 'a step index above the one before', entry.step);
    if (entry.calls.length === 0) savedError(`${path}.window[${position}].calls`, 'an array of at least 1 call', entry.calls);
  });
  return { entries, window, newInWindow: window.filter((entry) => entry.isNew).length, previousSignature };
}

/**
 * Stops when, of the last `window` steps with tool calls, at most `maxNew` brought an answer not seen before in the
 * run: the agent cycles irregularly among calls whose answers never change, or varies its arguments and keeps getting
 * the same failure or the same "nothing found". An answer is new with its call unless it says only that (see
 * `answerOf`).
 *
 * A call identical to the one just before it whose answer is not new is left out: a run of identical calls is
 * `repeatedToolCall`'s business. A step's remaining calls form one entry of the window, new when any of them brought a
 * new answer, so ten parallel lookups count once. Steps without such calls add nothing and never stop.
 */
export const stagnation: Detector<'stagnation', StagnationSettings, StagnationState> = {
  kind: 'stagnation',
  option: 'stagnation',
  resolve: resolveStagnation,
  judgesCalls: () => false,
  start: () => ({ entries: 0, window: [], newInWindow: 0, previousSignature: null }),
  check(state, facts, { window: size, maxNew, writeArgsLength, warnBefore }) {
    const { calls } = facts;
    if (calls.length === 0) return { state };
    const fresh = facts.newOutcomes;
    const kept: WindowCall[] = [];
    // The answers compared across calls, for the run to remember; those compared with their call it knows already.
    const remember: string[] = [];
    const answeredInStep = new Set<string>();
    let anyNew = false;
    let previous = state.previousSignature;
    for (const [position, call] of calls.entries()) {
      // Calls of exempt tools are left out, as a step without calls is.
      if (call.exempt) continue;
      const answer = answerOf(call, writeArgsLength, (text) => facts.keyOf(text));
      let isNew: boolean;
      if (answer.byCall) isNew = fresh[position] === true;
      else {
        isNew = facts.isNewAnswer(answer.key) && !answeredInStep.has(answer.key);
        answeredInStep.add(answer.key);
        remember.push(answer.key);
      }
      const repeat = call.signature === previous && !isNew;
      previous = call.signature;
      if (repeat) continue;
      if (isNew) anyNew = true;
      kept.push({ signature: call.signature, tool: call.name, argsPreview: call.argsPreview, answer: answer.key, shapePreview: preview(answer.shape) });
    }
    if (kept.length === 0) return { state: { ...state, previousSignature: previous }, remember };
    const dropped = state.window.length === size ? state.window[0] : undefined;
    const next: StagnationState = {
      entries: state.entries + 1,
      window: [...state.window.slice(dropped === undefined ? 0 : 1), { step: facts.index, isNew: anyNew, calls: kept }],
      newInWindow: state.newInWindow + (anyNew ? 1 : 0) - (dropped?.isNew === true ? 1 : 0),
      previousSignature: previous,
    };
    // A full window with at most this many new steps warns, above `maxNew`.
    const warnUpTo = warnBefore === false ? maxNew : maxNew + warnBefore;
    if (next.entries < size || next.newInWindow > warnUpTo) return { state: next, remember };
    const { evidence, answerKey } = evidenceOf(next, size, maxNew);
    // Whichever repeats more says what kind of loop it is: a call (a cycle) or an answer (new arguments, same reply).
    const [call] = evidence.calls as [StopEvidence['stagnation']['calls'][number]];
    const [answer] = evidence.answers as [StopEvidence['stagnation']['answers'][number]];
    const callMost = call.count >= answer.count;
    const times = (count: number): string => (count === 1 ? 'once' : `${count} times`);
    const most = callMost
      ? `${call.tool}(${call.argsPreview}) was called ${times(call.count)}`
      : `the same answer came back ${answer.count} times: "${answer.shapePreview}"`;
    // The model is told the kind of answer, never its words: they were written by a tool, or echo the model's own.
    const mostForModel = callMost
      ? `${toolLabel(call.tool)} was called ${times(call.count)}`
      : `${kindOfAnswer(answerKey)} came back ${answer.count} times`;
    const share = `${next.newInWindow} of the last ${size} steps with tool calls`;
    if (next.newInWindow > maxNew) {
      return {
        state: next,
        remember,
        warnings: [
          {
            code: 'LOOP_WARNING',
            reason: 'stagnation',
            detail: `Only ${share} brought an answer not seen before in this run; ${most}. ${maxNew} or fewer stop the run.`,
            message: `Only ${share} brought you an answer you had not seen before; ${mostForModel}. Searching the same way is not finding anything new: change your approach, or answer with what you have.`,
            evidence,
          },
        ],
      };
    }
    return { state: next, remember, stop: { code: 'STAGNATION', detail: `Only ${share} brought an answer not seen before in this run; ${most}.`, evidence } };
  },
  hint: () =>
    'The model keeps getting answers it has already seen: a few calls in an irregular loop, or new arguments that all get the same reply. Tell it what the answers mean, or give it a rule for when to stop searching.',
  summary: (state, { window, maxNew }, run) => ({
    window,
    maxNew,
    steps: Math.min(state.entries, window),
    newInWindow: state.newInWindow,
    distinctFailures: run.distinctAnswers,
  }),
  restore: restoreStagnation,
};
