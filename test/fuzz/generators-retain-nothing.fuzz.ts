import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOSTILE_FACTORIES } from '../support/hostile-values.js';
import { crossRealmPair } from './arbitraries.js';

/*
 * fast-check runs a synchronous property from start to end in one job, so the microtask queue does not drain until
 * the property ends. Anything a build leaves in it (a promise job, an unread error stack) keeps alive what the frames on
 * the stack held, for every run at once: 100,000 runs of check-never-throws once ran out of a 4 GB heap that way. Each
 * build here happens inside a closure that holds 1 MiB, as a property's callback holds its guard, and the heap in use
 * after a full collection, still inside the same job, must not keep those megabytes.
 */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const BUILDS = 16;
// Small integers take 8 bytes each in a packed array: 1 MiB.
const HELD_ITEMS = 2 ** 17;
const HELD_BYTES = HELD_ITEMS * 8;

function heapInUseAfterCollection(): number {
  collectGarbage();
  return getHeapStatistics().used_heap_size;
}

/** Builds a value from inside a closure whose context holds 1 MiB, then drops both. */
function buildWhileHolding(build: () => unknown): void {
  const held = new Array<number>(HELD_ITEMS).fill(1);
  // The callback writes to `held`, so `held` lives in the context that the callback's frame carries.
  [build].forEach((make) => {
    make();
    held.fill(2);
  });
}

/** The bytes still in use after `BUILDS` builds, each made while holding 1 MiB, beyond what was in use before. */
function retainedBy(build: () => unknown): number {
  const before = heapInUseAfterCollection();
  for (let round = 0; round < BUILDS; round++) buildWhileHolding(build);
  return heapInUseAfterCollection() - before;
}

describe('building a fuzz value keeps nothing alive once the value is dropped, before the microtask queue drains', () => {
  it.each(Object.entries(HOSTILE_FACTORIES))('hostile value %s', (_name, make) => {
    const retained = retainedBy(make);
    // Holding on to the caller's data would keep at least BUILDS MiB; a quarter of that allows for the engine's noise.
    expect(retained).toBeLessThan((BUILDS * HELD_BYTES) / 4);
  });

  it('cross-realm values made in a fresh node:vm context', () => {
    const pairs = fc.sample(crossRealmPair, { numRuns: BUILDS, seed: 1 });
    let next = 0;
    const retained = retainedBy(() => pairs[next++ % pairs.length]?.foreign.build());
    expect(retained).toBeLessThan((BUILDS * HELD_BYTES) / 4);
  });
});
