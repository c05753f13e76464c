import type { Detector } from './detector.js';
import type { StopVerdictFor } from '../types.js';

/** Step indexes kept for evidence; bounded so an ignored stop cannot grow memory without end. */
const MAX_STEP_INDEXES = 100;

/**
 * Stops when the run of identical calls at the end of the call sequence reaches `threshold`.
 * Identical means same tool and canonical arguments, or the same outcome too with `requireIdenticalResults`.
 */
export function repeatedToolCallDetector(options: {
  readonly threshold: number;
  readonly requireIdenticalResults: boolean;
  readonly ignoreErrors: boolean;
}): Detector {
  const keepIndexes = Math.max(options.threshold, MAX_STEP_INDEXES);
  let key: string | undefined;
  let count = 0;
  // Stryker disable StringLiteral,BooleanLiteral,ArrayDeclaration: while `key` is undefined these are never read, and the first call sets them all.
  let firstOutcome = '';
  let identicalResults = true;
  let tool = '';
  let argsPreview = '';
  let stepIndexes: number[] = [];
  // Stryker restore StringLiteral,BooleanLiteral,ArrayDeclaration

  return {
    kind: 'repeated-tool-call',
    check(facts) {
      let stop: StopVerdictFor<'repeated-tool-call'> | undefined;
      for (const call of facts.calls) {
        if (options.ignoreErrors && call.failed) continue;
        const callKey = options.requireIdenticalResults ? call.outcome : call.signature;
        if (callKey === key) {
          count++;
          if (call.outcome !== firstOutcome) identicalResults = false;
          if (stepIndexes[stepIndexes.length - 1] !== facts.index) {
            stepIndexes.push(facts.index);
            if (stepIndexes.length > keepIndexes) stepIndexes.shift();
          }
        } else {
          key = callKey;
          count = 1;
          firstOutcome = call.outcome;
          identicalResults = true;
          tool = call.name;
          argsPreview = call.argsPreview;
          stepIndexes = [facts.index];
        }
        // A run that reaches the threshold mid-step counts even if a later call in the step ends it.
        if (count >= options.threshold) {
          stop = {
            stop: true,
            reason: 'repeated-tool-call',
            code: 'REPEATED_TOOL_CALL',
            detail: `The model called "${tool}" ${String(count)} times in a row with the same arguments: ${tool}(${argsPreview}).`,
            evidence: {
              tool,
              argsPreview,
              count,
              threshold: options.threshold,
              stepIndexes: [...stepIndexes],
              identicalResults,
            },
          };
        }
      }
      return stop === undefined ? undefined : { stop };
    },
    reset() {
      key = undefined;
      count = 0;
      // Stryker disable next-line ArrayDeclaration: as for the initial value, the first call after a reset sets it.
      stepIndexes = [];
    },
    state: () => ({ tool: key === undefined ? null : tool, count, threshold: options.threshold }),
  };
}
