/* eslint-disable @typescript-eslint/non-nullable-type-assertion-style --
   Ring slots and counters read here always exist: indices stay below `callCount` and `maxPeriod`. The strict config
   forbids `!`; a cast says it. */
import type { CallFacts, Detector } from './detector.js';

/**
 * Stops when the tail of the call sequence is a cycle of 2 to `maxPeriod` calls repeated `repeats` times.
 * For each period p it counts how many calls in a row equal the call p places earlier, so a check costs
 * O(maxPeriod) per call however long the run is.
 */
export function oscillationDetector(options: { readonly maxPeriod: number; readonly repeats: number }): Detector<'oscillation'> {
  const { maxPeriod, repeats } = options;
  // The last `maxPeriod` calls, as a ring: call number n sits at n % maxPeriod.
  const recent: CallFacts[] = [];
  let callCount = 0;
  // matched[p]: how many calls in a row, up to the latest, equal the call p places before them.
  const matched = new Array<number>(maxPeriod + 1).fill(0);

  /** The call `back` places before the latest one (1 is the latest), if the run is that long. */
  const callBack = (back: number): CallFacts | undefined =>
    back <= callCount ? recent[(callCount - back) % maxPeriod] : undefined;

  /** The last `period` calls, oldest first, when they are not all the same call (that is a repeat, not a cycle). */
  function cycleOf(period: number): CallFacts[] | undefined {
    const cycle: CallFacts[] = [];
    for (let back = period; back >= 1; back--) cycle.push(callBack(back) as CallFacts);
    const first = cycle[0]?.signature;
    return cycle.some((call) => call.signature !== first) ? cycle : undefined;
  }

  return {
    kind: 'oscillation',
    check(facts) {
      let found: { period: number; run: number; cycle: CallFacts[] } | undefined;
      for (const call of facts.calls) {
        for (let period = 2; period <= maxPeriod; period++) {
          matched[period] = callBack(period)?.signature === call.signature ? (matched[period] as number) + 1 : 0;
        }
        recent[callCount % maxPeriod] = call;
        callCount++;
        for (let period = 2; period <= maxPeriod; period++) {
          const run = matched[period] as number;
          if (run < period * (repeats - 1)) continue;
          const cycle = cycleOf(period);
          if (cycle === undefined) continue;
          found = { period, run, cycle };
          break;
        }
      }
      if (found === undefined) return undefined;
      const { period, run, cycle } = found;
      const labels = cycle.map((entry) => `${entry.name}(${entry.argsPreview})`);
      const seen = Math.floor(run / period) + 1;
      return {
        stop: {
          code: 'OSCILLATION',
          detail: `The last ${String(seen * period)} tool calls cycle through the same ${String(period)} calls ${String(seen)} times: ${labels.join(' → ')}.`,
          evidence: { period, repeats: seen, threshold: repeats, cycle: labels },
        },
      };
    },
    state() {
      let longestMatch = 0;
      for (const run of matched) longestMatch = Math.max(longestMatch, run);
      return { maxPeriod, repeats, longestMatch };
    },
  };
}
