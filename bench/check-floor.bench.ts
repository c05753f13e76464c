/**
 * Target 4 (issue 11): a `check()` should cost little more than reading the step's data once. The floor is serialising
 * each call's arguments and result once with `safe-stable-stringify`, the fastest canonical serialiser measured here;
 * a guard cannot judge a call without at least reading it. Four steps, from the small one most agents produce to a
 * 200 KB result, each against its own target; beside them what creating a guard costs, in small checks, and what the
 * `stagnation` detector adds to a small check (issue 16), and a reference for the small step: what the state the
 * specification requires costs by itself, done the straightforward way. Every ratio is taken side by side in one process.
 */
import stringify from 'safe-stable-stringify';
import { guardStep, largeObjectStep, longTextStep, smallStep } from './fixtures.js';
import { CLOCK_NAME, comparePairs, middleHalf, roundOptions, type Pair, type PairResult } from './harness.js';
import { createGuard, type GuardOptions, type GuardStep } from './library.js';
import { formatNs, formatRatio, formatRatioAgainst, publish, type TargetCheck } from './report.js';

/** Distinct steps per cycle; the guard is reset when a cycle starts again, so every outcome is new and nothing stops. */
const CYCLE = 10_000;
/** Fewer distinct steps of 200 KB, so the fixtures stay small; still far more than any detector's window. */
const LARGE_CYCLE = 64;
const options = roundOptions({ rounds: 9, minCpuMs: 300 }, { rounds: 2, minCpuMs: 30 });
const guardOptions: GuardOptions = { maxSteps: false };

/** The steps one after another, over and over; `restart` runs each time the cycle starts again. */
function cycle(steps: readonly GuardStep[], restart?: () => void): () => GuardStep {
  let index = 0;
  return () => {
    if (index === steps.length) {
      index = 0;
      restart?.();
    }
    const step = steps[index++];
    if (step === undefined) throw new Error('unreachable: the index wraps above');
    return step;
  };
}

/** One `check()` per call, cycling through `steps` on a guard reset at the start of every cycle. */
function checkEach(steps: readonly GuardStep[], withOptions: GuardOptions = guardOptions): () => unknown {
  const guard = createGuard(withOptions);
  const next = cycle(steps, () => {
    guard.reset();
  });
  return () => {
    const verdict = guard.check(next());
    if (verdict.stop) throw new Error(`unexpected stop: ${verdict.detail}`);
    return verdict;
  };
}

/** The floor: each call's arguments and result serialised once, cycling through the same steps. */
function readEach(steps: readonly GuardStep[]): () => unknown {
  const next = cycle(steps);
  return () => {
    let length = 0;
    for (const call of next().toolCalls ?? []) {
      length += (stringify(call.args) ?? '').length + (stringify(call.result) ?? '').length;
    }
    return length;
  };
}

/**
 * The least a guard that meets the specification keeps, as a reference with no detection in it: the floor, plus each
 * step kept for `history` (a shallow copy, as a guard keeps) and each call's tool, arguments and result remembered for
 * the run, as `noProgress` must (it stops when no call brings an outcome not seen before in the run). It starts over
 * at each new cycle, as `checkEach` resets its guard.
 */
function keepEach(steps: readonly GuardStep[]): () => unknown {
  let history: GuardStep[] = [];
  let outcomes = new Set<string>();
  const next = cycle(steps, () => {
    history = [];
    outcomes = new Set();
  });
  return () => {
    const step = next();
    const calls = (step.toolCalls ?? []).map((call) => ({ name: call.name, args: call.args, result: call.result }));
    history.push({ ...step, toolCalls: calls });
    for (const call of calls) outcomes.add(`${call.name}\u0000${stringify(call.args) ?? ''}\u0000${stringify(call.result) ?? ''}`);
    return outcomes.size;
  };
}

const build = (count: number, step: (stepNumber: number) => GuardStep): GuardStep[] => Array.from({ length: count }, (_, index) => step(index));
const small = build(CYCLE, smallStep);
const twoKilobytes = build(CYCLE, (stepNumber) => guardStep(stepNumber));
const longText = build(LARGE_CYCLE, longTextStep);
const largeObject = build(LARGE_CYCLE, largeObjectStep);

/** A row of the table, and the largest ratio that meets its target (none for a row that only explains another). */
interface Row {
  readonly pair: Pair;
  readonly label: string;
  readonly target?: number;
  readonly targetText?: string;
}

const withoutStagnation: GuardOptions = { ...guardOptions, stagnation: false };

const smallCheck = checkEach(small);
const rows: readonly Row[] = [
  {
    pair: { input: 'small step: one call, small arguments, a 400 B result', peer: 'safe-stable-stringify of arguments and result', ours: checkEach(small), theirs: readEach(small) },
    label: 'check()',
    target: 2,
    targetText: 'check() on the small step at most 2.0x the floor',
  },
  {
    pair: { input: '2 KB step: one call, small arguments, a 2 KB result', peer: 'safe-stable-stringify of arguments and result', ours: checkEach(twoKilobytes), theirs: readEach(twoKilobytes) },
    label: 'check()',
    target: 1.2,
    targetText: 'check() on the 2 KB step at most 1.2x the floor',
  },
  {
    pair: { input: '200 KB string result (escape-heavy text)', peer: 'safe-stable-stringify of arguments and result', ours: checkEach(longText), theirs: readEach(longText) },
    label: 'check()',
    target: 0.6,
    targetText: 'check() on a 200 KB string result at most 0.6x the floor',
  },
  {
    pair: { input: '200 KB object result (1,400 hits)', peer: 'safe-stable-stringify of arguments and result', ours: checkEach(largeObject), theirs: readEach(largeObject) },
    label: 'check()',
    target: 1.1,
    targetText: 'check() on a 200 KB object result at most 1.1x the floor',
  },
  {
    pair: {
      input: 'createGuard() with default options',
      peer: 'two check() calls on the small step',
      ours: () => createGuard(),
      theirs: () => [smallCheck(), smallCheck()],
    },
    label: 'createGuard()',
    target: 1,
    targetText: 'createGuard() at most the cost of two small checks',
  },
  {
    pair: { input: 'small step, `stagnation: false` (no target: shows what stagnation adds)', peer: 'safe-stable-stringify of arguments and result', ours: checkEach(small, withoutStagnation), theirs: readEach(small) },
    label: 'check()',
  },
  {
    pair: { input: '2 KB step, `stagnation: false` (no target: shows what stagnation adds)', peer: 'safe-stable-stringify of arguments and result', ours: checkEach(twoKilobytes, withoutStagnation), theirs: readEach(twoKilobytes) },
    label: 'check()',
  },
  {
    pair: { input: 'small step: the least state a guard keeps (no target: a reference, see below)', peer: 'safe-stable-stringify of arguments and result', ours: keepEach(small), theirs: readEach(small) },
    label: 'floor + history + outcomes',
  },
  {
    pair: { input: 'small step against the least state a guard keeps (no target)', peer: 'floor + history + outcomes', ours: checkEach(small), theirs: keepEach(small) },
    label: 'check()',
  },
  {
    pair: {
      input: 'small step, stagnation on (the default)',
      peer: 'the same check() with `stagnation: false`',
      ours: checkEach(small),
      theirs: checkEach(small, withoutStagnation),
    },
    label: 'check()',
    target: 1.1,
    targetText: 'the stagnation detector adds at most 10% to check() on the small step (issue 16)',
  },
];

const results = await comparePairs(
  rows.map((row) => row.pair),
  options,
);

/** How much the paired batches agree: the middle half of their ratios. */
const spread = (result: PairResult): string => middleHalf(result.ratios);

const targets: TargetCheck[] = rows.flatMap((row, index) => {
  const result = results[index];
  if (result === undefined || row.target === undefined || row.targetText === undefined) return [];
  return [{ target: row.targetText, measured: `${formatRatioAgainst(result.ratio, row.target)} (middle half of the batches: ${spread(result)})`, met: result.ratio <= row.target }];
});

publish(import.meta.filename, {
  title: '4. `check()` against its floor',
  method:
    `Ours: \`guard.check(step)\` with default options and \`maxSteps: false\`, cycling through ${CYCLE.toLocaleString('en-US')} distinct steps (${String(LARGE_CYCLE)} for the 200 KB ones; the guard is reset when the cycle restarts). ` +
    "Floor: `safe-stable-stringify` of each call's arguments and of its result, once, over the same steps. " +
    "Reference (no target): the floor plus the least state a guard that meets the specification keeps, done the straightforward way: each step copied into a history array and each call's tool, arguments and result remembered in a `Set` for the run, as `noProgress` must; it detects nothing. " +
    'Every step holds text, a finish reason, usage and one `search` call with arguments `{ query, limit, filters }`; the arguments differ from step to step, as does the summary in each result, so no detector stops. ' +
    `Paired batches of about 5 ms a side, ${(options.rounds * options.minCpuMs).toLocaleString('en-US')} ms of each side in all, ${CLOCK_NAME}; the ratio is the median of the per-batch ratios, shown with the middle half of them.`,
  tables: [
    {
      header: ['Input', 'Peer', 'Peer time', 'Ours', 'Our time', 'Ratio', 'Middle half of the batches', 'Target'],
      rows: results.map((result, index) => [
        result.input,
        result.peer,
        formatNs(result.theirs.medianNs),
        rows[index]?.label ?? '',
        formatNs(result.ours.medianNs),
        formatRatio(result.ratio),
        spread(result),
        rows[index]?.target === undefined ? 'none' : `≤ ${rows[index].target.toFixed(2)}x`,
      ]),
    },
  ],
  targets,
  notes: [],
});
