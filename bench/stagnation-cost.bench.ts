/**
 * Target 6: the `stagnation` detector may add at most 10% to `check()` on the step of target 4 (one call, small
 * arguments, a 2 KB result). The default guard (with `maxSteps: false`, as in target 4) against the same guard with
 * `stagnation: false`, side by side in every round; a step with a short text result is measured too, without a target.
 */
import { createGuard, type GuardOptions, type GuardStep } from '../src/index.js';
import { guardSteps, searchArgs } from './fixtures.js';
import { CLOCK_NAME, comparePairs, roundOptions, type Pair } from './harness.js';
import { formatNs, formatRatio, formatRatioAgainst, publish } from './report.js';

/** Distinct steps per cycle; the guard is reset when a cycle starts again, so every answer is new and nothing stops. */
const CYCLE = 10_000;
const options = roundOptions({ rounds: 7, minCpuMs: 400 });
const TARGET = 1.1;

/** One `check()` per call, cycling through `steps` on a guard reset at the start of every cycle. */
function checkEach(steps: readonly GuardStep[], guardOptions: GuardOptions): () => unknown {
  const guard = createGuard(guardOptions);
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

/** The step number in letters (a, b, ..., z, ba, bb, ...): a word no other step's answer holds, as digits would not be. */
function word(stepNumber: number): string {
  let letters = '';
  let rest = stepNumber;
  do {
    letters = String.fromCharCode(97 + (rest % 26)) + letters;
    rest = Math.floor(rest / 26);
  } while (rest > 0);
  return letters;
}

/** A small step: one call, small arguments, a one-line text result with a word of its own (every answer is new). */
function smallStep(stepNumber: number): GuardStep {
  return {
    text: 'Looking it up.',
    finishReason: 'tool-calls',
    toolCalls: [{ name: 'search', args: searchArgs(stepNumber), result: JSON.parse(JSON.stringify(`Found the page on ${word(stepNumber)}.`)) as string }],
    usage: { inputTokens: 300, outputTokens: 20 },
  };
}

const withStagnation: GuardOptions = { maxSteps: false };
const without: GuardOptions = { maxSteps: false, stagnation: false };
const inputs: [string, GuardStep[]][] = [
  ['one call, small arguments, 2 KB result', guardSteps(0, CYCLE)],
  ['one call, small arguments, short result', Array.from({ length: CYCLE }, (_, index) => smallStep(index))],
];
const pairs: Pair[] = inputs.map(([input, steps]) => ({
  input,
  peer: 'stagnation: false',
  ours: checkEach(steps, withStagnation),
  theirs: checkEach(steps, without),
}));
const results = await comparePairs(pairs, options);
const [realistic] = results;

publish(import.meta.filename, {
  title: '6. What `stagnation` adds to `check()`',
  method:
    `\`guard.check(step)\` with default options and \`maxSteps: false\`, against the same guard with \`stagnation: false\`, cycling through ${CYCLE.toLocaleString('en-US')} distinct steps (each guard is reset when the cycle restarts). ` +
    `${String(options.rounds)} interleaved rounds, ${CLOCK_NAME}; ratio = with / without.`,
  tables: [
    {
      header: ['Step', 'Without stagnation', 'With stagnation', 'Ratio'],
      rows: results.map((result) => [result.input, formatNs(result.theirs.medianNs), formatNs(result.ours.medianNs), formatRatio(result.ratio)]),
    },
  ],
  // The target is the issue's: the step of target 4. The short result is shown for what it is, without one.
  targets: realistic === undefined ? [] : [{ target: `at most ${formatRatio(TARGET)} on ${realistic.input}`, measured: formatRatioAgainst(realistic.ratio, TARGET), met: realistic.ratio <= TARGET }],
  notes: [
    'A step this small costs little either way; there, most of what stagnation adds is remembering each answer it has not seen (a set that grows with the distinct answers of the run, as the detector is specified).',
  ],
});
