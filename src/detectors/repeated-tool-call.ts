import type { CallFacts, Detector } from './detector.js';

/** Step indexes kept for evidence; bounded so an ignored stop cannot grow memory without end. */
const MAX_STEP_INDEXES = 100;

/** The run of identical calls at the end of the call sequence. */
interface Run {
  readonly key: string;
  readonly first: CallFacts;
  count: number;
  identicalResults: boolean;
  /** Steps holding calls of the run, ascending, the latest {@link MAX_STEP_INDEXES} at most. */
  readonly stepIndexes: number[];
}

/**
 * Stops when the run of identical calls at the end of the call sequence reaches `threshold`.
 * Identical means same tool and canonical arguments, or the same outcome too with `requireIdenticalResults`.
 */
export function repeatedToolCallDetector(options: {
  readonly threshold: number;
  readonly requireIdenticalResults: boolean;
  readonly ignoreErrors: boolean;
}): Detector<'repeated-tool-call'> {
  const { threshold, requireIdenticalResults, ignoreErrors } = options;
  let run: Run | undefined;

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
    check(facts) {
      let stopped: { run: Run; count: number; identicalResults: boolean; stepIndexes: number[] } | undefined;
      for (const call of facts.calls) {
        if (ignoreErrors && call.failed) continue;
        const key = requireIdenticalResults ? call.outcome : call.signature;
        if (run?.key === key) extend(run, call, facts.index);
        else run = { key, first: call, count: 1, identicalResults: true, stepIndexes: [facts.index] };
        // A run that reaches the threshold mid-step counts even if a later call in the step ends it.
        if (run.count >= threshold) {
          stopped = { run, count: run.count, identicalResults: run.identicalResults, stepIndexes: [...run.stepIndexes] };
        }
      }
      if (stopped === undefined) return undefined;
      const { name: tool, argsPreview } = stopped.run.first;
      const { count, identicalResults, stepIndexes } = stopped;
      return {
        stop: {
          code: 'REPEATED_TOOL_CALL',
          detail: `The model called "${tool}" ${String(count)} times in a row with the same arguments: ${tool}(${argsPreview}).`,
          evidence: { tool, argsPreview, count, threshold, stepIndexes, identicalResults },
        },
      };
    },
    state: () => ({ tool: run?.first.name ?? null, count: run?.count ?? 0, threshold }),
  };
}
