/* eslint-disable @typescript-eslint/non-nullable-type-assertion-style --
   Ring slots and counters read here always exist: indices stay below `callCount` and `maxPeriod`. The strict config
   forbids `!`; a cast says it. */
import { savedArray, savedError, savedInteger, savedObject, savedString } from '../snapshot/read-saved.js';
import type { Detector } from './detector.js';

/** What the detector keeps of a call. */
interface RecentCall {
  readonly name: string;
  readonly signature: string;
  readonly argsPreview: string;
}

function readCall(value: unknown, path: string): RecentCall {
  const record = savedObject(value, path);
  return {
    name: savedString(record.name, `${path}.name`),
    signature: savedString(record.signature, `${path}.signature`),
    argsPreview: savedString(record.argsPreview, `${path}.argsPreview`),
  };
}

/**
 * Stops when the tail of the call sequence is a cycle of 2 to `maxPeriod` calls repeated `repeats` times.
 * For each period p it counts how many calls in a row equal the call p places earlier, so a check costs
 * O(maxPeriod) per call however long the run is.
 * @param saved - what `save()` returned, to continue from there (validated; `path` names it in errors)
 */
export function oscillationDetector(
  options: { readonly maxPeriod: number; readonly repeats: number; readonly warnBefore: number | false },
  saved?: unknown,
  path = '',
): Detector<'oscillation'> {
  const { maxPeriod, repeats, warnBefore } = options;
  // Cycles seen from this many on, below `repeats`, warn; one pass through calls is no cycle yet.
  const warnFrom = warnBefore === false ? repeats : Math.max(2, repeats - warnBefore);
  // The last `maxPeriod` calls, as a ring: call number n sits at n % maxPeriod.
  let recent: RecentCall[] = [];
  let callCount = 0;
  // matched[p]: how many calls in a row, up to the latest, equal the call p places before them.
  let matched = new Array<number>(maxPeriod + 1).fill(0);
  if (saved !== undefined) {
    const record = savedObject(saved, path);
    callCount = savedInteger(record.callCount, `${path}.callCount`);
    const keptCount = Math.min(callCount, maxPeriod);
    const keptCalls = savedArray(record.recent, `${path}.recent`);
    if (keptCalls.length !== keptCount) savedError(`${path}.recent`, `an array of ${String(keptCount)} calls`, keptCalls);
    const kept = keptCalls.map((call, index) => readCall(call, `${path}.recent[${String(index)}]`));
    // Saved oldest first; back into ring order.
    kept.forEach((call, index) => (recent[(callCount - kept.length + index) % maxPeriod] = call));
    const counts = savedArray(record.matched, `${path}.matched`);
    if (counts.length !== maxPeriod + 1) savedError(`${path}.matched`, `an array of ${String(maxPeriod + 1)} counts`, counts);
    matched = counts.map((count, index) => savedInteger(count, `${path}.matched[${String(index)}]`, 0, callCount));
  }

  /** The call `back` places before the latest one (1 is the latest), if the run is that long. */
  const callBack = (back: number): RecentCall | undefined => (back <= callCount ? recent[(callCount - back) % maxPeriod] : undefined);

  /** The last `period` calls, oldest first, when they are not all the same call (that is a repeat, not a cycle). */
  function cycleOf(period: number): RecentCall[] | undefined {
    const cycle: RecentCall[] = [];
    for (let back = period; back >= 1; back--) cycle.push(callBack(back) as RecentCall);
    const first = cycle[0]?.signature;
    return cycle.some((call) => call.signature !== first) ? cycle : undefined;
  }

  /** The cycle the run ends in, found with at least `cycles` full cycles: the shortest such period, if any. */
  function cycleWith(cycles: number): { period: number; run: number; cycle: RecentCall[] } | undefined {
    for (let period = 2; period <= maxPeriod; period++) {
      const run = matched[period] as number;
      if (run < period * (cycles - 1)) continue;
      const cycle = cycleOf(period);
      if (cycle !== undefined) return { period, run, cycle };
    }
    return undefined;
  }

  return {
    kind: 'oscillation',
    judgesCalls: true,
    check(facts, record) {
      // A peek runs the same steps on the ring and counters, then puts back what it changed: at most maxPeriod + 1
      // counters, the ring slots this step's calls overwrite and the call count.
      const before = record ? undefined : { matched: matched.slice(), recent: recent.slice(), callCount };
      let found: { period: number; run: number; cycle: RecentCall[] } | undefined;
      for (const call of facts.calls) {
        for (let period = 2; period <= maxPeriod; period++) {
          matched[period] = callBack(period)?.signature === call.signature ? (matched[period] as number) + 1 : 0;
        }
        recent[callCount % maxPeriod] = { name: call.name, signature: call.signature, argsPreview: call.argsPreview };
        callCount++;
        found = cycleWith(repeats) ?? found;
      }
      const forming = found === undefined && facts.calls.length > 0 && warnFrom < repeats ? cycleWith(warnFrom) : undefined;
      if (before !== undefined) ({ matched, recent, callCount } = before);
      if (found === undefined && forming === undefined) return undefined;
      const { period, run, cycle } = (found ?? forming) as NonNullable<typeof found>;
      const labels = cycle.map((entry) => `${entry.name}(${entry.argsPreview})`);
      const seen = Math.floor(run / period) + 1;
      const evidence = { period, repeats: seen, threshold: repeats, cycle: labels };
      const tail = `the same ${String(period)} calls ${String(seen)} times in a row: ${labels.join(' → ')}`;
      if (found === undefined) {
        return {
          warnings: [
            {
              code: 'LOOP_WARNING',
              reason: 'oscillation',
              detail: `The last ${String(seen * period)} tool calls cycle through ${tail}; ${String(repeats)} cycles stop the run.`,
              message: `You have gone through ${tail}. Going round again will not get you anywhere new: try a different approach, or answer with what you have.`,
              evidence,
            },
          ],
        };
      }
      return {
        stop: {
          code: 'OSCILLATION',
          detail: `The last ${String(seen * period)} tool calls cycle through the same ${String(period)} calls ${String(seen)} times: ${labels.join(' → ')}.`,
          evidence,
          message: `Not run: with this call you would have gone through ${tail}. Try a different approach, or answer with what you have.`,
        },
      };
    },
    state() {
      let longestMatch = 0;
      for (const run of matched) longestMatch = Math.max(longestMatch, run);
      return { maxPeriod, repeats, longestMatch };
    },
    save() {
      const kept = Math.min(callCount, maxPeriod);
      return { callCount, recent: Array.from({ length: kept }, (_, index) => callBack(kept - index) as RecentCall), matched };
    },
  };
}
