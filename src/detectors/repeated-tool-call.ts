import { toolLabel } from '../utils/text.js';
import { booleanOption, flag, integer, integerOption, nullable, record, savedError, stepIndexList, text } from '../utils/validate.js';
import { DEFAULT_OPTIONS } from './defaults.js';
import { ANY_RUN, type Detector, optionSection, type SavedRun, warnBeforeOption } from './detector.js';

/** Step indexes kept for evidence; bounded so an ignored stop cannot grow memory without end. */
const MAX_STEP_INDEXES = 100;

/** Options of `repeatedToolCall` after validation. */
export interface RepeatSettings {
  readonly threshold: number;
  readonly requireIdenticalResults: boolean;
  readonly ignoreErrors: boolean;
  readonly warnBefore: number | false;
}

/** The run of identical calls at the end of the call sequence. */
interface Repeat {
  /** The calls' signature. */
  readonly key: string;
  /** What evidence shows of the run's first call. */
  readonly first: { readonly name: string; readonly argsPreview: string };
  readonly count: number;
  /** Whether every call of the run got the answer the call before it got (always, with `requireIdenticalResults`). */
  readonly identicalResults: boolean;
  /** The answer key (see `CallFacts.answer`) of the run's last call, to compare the next one's with. */
  readonly answer: string;
  /** Steps holding calls of the run, ascending, the latest {@link MAX_STEP_INDEXES} at most. */
  readonly stepIndexes: readonly number[];
}

function resolveRepeat(value: unknown): RepeatSettings | false {
  const options = optionSection('repeatedToolCall', value, ['threshold', 'requireIdenticalResults', 'ignoreErrors', 'warnBefore']);
  if (options === false) return false;
  const defaults = DEFAULT_OPTIONS.repeatedToolCall;
  return {
    threshold: integerOption('repeatedToolCall.threshold', options.threshold, 2, defaults.threshold),
    requireIdenticalResults: booleanOption('repeatedToolCall.requireIdenticalResults', options.requireIdenticalResults, defaults.requireIdenticalResults),
    ignoreErrors: booleanOption('repeatedToolCall.ignoreErrors', options.ignoreErrors, defaults.ignoreErrors),
    warnBefore: warnBeforeOption('repeatedToolCall.warnBefore', options.warnBefore, defaults.warnBefore),
  };
}

/**
 * A saved state, checked: what `check` keeps, field by field, within the run it was saved in: no more calls in a row
 * than the run made, steps in order and none after its last.
 */
function restoreRepeat(saved: unknown, path: string, { steps, toolCalls }: SavedRun): { readonly run: Repeat | null } {
  const state = record({
    run: nullable(
      record({
        key: text,
        first: record({ name: text, argsPreview: text }),
        count: integer(1, toolCalls),
        identicalResults: flag,
        answer: text,
        stepIndexes: stepIndexList(steps, MAX_STEP_INDEXES),
      }),
    ),
  })(saved, path);
  const indexes = state.run?.stepIndexes;
  if (state.run !== null && (indexes === undefined || indexes.length === 0 || indexes.length > state.run.count)) {
    savedError(`${path}.run.stepIndexes`, `an array of 1 to ${Math.min(state.run.count, MAX_STEP_INDEXES)} step indexes`, indexes);
  }
  return state;
}

/**
 * Stops when the run of identical calls at the end of the call sequence reaches `threshold`: same tool and canonical
 * arguments (or the same key, under the `tools` option). With `requireIdenticalResults` a call extends the run only
 * when it got the answer the call before it got, ignoring what changes on every call; a new answer starts the run
 * again from that call. A run that reaches the threshold mid-step counts even if a later call in the step ends it.
 *
 * Before a call runs (`judgeCall`), its answer is predicted to be the one the same call got last: the call that would
 * make a run of identical answers reach the threshold is refused. Calls of exempt tools neither extend nor break a run.
 */
export const repeatedToolCall: Detector<'repeated-tool-call', RepeatSettings, { readonly run: Repeat | null }> = {
  kind: 'repeated-tool-call',
  option: 'repeatedToolCall',
  resolve: resolveRepeat,
  judgesCalls: () => true,
  start: () => ({ run: null }),
  check(state, facts, { threshold, requireIdenticalResults, ignoreErrors, warnBefore }) {
    let current = state.run;
    let stopped: Repeat | undefined;
    for (const call of facts.calls) {
      if (call.exempt || (ignoreErrors && call.failed)) continue;
      const key = call.signature;
      const same = current?.key === key;
      // A call that has not run is predicted to get the answer the same call got last.
      const answer = facts.pending ? (same ? (current?.answer ?? '') : '') : call.answer;
      if (current !== null && same && (!requireIdenticalResults || answer === current.answer)) {
        const { stepIndexes } = current;
        current = {
          ...current,
          count: current.count + 1,
          identicalResults: current.identicalResults && answer === current.answer,
          answer,
          stepIndexes: stepIndexes.at(-1) === facts.index ? stepIndexes : [...stepIndexes.slice(1 - MAX_STEP_INDEXES), facts.index],
        };
      } else {
        const first = { name: call.name, argsPreview: call.argsPreview };
        current = { key, first, count: 1, identicalResults: true, answer, stepIndexes: [facts.index] };
      }
      if (current.count >= threshold) stopped = current;
    }
    const next = { run: current };
    // Runs of this length and longer, below the threshold, warn; a run of one call is no repeat yet.
    const warnFrom = warnBefore === false ? threshold : Math.max(2, threshold - warnBefore);
    if (stopped === undefined) {
      if (current === null || current.count < warnFrom || current.count >= threshold || !facts.calls.some((call) => !call.exempt)) return { state: next };
      const { first, count, identicalResults, stepIndexes } = current;
      return {
        state: next,
        warnings: [
          {
            code: 'LOOP_WARNING',
            reason: 'repeated-tool-call',
            detail: `The model called "${first.name}" ${count} times in a row with the same arguments; ${threshold} in a row stop the run.`,
            message:
              `You have called ${toolLabel(first.name)} ${count} times in a row with the same arguments${identicalResults ? ' and got the same result each time' : ''}. ` +
              'Calling it again will not tell you anything new: use what it returned, change the arguments, or try a different tool.',
            evidence: { tool: first.name, argsPreview: first.argsPreview, count, threshold, stepIndexes: [...stepIndexes], identicalResults },
          },
        ],
      };
    }
    const { first, count, identicalResults, stepIndexes } = stopped;
    const { name: tool, argsPreview } = first;
    return {
      state: next,
      stop: {
        code: 'REPEATED_TOOL_CALL',
        detail: `The model called "${tool}" ${count} times in a row with the same arguments: ${tool}(${argsPreview}).`,
        evidence: { tool, argsPreview, count, threshold, stepIndexes, identicalResults },
        message: `Not run: this would be call number ${count} in a row to ${toolLabel(tool)} with the same arguments${identicalResults ? ', and the calls before it got the same answer each time' : ''}. Use what the earlier calls returned, change the arguments, or try a different tool.`,
      },
    };
  },
  hint: () =>
    'The model keeps sending the same call. Make sure the tool result tells it something it can act on, and that the prompt says what to do when a tool fails.',
  summary: ({ run }, { threshold }) => ({ tool: run?.first.name ?? null, count: run?.count ?? 0, threshold }),
  restore: (saved, _options, path, run = ANY_RUN) => restoreRepeat(saved, path, run),
};
