/**
 * What a `check()` costs next to the loop check agents already run: the result-aware check of OpenRouter's agent SDK
 * and of OpenClaw, which hashes, per step, each tool call (name and arguments) and its result, each as SHA-256
 * (`node:crypto`) of its RFC 8785 canonical form (the `canonicalize` package). Only that per-step hashing is measured on
 * the peer's side, not the window of hashes it keeps nor the comparisons over it, so the peer is, if anything, flattered.
 *
 * Steps of about 1 KB, 20 KB and 200 KB as JSON, each with a text result and with a structured one (nested records and
 * arrays, parsed from JSON as a tool's answer is). Each step holds a short model text, one `search` call whose small
 * arguments name the step, and usage; every step of a cycle has arguments and an answer of its own.
 *
 * Why the measured checks never stop: the guard has the default detectors and `maxSteps: false`, it walks through
 * {@link CYCLE} distinct steps (far more than any detector's window), and it is reset when the cycle starts again, so
 * no call repeats and no answer comes back within a run. Any stop verdict fails the benchmark.
 */
import { createHash } from 'node:crypto';
import rfc8785Canonicalize from 'canonicalize';
import { jsonBytes, sizedStep, type ResultFlavour } from './fixtures.js';
import { CLOCK_NAME, comparePairs, middleHalf, roundOptions, type Pair } from './harness.js';
import { createGuard, type GuardStep } from './library.js';
import { formatNs, formatRatio, formatRatioAgainst, publish, type TargetCheck } from './report.js';

/** Distinct steps per run: a long agent run, and far more than the 20-step window of the widest detector. */
const CYCLE = 100;
const options = roundOptions({ rounds: 9, minCpuMs: 300 }, { rounds: 2, minCpuMs: 30 });

/** SHA-256 of the canonical form, as hex, as the peer keys its history. */
function sha256OfCanonical(value: unknown): string {
  return createHash('sha256')
    .update(rfc8785Canonicalize(value) ?? '')
    .digest('hex');
}

/** The peer's per-step work: a hash of each call (name and arguments) and a hash of its result. */
function peerHashes(step: GuardStep): string[] {
  const hashes: string[] = [];
  for (const call of step.toolCalls ?? []) {
    hashes.push(sha256OfCanonical({ name: call.name, arguments: call.args }), sha256OfCanonical(call.result));
  }
  return hashes;
}

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

/** One `check()` per call on a guard that is reset whenever the steps start over. */
function checkEach(steps: readonly GuardStep[]): () => unknown {
  const guard = createGuard({ maxSteps: false });
  const next = cycle(steps, () => {
    guard.reset();
  });
  return () => {
    const verdict = guard.check(next());
    if (verdict.stop) throw new Error(`a measured check stopped: ${verdict.detail}`);
    return verdict;
  };
}

/** One step of the peer's work per call, over the same steps. */
function peerEach(steps: readonly GuardStep[]): () => unknown {
  const next = cycle(steps);
  return () => peerHashes(next());
}

interface Row {
  readonly size: string;
  readonly flavour: ResultFlavour;
  /** The largest ratio, ours / peer, that meets the target. */
  readonly target: number;
  readonly steps: readonly GuardStep[];
}

const SIZES = [
  { size: '1 KB', bytes: 1_000, target: 8 },
  { size: '20 KB', bytes: 20_000, target: 3 },
  { size: '200 KB', bytes: 200_000, target: 3 },
] as const;
const FLAVOURS: readonly ResultFlavour[] = ['text', 'structured'];

const rows: Row[] = SIZES.flatMap(({ size, bytes, target }) =>
  FLAVOURS.map((flavour) => ({ size, flavour, target, steps: Array.from({ length: CYCLE }, (_, stepNumber) => sizedStep(stepNumber, bytes, flavour)) })),
);

const label = (row: Row): string => `${row.size} step, ${row.flavour} result`;
const pairs: Pair[] = rows.map((row) => ({ input: label(row), peer: 'SHA-256 of canonical call and result', ours: checkEach(row.steps), theirs: peerEach(row.steps) }));
const results = await comparePairs(pairs, options);

/** The size of a row's middle step as JSON, in bytes. */
const stepSize = (row: Row): string => `${jsonBytes(row.steps[Math.floor(row.steps.length / 2)] ?? {}).toLocaleString('en-US')} B`;

const targets: TargetCheck[] = rows.map((row, index) => {
  const result = results[index];
  const ratio = result?.ratio ?? Number.NaN;
  return {
    target: `check() on a ${label(row)} at most ${formatRatio(row.target)} the peer`,
    measured: `${formatRatioAgainst(ratio, row.target)} (middle half of the batches: ${middleHalf(result?.ratios ?? [])})`,
    met: ratio <= row.target,
  };
});

publish(import.meta.filename, {
  title: '4. `check()` against a peer loop check',
  method:
    "Peer: the result-aware loop check of OpenRouter's agent SDK and OpenClaw, per step: SHA-256 (`node:crypto`) of the RFC 8785 canonical form (the `canonicalize` package) of each tool call's name and arguments, and of its result. " +
    `Ours: \`guard.check(step)\` with default options and \`maxSteps: false\`, cycling through ${String(CYCLE)} distinct steps and reset when the cycle restarts, so no verdict stops. ` +
    'Each step holds a short text, one `search` call with small arguments that differ per step, and a result of its own: text (numbered paragraphs) or structured (search hits with nested records and arrays, parsed from JSON). ' +
    `Paired batches of about 5 ms a side, taken in turn, ${(options.rounds * options.minCpuMs).toLocaleString('en-US')} ms of each side in all, ${CLOCK_NAME}; the ratio is the median of the per-batch ratios, shown with the middle half of them.`,
  tables: [
    {
      header: ['Step', 'Size as JSON', 'Peer time', 'check() time', 'Ratio', 'Middle half of the batches', 'Target'],
      rows: rows.map((row, index) => {
        const result = results[index];
        return [
          label(row),
          stepSize(row),
          formatNs(result?.theirs.medianNs ?? Number.NaN),
          formatNs(result?.ours.medianNs ?? Number.NaN),
          formatRatio(result?.ratio ?? Number.NaN),
          middleHalf(result?.ratios ?? []),
          `≤ ${formatRatio(row.target)}`,
        ];
      }),
    },
  ],
  targets,
  notes: [],
});
