/**
 * canonicalize and stableHash against the libraries a user would reach for instead, on the same inputs in one process.
 * Every cell is measured once per round with mitata, rounds interleave all contenders, and each ratio (ours divided by
 * the peer) is the median of the per-round ratios of median times. Below 1.0 means we are faster.
 *
 * The clock is this process's CPU time by default: on a shared machine a process that is descheduled mid-sample
 * would otherwise be charged for someone else's work. `--wall` measures wall-clock time instead.
 *
 *   npx tsx bench/canonicalize.bench.ts            # full run, a few minutes on a busy 2-core machine
 *   npx tsx bench/canonicalize.bench.ts --quick    # a few seconds, to check the benchmark still runs
 */
import { createHash } from 'node:crypto';
import { cpus } from 'node:os';
import fastJsonStableStringify from 'fast-json-stable-stringify';
import jsonStableStringify from 'json-stable-stringify';
import { measure } from 'mitata';
import objectHash from 'object-hash';
import { hash as ohashHash, serialize as ohashSerialize } from 'ohash';
import safeStableStringify from 'safe-stable-stringify';
import { inputs } from './inputs.js';
import { canonicalize, createHashKey, hashString, stableHash, StepReader } from './library.js';

interface Contender {
  readonly name: string;
  readonly run: (value: unknown) => unknown;
  /** The largest ratio ours/this peer that meets the target, per input name; `undefined` where there is no target. */
  readonly target?: (input: string) => number | undefined;
  /** Why a ratio against this peer means nothing on an input, if it does not. */
  readonly notComparable?: (input: string) => string | undefined;
}

interface Suite {
  readonly title: string;
  readonly ours: Contender;
  readonly peers: readonly Contender[];
}

const quick = process.argv.includes('--quick');
const wall = process.argv.includes('--wall');
const rounds = quick ? 3 : 9;
/** Nanoseconds of CPU time this process has used. */
const cpuClock = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) * 1e3;
};
const options = {
  ...(quick
    ? { min_cpu_time: 5e6, min_samples: 3, batch_samples: 256, warmup_samples: 1 }
    : { min_cpu_time: 100e6, min_samples: 12, batch_samples: 512 }),
  ...(wall ? {} : { now: cpuClock }),
};
/** CPU time each contender spends on each input before any round, so every function is fully compiled when measured. */
const warmUpNanoseconds = quick ? 20e6 : 200e6;

function warmUp(run: () => unknown): void {
  const start = cpuClock();
  do run();
  while (cpuClock() - start < warmUpNanoseconds);
}

const hashKey = createHashKey();

const sha1 = (text: string | undefined): string =>
  createHash('sha1')
    .update(text ?? '')
    .digest('hex');

const suites: readonly Suite[] = [
  {
    title: 'canonicalize (text form)',
    ours: { name: 'canonicalize', run: canonicalize },
    peers: [
      { name: 'safe-stable-stringify', run: (value) => safeStableStringify(value), target: () => 1 },
      { name: 'fast-json-stable-stringify', run: (value) => fastJsonStableStringify(value) },
      { name: 'json-stable-stringify', run: (value) => jsonStableStringify(value) },
      // Not canonical (keys unsorted, NaN and Map merged with null and {}): the native floor, for scale.
      { name: 'JSON.stringify', run: (value) => JSON.stringify(value) },
      {
        name: 'ohash serialize',
        run: ohashSerialize,
        target: (input) => (input === '2 KB object' ? 1 / 3 : undefined),
        // It wraps a string in quotes without escaping anything, which is also why it confuses some values.
        notComparable: (input) => (input === '200 KB string' ? 'n/a: no escaping' : undefined),
      },
    ],
  },
  {
    title: 'stableHash (hash of the text form)',
    ours: { name: 'stableHash', run: stableHash },
    peers: [
      {
        name: 'object-hash',
        run: (value) => objectHash(value as object),
        // object-hash hands a lone string to native SHA-1 whole; stableHash hashes a long string raw too, in JavaScript.
        target: (input) => (input === '200 KB string' ? 0.5 : 0.1),
      },
      { name: 'ohash hash', run: ohashHash, target: () => 1 },
      { name: 'safe-stable-stringify + sha1', run: (value) => sha1(safeStableStringify(value)) },
      {
        // Its own hash over text it is handed, no walk: on the long string, what hashing it raw cannot go below.
        name: 'hashString of the string',
        run: (value) => hashString(typeof value === 'string' ? value : ''),
        notComparable: (input) => (input === '200 KB string' ? undefined : 'n/a: not a string'),
      },
    ],
  },
  {
    // What the guard does with each tool result: a reader per step, its keyed comparison key. No targets of its own:
    // check-floor.bench.ts judges the whole check(). Against stableHash it shows what the key and the reader cost.
    title: 'StepReader.key (keyed comparison key of a result, one reader per step)',
    ours: { name: 'new StepReader(key).key', run: (value) => new StepReader(hashKey).key(value) },
    peers: [
      { name: 'stableHash', run: stableHash },
      { name: 'safe-stable-stringify', run: (value) => safeStableStringify(value) },
    ],
  },
];

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  const upper = sorted[middle] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? Number.NaN) + upper) / 2;
}

function formatTime(nanoseconds: number): string {
  if (nanoseconds < 1e3) return `${nanoseconds.toFixed(0)} ns`;
  if (nanoseconds < 1e6) return `${(nanoseconds / 1e3).toFixed(1)} µs`;
  return `${(nanoseconds / 1e6).toFixed(2)} ms`;
}

async function main(): Promise<void> {
  for (const [name, value] of inputs) {
    if (canonicalize(value) !== safeStableStringify(value)) throw new Error(`canonicalize differs from JSON on ${name}`);
  }
  for (const suite of suites) {
    for (const contender of [suite.ours, ...suite.peers]) {
      for (const [, value] of inputs) warmUp(() => contender.run(value));
    }
  }
  // Median time of each round, in nanoseconds, by suite, input and contender.
  const times = new Map<string, number[]>();
  const cellKey = (suite: Suite, input: string, contender: Contender): string =>
    `${suite.title}\u0000${input}\u0000${contender.name}`;
  for (let round = 0; round < rounds; round++) {
    for (const suite of suites) {
      const contenders = [suite.ours, ...suite.peers];
      for (const [input, value] of inputs) {
        // Rotate the order each round so no contender always runs first (or right after the same one).
        for (let offset = 0; offset < contenders.length; offset++) {
          const contender = contenders[(offset + round) % contenders.length] ?? suite.ours;
          const stats = await measure(() => contender.run(value), options);
          const key = cellKey(suite, input, contender);
          times.set(key, [...(times.get(key) ?? []), stats.p50]);
        }
      }
    }
    process.stderr.write(`round ${String(round + 1)}/${String(rounds)} done\n`);
  }

  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  console.log(`Node ${process.version}, ${process.platform}-${process.arch}, ${cpu} (${String(cpus().length)} cores)`);
  console.log(
    `${String(rounds)} interleaved rounds${quick ? ' (--quick)' : ''}, ${wall ? 'wall-clock' : 'process CPU'} time; ` +
      'ratio = ours / peer (median of per-round ratios), below 1.0 is faster; peer medians in parentheses.',
  );
  console.log('canonicalize gives the same text as safe-stable-stringify on all four inputs (they are plain JSON).');
  const missed: string[] = [];
  for (const suite of suites) {
    console.log(`\n### ${suite.title}\n`);
    console.log(`| input | ${suite.ours.name} | ${suite.peers.map((peer) => `vs ${peer.name}`).join(' | ')} |`);
    console.log(`| --- | ---: | ${suite.peers.map(() => '---:').join(' | ')} |`);
    for (const [inputName] of inputs) {
      const ours = times.get(cellKey(suite, inputName, suite.ours)) ?? [];
      const columns = suite.peers.map((peer) => {
        const theirs = times.get(cellKey(suite, inputName, peer)) ?? [];
        const reason = peer.notComparable?.(inputName);
        if (reason !== undefined) return `${reason} (${formatTime(median(theirs))})`;
        const ratio = median(ours.map((time, round) => time / (theirs[round] ?? Number.NaN)));
        const limit = peer.target?.(inputName);
        let mark = '';
        if (limit !== undefined) {
          mark = ratio <= limit ? ' ✓' : ` ✗ (target ≤ ${limit.toFixed(2)})`;
          if (ratio > limit) missed.push(`${suite.ours.name} vs ${peer.name} on ${inputName}: ${ratio.toFixed(2)}`);
        }
        return `${ratio.toFixed(2)}${mark} (${formatTime(median(theirs))})`;
      });
      console.log(`| ${inputName} | ${formatTime(median(ours))} | ${columns.join(' | ')} |`);
    }
  }
  if (quick) console.log('\n--quick: too few samples to judge targets; run without it for figures to quote.');
  else console.log(missed.length === 0 ? '\nEvery target met.' : `\nTargets missed:\n- ${missed.join('\n- ')}`);
}

await main();
