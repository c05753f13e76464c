/**
 * Target 4: a `check()` should cost little more than reading the step's data once. The floor is serialising the
 * step's arguments and result once each with `safe-stable-stringify`, the fastest canonical serialiser measured here;
 * a guard cannot judge a call without at least reading it.
 */
import stringify from 'safe-stable-stringify';
import { createGuard, type GuardStep } from '../src/index.js';
import { guardSteps } from './fixtures.js';
import { CLOCK_NAME, comparePairs, roundOptions, type Pair } from './harness.js';
import { formatNs, formatRatio, publish } from './report.js';

/** Distinct steps per cycle; the guard is reset when a cycle starts again, so every outcome is new and nothing stops. */
const CYCLE = 10_000;
const options = roundOptions({ rounds: 5, minCpuMs: 400 });

/** One `check()` per call, cycling through `steps` on a guard reset at the start of every cycle. */
function checkEach(steps: readonly GuardStep[]): () => unknown {
  const guard = createGuard({ maxSteps: false });
  let index = 0;
  return () => {
    if (index === steps.length) {
      index = 0;
      guard.reset();
    }
    const step = steps[index++];
    if (step === undefined) throw new Error('unreachable: the index wraps above');
    const verdict = guard.check(step);
    if (verdict.stop) throw new Error(`unexpected stop: ${verdict.detail}`);
    return verdict;
  };
}

/** The floor: each call's arguments and result serialised once, cycling through the same steps. */
function readEach(steps: readonly GuardStep[]): () => unknown {
  let index = 0;
  return () => {
    if (index === steps.length) index = 0;
    const step = steps[index++];
    let length = 0;
    for (const call of step?.toolCalls ?? []) {
      length += (stringify(call.args) ?? '').length + (stringify(call.result) ?? '').length;
    }
    return length;
  };
}

const realistic = guardSteps(0, CYCLE);
const pairs: Pair[] = [
  { input: 'one call, small arguments, 2 KB result', peer: 'safe-stable-stringify', ours: checkEach(realistic), theirs: readEach(realistic) },
];
const results = await comparePairs(pairs, options);

const main = results[0];
publish(import.meta.filename, {
  title: '4. `check()` against its floor',
  method:
    `Ours: \`guard.check(step)\` with default options and \`maxSteps: false\`, cycling through ${CYCLE.toLocaleString('en-US')} distinct steps (the guard is reset when the cycle restarts, one reset per ${CYCLE.toLocaleString('en-US')} checks). ` +
    `Floor: \`safe-stable-stringify\` of each call's arguments and of its result, once, over the same steps. ${String(options.rounds)} interleaved rounds, ${CLOCK_NAME}.`,
  tables: [
    {
      header: ['Step', 'Floor', 'check()', 'Floor time', 'check() time', 'Ratio'],
      rows: results.map((result) => [
        result.input,
        result.peer,
        'agent-loopguard',
        formatNs(result.theirs.medianNs),
        formatNs(result.ours.medianNs),
        formatRatio(result.ratio),
      ]),
    },
  ],
  targets: main === undefined ? [] : [{ target: 'at most 2x the floor', measured: formatRatio(main.ratio), met: main.ratio <= 2 }],
  notes: [],
});
