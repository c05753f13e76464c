/**
 * Timing for the guard benchmarks: every ratio compares two functions measured side by side in paired batches of a few
 * milliseconds, so a change in the machine's load between batches moves both sides of a ratio alike.
 */

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

/** Nanoseconds per call: the median and the mean over batches. */
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

/** CPU time each function runs before it is first measured. */
const WARM_UP_NS = QUICK ? 10e6 : 150e6;

/** Calls a function until it has had {@link WARM_UP_NS} of CPU time. */
export function warmUp(fn: () => unknown): void {
  const start = clock();
  do fn();
  while (clock() - start < WARM_UP_NS);
}

/** Our function and a peer's, on the same input. */
export interface Pair {
  readonly input: string;
  readonly peer: string;
  readonly ours: () => unknown;
  readonly theirs: () => unknown;
}

/** The result of one pair: times per call and the median of the per-batch ratios ours / peer. */
export interface PairResult {
  readonly input: string;
  readonly peer: string;
  readonly ours: Timing;
  readonly theirs: Timing;
  /** Median over paired batches of (our time per call / their time per call). Below 1 means we are faster. */
  readonly ratio: number;
  readonly ratios: readonly number[];
}

/** CPU time of one side of a paired batch: long enough to hold many calls, short enough that load rarely shifts. */
const BATCH_NS = 5e6;

/** How many calls of `fn` fill {@link BATCH_NS} (at least one). */
function callsPerBatch(fn: () => unknown): number {
  let calls = 0;
  const start = clock();
  do {
    fn();
    calls++;
  } while (clock() - start < BATCH_NS);
  return calls;
}

/** Nanoseconds per call over `calls` calls. */
function perCall(fn: () => unknown, calls: number): number {
  const start = clock();
  for (let call = 0; call < calls; call++) fn();
  return (clock() - start) / calls;
}

/**
 * Measures each pair in paired batches: our function for about 5 ms of CPU time, then the peer's for about as long
 * (which side goes first alternates), over and over, for `rounds` times `minCpuMs` of each side's time in all. A ratio
 * is taken per batch pair, so a change in the machine's load between batches moves both sides of a ratio alike; the
 * result is the median of those ratios. (Separate measurements of a few hundred milliseconds each drift apart by tens
 * of percent on a busy shared machine.)
 */
export async function comparePairs(pairs: readonly Pair[], options: RoundOptions): Promise<PairResult[]> {
  const batches = Math.max(4, Math.round((options.rounds * options.minCpuMs * 1e6) / BATCH_NS));
  const results: PairResult[] = [];
  for (const pair of pairs) {
    // Every function runs a while first, so no batch measures the compiler.
    warmUp(pair.ours);
    warmUp(pair.theirs);
    const oursCalls = callsPerBatch(pair.ours);
    const theirsCalls = callsPerBatch(pair.theirs);
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let batch = 0; batch < batches; batch++) {
      if (batch % 2 === 0) {
        ours.push(perCall(pair.ours, oursCalls));
        theirs.push(perCall(pair.theirs, theirsCalls));
      } else {
        theirs.push(perCall(pair.theirs, theirsCalls));
        ours.push(perCall(pair.ours, oursCalls));
      }
    }
    const ratios = ours.map((time, batch) => time / (theirs[batch] ?? Number.NaN));
    results.push({ input: pair.input, peer: pair.peer, ours: timingOf(ours), theirs: timingOf(theirs), ratio: median(ratios), ratios });
    // Let the event loop breathe between pairs (timers, the runner's pipes).
    await new Promise((resolve) => setImmediate(resolve));
  }
  return results;
}

/** Median and mean of per-call times. */
function timingOf(times: readonly number[]): Timing {
  return { medianNs: median(times), meanNs: times.reduce((sum, time) => sum + time, 0) / times.length };
}

/** The middle half of some ratios (their first to third quartile), as text: how much the batches agree. */
export function middleHalf(ratios: readonly number[]): string {
  const sorted = [...ratios].sort((left, right) => left - right);
  const at = (share: number): number => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
  const format = (ratio: number): string => (Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : 'n/a');
  return `${format(at(0.25))} to ${format(at(0.75))}`;
}
