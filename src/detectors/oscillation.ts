import type { CallFacts, Detector } from './detector.js';
import type { StopVerdictFor } from '../types.js';

/** True when the calls are not all the same one: a one-call cycle is a repeat, not an oscillation. */
function hasTwoDistinct(cycle: readonly CallFacts[]): boolean {
  // Stryker disable next-line OptionalChaining: a cycle holds at least two calls.
  const first = cycle[0]?.signature;
  return cycle.some((call) => call.signature !== first);
}

/**
 * Stops when the tail of the call sequence is a cycle of 2 to `maxPeriod` calls repeated `repeats` times.
 * For each period p it counts how many calls in a row equal the call p places earlier, so a check costs
 * O(maxPeriod) however long the run is.
 */
export function oscillationDetector(options: { readonly maxPeriod: number; readonly repeats: number }): Detector {
  const { maxPeriod, repeats } = options;
  // Stryker disable next-line ArrayDeclaration: a junk first entry never matches a call and leaves before it could enter a cycle.
  let recent: CallFacts[] = [];
  // Stryker disable next-line ArithmeticOperator: a shorter array grows on first write and `?? 0` covers the missing slots.
  let matched: number[] = new Array<number>(maxPeriod + 1).fill(0);

  return {
    kind: 'oscillation',
    check(facts) {
      let stop: StopVerdictFor<'oscillation'> | undefined;
      for (const call of facts.calls) {
        for (let period = 2; period <= maxPeriod; period++) {
          const earlier = recent[recent.length - period];
          matched[period] = earlier?.signature === call.signature ? (matched[period] ?? 0) + 1 : 0;
        }
        recent.push(call);
        // Stryker disable next-line ConditionalExpression: only bounds memory; lookups are relative to the end.
        if (recent.length > maxPeriod) recent.shift();
        for (let period = 2; period <= maxPeriod; period++) {
          const run = matched[period] ?? 0;
          if (run < period * (repeats - 1)) continue;
          const cycle = recent.slice(-period);
          if (!hasTwoDistinct(cycle)) continue;
          const labels = cycle.map((entry) => `${entry.name}(${entry.argsPreview})`);
          const seen = Math.floor(run / period) + 1;
          stop = {
            stop: true,
            reason: 'oscillation',
            code: 'OSCILLATION',
            detail: `The last ${String(seen * period)} tool calls cycle through the same ${String(period)} calls ${String(seen)} times: ${labels.join(' → ')}.`,
            evidence: { period, repeats: seen, threshold: repeats, cycle: labels },
          };
          break;
        }
      }
      return stop === undefined ? undefined : { stop };
    },
    reset() {
      // Stryker disable next-line ArrayDeclaration: as for the initial value.
      recent = [];
      // Stryker disable next-line ArithmeticOperator: as for the initial value.
      matched = new Array<number>(maxPeriod + 1).fill(0);
    },
    state: () => ({ maxPeriod, repeats, longestMatch: Math.max(...matched) }),
  };
}
