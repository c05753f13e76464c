/**
 * Timing on top of mitata: every figure is a median over several interleaved rounds, and every ratio compares two
 * functions measured side by side in the same round, so a change in machine load between rounds moves both.
 */
import { measure } from 'mitata';

/** `npm run bench -- --quick`: fewer rounds and shorter measurements, for CI, so the benchmarks never rot. */
export const QUICK = process.argv.includes('--quick');

/** `npm run bench -- --wall`: measure wall-clock time instead of this process's CPU time. */
export const WALL = process.argv.includes('--wall');

/**
 * The clock every benchmark reads, in nanoseconds. By default the CPU time this process has used (user and system,
 * all its threads, so garbage collection on helper threads counts): on a shared machine, time spent descheduled while
 * someone else runs would otherwise be charged to whichever function happened to be measured.
 */
export const clock: () => number = WALL
  ? () => performance.now() * 1e6
  : () => {
      const usage = process.cpuUsage();
      return (usage.user + usage.system) * 1e3;
    };

/** What `clock` measures, for reports. */
export const CLOCK_NAME = WALL ? 'wall-clock time' : 'process CPU time';

/** Nanoseconds per call: mitata's median sample and mean over samples. */
export interface Timing {
  readonly medianNs: number;
  readonly meanNs: number;
}

/** How long to measure each function per round, and how many rounds to interleave. */
export interface RoundOptions {
  readonly rounds: number;
  readonly minCpuMs: number;
}

/** `--rounds=N`: that many rounds instead of a benchmark's own number, to see the spread of a ratio near its target. */
const ROUNDS = process.argv.find((argument) => argument.startsWith('--rounds='));

/** Rounds and measuring time for this mode. */
export function roundOptions(full: RoundOptions, quick: RoundOptions = { rounds: 2, minCpuMs: 40 }): RoundOptions {
  const chosen = QUICK ? quick : full;
  return ROUNDS === undefined ? chosen : { ...chosen, rounds: Number.parseInt(ROUNDS.slice('--rounds='.length), 10) };
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const upper = sorted[middle] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? Number.NaN) + upper) / 2;
}

/**
 * Calls per sample for functions fast enough to be batched (under 65 µs a call). mitata's default of 4,096 with its
 * minimum of 12 samples makes one measurement of a 50 µs check take 2.5 s whatever the time asked for; 1,024 calls of
 * a few microseconds still span several garbage collections, so every sample pays its share of them.
 */
const BATCH_CALLS = QUICK ? 64 : 1024;

/** CPU time each function runs before it is first measured. */
const WARM_UP_NS = QUICK ? 10e6 : 150e6;

/** Calls a function until it has had {@link WARM_UP_NS} of CPU time. */
export function warmUp(fn: () => unknown): void {
  const start = clock();
  do fn();
  while (clock() - start < WARM_UP_NS);
}

/** Times one function with mitata (warm-up, batching of fast calls, outliers trimmed). */
export async function timeCall(fn: () => unknown, minCpuMs: number): Promise<Timing> {
  const stats = await measure(fn, { min_cpu_time: minCpuMs * 1e6, min_samples: QUICK ? 4 : 12, batch_samples: BATCH_CALLS, now: clock });
  return { medianNs: stats.p50, meanNs: stats.avg };
}

/** Our function and a peer's, on the same input. */
export interface Pair {
  readonly input: string;
  readonly peer: string;
  readonly ours: () => unknown;
  readonly theirs: () => unknown;
}

/** The result of one pair: median times and the median of the per-round ratios ours / peer. */
export interface PairResult {
  readonly input: string;
  readonly peer: string;
  readonly ours: Timing;
  readonly theirs: Timing;
  /** Median over rounds of (our median / their median) in that round. Below 1 means we are faster. */
  readonly ratio: number;
  readonly ratios: readonly number[];
}

/**
 * Measures every pair in every round; within a round the pairs run in turn and which side goes first alternates,
 * so neither side always gets the warmer cache or the quieter moment.
 */
export async function comparePairs(pairs: readonly Pair[], options: RoundOptions): Promise<PairResult[]> {
  // Every function runs a while before any round, so the first round does not measure the compiler.
  for (const pair of pairs) {
    warmUp(pair.ours);
    warmUp(pair.theirs);
  }
  const rows = pairs.map(() => ({ ours: [] as Timing[], theirs: [] as Timing[] }));
  for (let round = 0; round < options.rounds; round++) {
    for (const [index, pair] of pairs.entries()) {
      const row = rows[index];
      if (row === undefined) continue;
      if (round % 2 === 0) {
        row.ours.push(await timeCall(pair.ours, options.minCpuMs));
        row.theirs.push(await timeCall(pair.theirs, options.minCpuMs));
      } else {
        row.theirs.push(await timeCall(pair.theirs, options.minCpuMs));
        row.ours.push(await timeCall(pair.ours, options.minCpuMs));
      }
    }
  }
  return pairs.map((pair, index) => {
    const row = rows[index] ?? { ours: [], theirs: [] };
    const ratios = row.ours.map((timing, round) => timing.medianNs / (row.theirs[round]?.medianNs ?? Number.NaN));
    return {
      input: pair.input,
      peer: pair.peer,
      ours: combine(row.ours),
      theirs: combine(row.theirs),
      ratio: median(ratios),
      ratios,
    };
  });
}

/** Several rounds of one measurement folded into one: medians of the medians and of the means. */
export function combine(timings: readonly Timing[]): Timing {
  return { medianNs: median(timings.map((t) => t.medianNs)), meanNs: median(timings.map((t) => t.meanNs)) };
}
