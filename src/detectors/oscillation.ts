import { toolList } from '../utils/text.js';
import { booleanOption, integer, integerOption, list, record, savedError, text } from '../utils/validate.js';
import { DEFAULT_OPTIONS } from './defaults.js';
import { ANY_RUN, type Detector, optionSection, type SavedRun, warnBeforeOption } from './detector.js';

/** Longest cycle that may be looked for: every call is compared with the one that many places back. */
const MAX_PERIOD = 64;

/** Options of `oscillation` after validation. */
export interface OscillationSettings {
  readonly maxPeriod: number;
  readonly repeats: number;
  readonly requireIdenticalResults: boolean;
  readonly warnBefore: number | false;
}

/** What the detector keeps of a call. */
interface RecentCall {
  readonly name: string;
  readonly signature: string;
  readonly argsPreview: string;
  /** Its answer key (see `CallFacts.answer`); `''` when answers are not compared. */
  readonly answer: string;
}

interface OscillationState {
  /** Calls seen so far. */
  readonly callCount: number;
  /** The last `maxPeriod` calls, oldest first. */
  readonly recent: readonly RecentCall[];
  /** `matched[p]`: how many calls in a row, up to the latest, equal the call `p` places before them. */
  readonly matched: readonly number[];
}

function resolveOscillation(value: unknown): OscillationSettings | false {
  const options = optionSection('oscillation', value, ['maxPeriod', 'repeats', 'requireIdenticalResults', 'warnBefore']);
  if (options === false) return false;
  const defaults = DEFAULT_OPTIONS.oscillation;
  return {
    maxPeriod: integerOption('oscillation.maxPeriod', options.maxPeriod, 2, defaults.maxPeriod, MAX_PERIOD),
    repeats: integerOption('oscillation.repeats', options.repeats, 2, defaults.repeats),
    requireIdenticalResults: booleanOption('oscillation.requireIdenticalResults', options.requireIdenticalResults, defaults.requireIdenticalResults),
    warnBefore: warnBeforeOption('oscillation.warnBefore', options.warnBefore, defaults.warnBefore),
  };
}

/** A saved state, checked: its lists must be as long as `maxPeriod` makes them, its counts within the calls seen. */
function restoreOscillation(saved: unknown, { maxPeriod }: OscillationSettings, path: string, { toolCalls }: SavedRun = ANY_RUN): OscillationState {
  const state = record({ callCount: integer(0, toolCalls), recent: list(record({ name: text, signature: text, argsPreview: text, answer: text })), matched: list(integer()) })(saved, path);
  const kept = Math.min(state.callCount, maxPeriod);
  if (state.recent.length !== kept) savedError(`${path}.recent`, `an array of ${kept} calls`, state.recent);
  if (state.matched.length !== maxPeriod + 1) savedError(`${path}.matched`, `an array of ${maxPeriod + 1} counts`, state.matched);
  state.matched.forEach((count, index) => integer(0, state.callCount)(count, `${path}.matched[${index}]`));
  return state;
}

/**
 * Stops when the tail of the call sequence is a cycle of 2 to `maxPeriod` calls repeated `repeats` times. For each
 * period p it counts how many calls in a row equal the call p places earlier (with `requireIdenticalResults`, with the
 * same answer too, ignoring what changes on every call), so a check costs O(maxPeriod) per call however long the run
 * is. A cycle of one call repeated is `repeatedToolCall`'s case, not this one. Before a call runs (`judgeCall`), its
 * answer is predicted to be the one the call a period earlier got. Calls of exempt tools are left out of the sequence.
 */
export const oscillation: Detector<'oscillation', OscillationSettings, OscillationState> = {
  kind: 'oscillation',
  option: 'oscillation',
  resolve: resolveOscillation,
  judgesCalls: () => true,
  start: ({ maxPeriod }) => ({ callCount: 0, recent: [], matched: new Array<number>(maxPeriod + 1).fill(0) }),
  check(state, facts, { maxPeriod, repeats, requireIdenticalResults, warnBefore }) {
    const recent = [...state.recent];
    const matched = [...state.matched];
    /** The cycle the calls so far end in, with at least `cycles` full cycles: the shortest such period, if any. */
    const cycleWith = (cycles: number): { period: number; run: number; cycle: RecentCall[] } | undefined => {
      for (let period = 2; period <= maxPeriod; period++) {
        const run = matched[period] ?? 0;
        if (run < period * (cycles - 1)) continue;
        const cycle = recent.slice(-period);
        if (cycle.some((call) => call.signature !== cycle[0]?.signature)) return { period, run, cycle };
      }
      return undefined;
    };
    let found: ReturnType<typeof cycleWith>;
    let counted = 0;
    for (const call of facts.calls) {
      if (call.exempt) continue;
      counted++;
      // A call that has not run is predicted to get the answer it got a period earlier.
      const answer = requireIdenticalResults && !facts.pending ? call.answer : '';
      for (let period = 2; period <= maxPeriod; period++) {
        const earlier = recent[recent.length - period];
        const repeated = earlier?.signature === call.signature && (!requireIdenticalResults || facts.pending || earlier.answer === answer);
        matched[period] = repeated ? (matched[period] ?? 0) + 1 : 0;
      }
      recent.push({ name: call.name, signature: call.signature, argsPreview: call.argsPreview, answer });
      if (recent.length > maxPeriod) recent.shift();
      found = cycleWith(repeats) ?? found;
    }
    const next = { callCount: state.callCount + counted, recent, matched };
    // Cycles seen from this many on, below `repeats`, warn; one pass through calls is no cycle yet.
    const warnFrom = warnBefore === false ? repeats : Math.max(2, repeats - warnBefore);
    const forming = found === undefined && counted > 0 && warnFrom < repeats ? cycleWith(warnFrom) : undefined;
    const shown = found ?? forming;
    if (shown === undefined) return { state: next };
    const { period, run, cycle } = shown;
    const labels = cycle.map((entry) => `${entry.name}(${entry.argsPreview})`);
    const seen = Math.floor(run / period) + 1;
    const evidence = { period, repeats: seen, threshold: repeats, cycle: labels };
    // The model is told which tools, by name only where a name is a plain identifier, never the arguments it wrote.
    const tail = `the same ${period} calls (to ${toolList(cycle.map((entry) => entry.name))}) ${seen} times in a row`;
    if (found === undefined) {
      return {
        state: next,
        warnings: [
          {
            code: 'LOOP_WARNING',
            reason: 'oscillation',
            detail: `The last ${seen * period} tool calls cycle through the same ${period} calls ${seen} times in a row: ${labels.join(' → ')}; ${repeats} cycles stop the run.`,
            message: `You have gone through ${tail}. Going round again will not get you anywhere new: try a different approach, or answer with what you have.`,
            evidence,
          },
        ],
      };
    }
    return {
      state: next,
      stop: {
        code: 'OSCILLATION',
        detail: `The last ${seen * period} tool calls cycle through the same ${period} calls ${seen} times: ${labels.join(' → ')}.`,
        evidence,
        message: `Not run: with this call you would have gone through ${tail}. Try a different approach, or answer with what you have.`,
      },
    };
  },
  hint: () =>
    'The model is alternating between the same few calls. It may be missing a result it needs, or two tools may be undoing each other.',
  summary: ({ matched }, { maxPeriod, repeats }) => ({ maxPeriod, repeats, longestMatch: Math.max(0, ...matched) }),
  restore: restoreOscillation,
};
