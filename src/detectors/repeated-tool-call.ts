import { savedArray, savedBoolean, savedInteger, savedObject, savedOptional, savedString } from '../snapshot/read-saved.js';
import type { CallFacts, Detector } from './detector.js';

/** Step indexes kept for evidence; bounded so an ignored stop cannot grow memory without end. */
const MAX_STEP_INDEXES = 100;

/** The run of identical calls at the end of the call sequence. */
interface Run {
  readonly key: string;
  /** What evidence shows of the run's first call, and its outcome to compare the others with. */
  readonly first: { readonly name: string; readonly argsPreview: string; readonly outcome: string };
  count: number;
  identicalResults: boolean;
  /** Steps holding calls of the run, ascending, the latest {@link MAX_STEP_INDEXES} at most. */
  stepIndexes: number[];
}

function readRun(value: unknown, path: string): Run {
  const record = savedObject(value, path);
  const first = savedObject(record.first, `${path}.first`);
  return {
    key: savedString(record.key, `${path}.key`),
    first: {
      name: savedString(first.name, `${path}.first.name`),
      argsPreview: savedString(first.argsPreview, `${path}.first.argsPreview`),
      outcome: savedString(first.outcome, `${path}.first.outcome`),
    },
    count: savedInteger(record.count, `${path}.count`, 1),
    identicalResults: savedBoolean(record.identicalResults, `${path}.identicalResults`),
    stepIndexes: savedArray(record.stepIndexes, `${path}.stepIndexes`, MAX_STEP_INDEXES).map((index, position) =>
      savedInteger(index, `${path}.stepIndexes[${String(position)}]`),
    ),
  };
}

/**
 * Stops when the run of identical calls at the end of the call sequence reaches `threshold`.
 * Identical means same tool and canonical arguments, or the same outcome too with `requireIdenticalResults`.
 * @param saved - what `save()` returned, to continue from there (validated; `path` names it in errors)
 */
export function repeatedToolCallDetector(
  options: {
    readonly threshold: number;
    readonly requireIdenticalResults: boolean;
    readonly ignoreErrors: boolean;
    readonly warnBefore: number | false;
  },
  saved?: unknown,
  path = '',
): Detector<'repeated-tool-call'> {
  const { threshold, requireIdenticalResults, ignoreErrors, warnBefore } = options;
  // Runs of this length and longer, below the threshold, warn; a run of one call is no repeat yet.
  const warnFrom = warnBefore === false ? threshold : Math.max(2, threshold - warnBefore);
  let run = saved === undefined ? undefined : savedOptional(savedObject(saved, path).run, (value) => readRun(value, `${path}.run`));

  function extend(current: Run, call: CallFacts, index: number): void {
    current.count++;
    if (call.outcome !== current.first.outcome) current.identicalResults = false;
    if (current.stepIndexes[current.stepIndexes.length - 1] !== index) {
      current.stepIndexes.push(index);
      if (current.stepIndexes.length > MAX_STEP_INDEXES) current.stepIndexes.shift();
    }
  }

  return {
    kind: 'repeated-tool-call',
    // With results compared, a call cannot be judged before its result is in.
    judgesCalls: !requireIdenticalResults,
    check(facts, record) {
      let current = run;
      // A peek works on a copy of the run (at most 100 step indexes), made only when a call would change it.
      let owned = record;
      let stopped: { first: Run['first']; count: number; identicalResults: boolean; stepIndexes: number[] } | undefined;
      for (const call of facts.calls) {
        if (ignoreErrors && call.failed) continue;
        const key = requireIdenticalResults ? call.outcome : call.signature;
        if (current?.key === key) {
          if (!owned) {
            current = { ...current, stepIndexes: current.stepIndexes.slice() };
            owned = true;
          }
          extend(current, call, facts.index);
        } else {
          const first = { name: call.name, argsPreview: call.argsPreview, outcome: call.outcome };
          current = { key, first, count: 1, identicalResults: true, stepIndexes: [facts.index] };
          owned = true;
        }
        // A run that reaches the threshold mid-step counts even if a later call in the step ends it.
        if (current.count >= threshold) {
          const { first, count, identicalResults, stepIndexes } = current;
          stopped = { first, count, identicalResults, stepIndexes: stepIndexes.slice() };
        }
      }
      if (record) run = current;
      if (stopped === undefined) {
        if (current === undefined || current.count < warnFrom || current.count >= threshold || facts.calls.length === 0) return undefined;
        const { first, count, identicalResults } = current;
        const call = `${first.name}(${first.argsPreview})`;
        return {
          warnings: [
            {
              code: 'LOOP_WARNING',
              reason: 'repeated-tool-call',
              detail: `The model called "${first.name}" ${String(count)} times in a row with the same arguments; ${String(threshold)} in a row stop the run.`,
              message:
                `You have called ${call} ${String(count)} times in a row with the same arguments${identicalResults ? ' and got the same result each time' : ''}. ` +
                'Calling it again will not tell you anything new: use what it returned, change the arguments, or try a different tool.',
              evidence: { tool: first.name, argsPreview: first.argsPreview, count, threshold, stepIndexes: current.stepIndexes.slice(), identicalResults },
            },
          ],
        };
      }
      const { name: tool, argsPreview } = stopped.first;
      const { count, identicalResults, stepIndexes } = stopped;
      return {
        stop: {
          code: 'REPEATED_TOOL_CALL',
          detail: `The model called "${tool}" ${String(count)} times in a row with the same arguments: ${tool}(${argsPreview}).`,
          evidence: { tool, argsPreview, count, threshold, stepIndexes, identicalResults },
          message: `Not run: this would be call number ${String(count)} in a row to ${tool}(${argsPreview}) with the same arguments. Use what the earlier calls returned, change the arguments, or try a different tool.`,
        },
      };
    },
    state: () => ({ tool: run?.first.name ?? null, count: run?.count ?? 0, threshold }),
    save: () => ({ run: run ?? null }),
  };
}
