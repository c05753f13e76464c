/**
 * Target 3: the cost of one `check()` must not depend on how long the run already is. A guard is filled with N
 * realistic steps (untimed), then batches of further steps are timed one `check()` at a time. The history is rebuilt
 * whenever it has grown 20% (at least 50 steps) past N, so every figure is taken at a history length close to N.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { guardSteps } from './fixtures.js';
import { CLOCK_NAME, QUICK, clock, median } from './harness.js';
import { createGuard, type Guard, type GuardOptions } from './library.js';
import { formatNs, formatRatio, formatRatioAgainst, publish } from './report.js';

const LENGTHS = QUICK ? [100, 1_000, 10_000] : [100, 10_000, 100_000];
const BATCH = 50;
/** The longest history's check may cost at most this many times the shortest's. */
const TARGET = 1.2;
/** Timed batches per history length. */
const SAMPLES = QUICK ? 30 : 200;

/** A guard kept near `length` steps of history, timed in batches. */
class HistoryCase {
  private guard: Guard | undefined;
  private next = 0;
  stops = 0;

  constructor(
    readonly length: number,
    private readonly guardOptions: GuardOptions,
    private readonly shareHits: boolean,
  ) {}

  /** Nanoseconds per `check()` over one batch. */
  sample(): number {
    const window = Math.max(BATCH, Math.floor(this.length / 5));
    if (this.guard === undefined || this.next + BATCH > this.length + window) this.rebuild();
    const guard = this.guard;
    if (guard === undefined) throw new Error('unreachable: rebuilt above');
    const steps = guardSteps(this.next, BATCH, this.shareHits);
    let stops = 0;
    const start = clock();
    for (const step of steps) if (guard.check(step).stop) stops++;
    const elapsed = clock() - start;
    this.stops += stops;
    this.next += BATCH;
    return elapsed / BATCH;
  }

  private rebuild(): void {
    this.guard = undefined;
    const guard = createGuard(this.guardOptions);
    // In slices, so the fixture for 100,000 steps never exists all at once.
    for (let from = 0; from < this.length; from += 1_000) {
      for (const step of guardSteps(from, Math.min(1_000, this.length - from), this.shareHits)) {
        if (guard.check(step).stop) this.stops++;
      }
    }
    this.guard = guard;
    this.next = this.length;
  }
}

interface Scenario {
  readonly name: string;
  readonly guardOptions: GuardOptions;
  readonly shareHits: boolean;
  /** Whether the flatness target applies (it is about the defaults, without `historyLimit`). */
  readonly target: boolean;
}

const scenarios: readonly Scenario[] = [
  { name: 'defaults; results share one hit list', guardOptions: { maxSteps: false }, shareHits: true, target: true },
  { name: 'defaults; every result owns its 2 KB', guardOptions: { maxSteps: false }, shareHits: false, target: true },
  {
    name: 'historyLimit 1,000; every result owns its 2 KB',
    guardOptions: { maxSteps: false, historyLimit: 1_000 },
    shareHits: false,
    target: false,
  },
];

/**
 * Nanoseconds per check of every batch, per history length, for one scenario. Batch by batch, every length in turn:
 * load on the shared machine changes slowly compared with one batch, so the lengths see the same conditions.
 * (mitata's own sample loop is not used here: it would let the history grow as far as its sample count.)
 */
function sampleScenario(scenario: Scenario): number[][] {
  const cases = LENGTHS.map((length) => new HistoryCase(length, scenario.guardOptions, scenario.shareHits));
  for (const historyCase of cases) historyCase.sample(); // Builds every history and warms up before anything counts.
  const samples = cases.map((): number[] => []);
  for (let round = 0; round < SAMPLES; round++) {
    for (let offset = 0; offset < cases.length; offset++) {
      const index = (offset + round) % cases.length;
      samples[index]?.push(cases[index]?.sample() ?? Number.NaN);
    }
  }
  for (const historyCase of cases) {
    if (historyCase.stops > 0) throw new Error(`a detector stopped the ${String(historyCase.length)}-step run`);
  }
  return samples;
}

/** Each scenario runs in a process of its own, so one scenario's heap (500 MB of results, say) cannot slow another. */
const CHILD_FLAG = '--scenario';
const childIndex = process.argv.indexOf(CHILD_FLAG);
if (childIndex !== -1) {
  const scenario = scenarios[Number(process.argv[childIndex + 1])];
  if (scenario === undefined) throw new Error('unknown scenario');
  console.log(JSON.stringify(sampleScenario(scenario)));
  process.exit(0);
}

const rows: string[][] = [];
let worstFlatness = 0;
for (const [index, scenario] of scenarios.entries()) {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), CHILD_FLAG, String(index), ...process.argv.slice(2)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 },
  );
  if (child.status !== 0) throw new Error(`the scenario "${scenario.name}" failed`);
  const samples = JSON.parse(child.stdout) as number[][];
  const baseMedian = median(samples[0] ?? []);
  for (const [lengthIndex, length] of LENGTHS.entries()) {
    const own = samples[lengthIndex] ?? [];
    const ratio = median(own) / baseMedian;
    if (length === LENGTHS[LENGTHS.length - 1] && scenario.target) worstFlatness = Math.max(worstFlatness, ratio);
    rows.push([
      scenario.name,
      length.toLocaleString('en-US'),
      formatNs(median(own)),
      formatNs(own.reduce((sum, value) => sum + value, 0) / own.length),
      formatRatio(ratio),
    ]);
  }
}

publish(import.meta.filename, {
  title: '3. `check()` per step against history length',
  method:
    `Each step is one \`search\` call with arguments \`{ query, limit, filters }\` (unique per step, so no detector stops) and a result of about 2 KB. ` +
    `A guard (default options plus \`maxSteps: false\`, and \`historyLimit\` where the scenario says so) is filled with N steps untimed; then batches of ${String(BATCH)} further steps are timed, and the history is rebuilt once it grows 20% past N. ` +
    'With a shared hit list the heap holds little besides the guard; with results that own their 2 KB, a guard without a limit keeps every one of them alive (about 500 MB at 100,000 steps), so garbage collection has more to trace. ' +
    `Each scenario runs in a Node process of its own; within it, ${String(SAMPLES)} batches per length are taken in turn across the lengths (so they share the machine's conditions). The figures are the median and mean ${CLOCK_NAME} per check over batches, and the ratio divides medians.`,
  tables: [{ header: ['Scenario', 'History length', 'Median per check', 'Mean per check', 'Median ratio to 100'], rows }],
  targets: [
    {
      target: `${(LENGTHS[LENGTHS.length - 1] ?? 0).toLocaleString('en-US')}-step figure within ${String(TARGET)}x of the 100-step figure`,
      measured: formatRatioAgainst(worstFlatness, TARGET),
      met: worstFlatness <= TARGET,
    },
  ],
  notes: [
    'The target is checked on the two scenarios without `historyLimit`, on medians: a batch that a major garbage collection lands in is an outlier the median leaves out, and the mean column shows what such pauses add on average.',
    ...(QUICK ? ['Quick mode: shorter histories and few batches; the figures are only a smoke test.'] : []),
  ],
});
