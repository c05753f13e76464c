/**
 * Target 5: `toStopWhen` fed the way the AI SDK feeds it (one array that grows by a step, the condition called after
 * every step) must cost about as much as checking each step once, not replaying the run on every call.
 */
import { CLOCK_NAME, comparePairs, middleHalf, roundOptions, type Pair } from './harness.js';
import { createGuard, toGuardStep, toStopWhen, type GuardOptions } from './library.js';
import { formatNs, formatRatio, formatRatioAgainst, publish } from './report.js';
import { recordSdkRun } from './sdk-run.js';

const STEPS = 300;
/** At most this many times the cost of checking each step directly. */
const TARGET = 1.5;
const guardOptions: GuardOptions = { maxSteps: false };

const sdkSteps = await recordSdkRun(STEPS);
const mappedSteps = sdkSteps.map((step) => toGuardStep(step));

/** The SDK's way: one array, pushed to after each step, the condition asked after every push. */
const throughStopWhen = (): unknown => {
  const condition = toStopWhen(guardOptions);
  const steps: (typeof sdkSteps)[number][] = [];
  for (const step of sdkSteps) {
    steps.push(step);
    if (condition({ steps })) throw new Error('toStopWhen stopped a healthy run');
  }
  return steps;
};
/** What a hand-written `onStepFinish` would do: map the new step and check it, once. */
const mapAndCheck = (): unknown => {
  const guard = createGuard(guardOptions);
  for (const step of sdkSteps) if (guard.check(toGuardStep(step)).stop) throw new Error('the guard stopped a healthy run');
  return guard;
};
/** Direct checks of steps already in the guard's shape. */
const checkMapped = (): unknown => {
  const guard = createGuard(guardOptions);
  for (const step of mappedSteps) if (guard.check(step).stop) throw new Error('the guard stopped a healthy run');
  return guard;
};

const pairs: Pair[] = [
  { input: `${String(STEPS)} SDK steps`, peer: '300 × check(toGuardStep(step))', ours: throughStopWhen, theirs: mapAndCheck },
  { input: `${String(STEPS)} SDK steps`, peer: '300 × check(step), pre-mapped', ours: throughStopWhen, theirs: checkMapped },
];
const options = roundOptions({ rounds: 5, minCpuMs: 500 }, { rounds: 2, minCpuMs: 60 });
const results = await comparePairs(pairs, options);
const main = results[0];
publish(import.meta.filename, {
  title: '5. `toStopWhen` over a 300-step AI SDK run',
  method:
    `A real run recorded once with \`generateText\` and the SDK's \`MockLanguageModelV4\`: ${String(STEPS)} steps, each one \`search\` call with unique arguments and a 2 KB result (the SDK's own \`StepResult\` objects). ` +
    'Ours: a new `toStopWhen({ maxSteps: false })` condition, called after each step with one growing array, as `generateText` does. ' +
    'Peers: a new guard checking each step once, either mapping it with `toGuardStep` on the way (the same work on the same input, the target) or taking steps mapped beforehand (shows what mapping costs). ' +
    `Paired batches, ${(options.rounds * options.minCpuMs).toLocaleString('en-US')} ms of each side in all, ${CLOCK_NAME}; the ratio is the median of the per-batch ratios.`,
  tables: [
    {
      header: ['Input', 'Peer', 'Peer time per run', 'toStopWhen time per run', 'Ratio', 'Middle half of the batches'],
      rows: results.map((result) => [
        result.input,
        result.peer,
        formatNs(result.theirs.medianNs),
        formatNs(result.ours.medianNs),
        formatRatio(result.ratio),
        middleHalf(result.ratios),
      ]),
    },
  ],
  targets:
    main === undefined
      ? []
      : [
          {
            target: `at most ${String(TARGET)}x ${String(STEPS)} direct checks of the same steps`,
            measured: `${formatRatioAgainst(main.ratio, TARGET)} (middle half of the batches: ${middleHalf(main.ratios)})`,
            met: main.ratio <= TARGET,
          },
        ],
  notes: [],
});
