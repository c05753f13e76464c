/**
 * Target 3: a `check()` must cost about the same at step 20,000 as at step 200, and a guard that has said stop (and is
 * checked on regardless, as loops and adapters do) must not get dearer to check. A guard is filled with N realistic
 * steps (untimed), then batches of further steps are timed one `check()` at a time. The history is rebuilt whenever
 * it has grown 20% (at least 50 steps) past N, so every figure is taken at a history length close to N.
 *
 * The run-length guards never stop: every step has arguments and an answer of its own, and `maxSteps` is off. The
 * guard after a stop saw its last call three times in a row at the end of its history, and stopped; the timed steps
 * after it are the same healthy steps the guard that never stopped is timed on, so both do the same work.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { guardSteps } from './fixtures.js';
import { CLOCK_NAME, QUICK, clock, median, middleHalf } from './harness.js';
import { createGuard, type Guard, type GuardOptions } from './library.js';
import { formatNs, formatRatio, formatRatioAgainst, publish, type TargetCheck } from './report.js';

const LENGTHS = [200, 2_000, 20_000];
const BATCH = 50;
/** A check at the longest history may cost at most this many times one at the shortest. */
const LENGTH_TARGET = 1.3;
/**
 * A check after a stop may cost at most this many times one before it: no dearer, give or take the few percent by which
 * the median of paired batches of the very same work still differs between two guards on this shared machine.
 */
const AFTER_STOP_TARGET = 1.05;
/** The history length at which a stop is checked past: a long run's `maxSteps`. */
const STOP_LENGTH = 200;
/** Timed batches per history length. */
const SAMPLES = QUICK ? 30 : 200;

/** A guard kept near `length` steps of history, timed in batches. */
class HistoryCase {
  private guard: Guard | undefined;
  private next = 0;
  /** Verdicts that were not what the case expects (a stop where none should be, or the other way round). */
  unexpected = 0;

  constructor(
    readonly length: number,
    private readonly guardOptions: GuardOptions,
    private readonly shareHits: boolean,
    /** Whether the guard said stop at the end of its history (a repeated call), before the timed checks. */
    private readonly stopped: boolean,
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
    this.unexpected += stops;
    this.next += BATCH;
    return elapsed / BATCH;
  }

  private rebuild(): void {
    this.guard = undefined;
    const guard = createGuard(this.guardOptions);
    // In slices, so the fixture for a long run never exists all at once.
    for (let from = 0; from < this.length; from += 1_000) {
      const steps = guardSteps(from, Math.min(1_000, this.length - from), this.shareHits);
      for (const step of steps) if (guard.check(step).stop) this.unexpected++;
    }
    // Three more steps: the last call twice again, which stops the run as a repeat, or two new ones.
    const [last] = guardSteps(this.length - 1, 1, this.shareHits);
    const ending = this.stopped && last !== undefined ? [last, last] : guardSteps(this.length, 2, this.shareHits);
    ending.forEach((step, index) => {
      if (guard.check(step).stop !== (this.stopped && index === ending.length - 1)) this.unexpected++;
    });
    this.guard = guard;
    this.next = this.length + 2;
  }
}

interface CaseOptions {
  readonly length: number;
  readonly guardOptions: GuardOptions;
  readonly stopped: boolean;
  /** What tells the case from others of the same length, in the table. */
  readonly note?: string;
}

interface Scenario {
  readonly name: string;
  readonly shareHits: boolean;
  /** The first case is the one every other is divided by. */
  readonly cases: readonly CaseOptions[];
  /** Which target the last case's ratio is judged against, if any. */
  readonly judged?: 'length' | 'after stop';
}

const running = (guardOptions: GuardOptions): CaseOptions[] => LENGTHS.map((length) => ({ length, guardOptions, stopped: false }));
const scenarios: readonly Scenario[] = [
  { name: 'defaults; results share one hit list', shareHits: true, cases: running({ maxSteps: false }), judged: 'length' },
  { name: 'defaults; every result owns its 2 KB', shareHits: false, cases: running({ maxSteps: false }), judged: 'length' },
  // Not judged: the target is about the defaults, and a limit only makes the history shorter.
  { name: 'historyLimit 1,000; every result owns its 2 KB', shareHits: false, cases: running({ maxSteps: false, historyLimit: 1_000 }) },
  {
    name: 'after a stop; every result owns its 2 KB',
    shareHits: false,
    // A second guard that has not stopped shows, in the same run, how far two guards doing the same work differ.
    cases: [
      { length: STOP_LENGTH, guardOptions: { maxSteps: false }, stopped: false },
      { length: STOP_LENGTH, guardOptions: { maxSteps: false }, stopped: false, note: 'a second guard' },
      { length: STOP_LENGTH, guardOptions: { maxSteps: false }, stopped: true, note: 'stopped' },
    ],
    judged: 'after stop',
  },
];

/**
 * Nanoseconds per check of every batch, per case, for one scenario. Batch by batch, every case in turn: load on the
 * shared machine changes slowly compared with one batch, so the cases see the same conditions, and a ratio is taken
 * per round.
 */
function sampleScenario(scenario: Scenario): number[][] {
  const cases = scenario.cases.map((options) => new HistoryCase(options.length, options.guardOptions, scenario.shareHits, options.stopped));
  for (const historyCase of cases) historyCase.sample(); // Builds every history and warms up before anything counts.
  const samples = cases.map((): number[] => []);
  for (let round = 0; round < SAMPLES; round++) {
    for (let offset = 0; offset < cases.length; offset++) {
      const index = (offset + round) % cases.length;
      samples[index]?.push(cases[index]?.sample() ?? Number.NaN);
    }
  }
  for (const historyCase of cases) {
    if (historyCase.unexpected > 0) throw new Error(`${String(historyCase.unexpected)} unexpected verdicts at ${String(historyCase.length)} steps in "${scenario.name}"`);
  }
  return samples;
}

/** Each scenario runs in a process of its own, so one scenario's heap (40 MB of results, say) cannot slow another. */
const CHILD_FLAG = '--scenario';
const childIndex = process.argv.indexOf(CHILD_FLAG);
if (childIndex !== -1) {
  const scenario = scenarios[Number(process.argv[childIndex + 1])];
  if (scenario === undefined) throw new Error('unknown scenario');
  console.log(JSON.stringify(sampleScenario(scenario)));
  process.exit(0);
}

/** The per-round ratios of one case's batches to the first case's. */
const roundRatios = (own: readonly number[], base: readonly number[]): number[] => own.map((time, round) => time / (base[round] ?? Number.NaN));

const rows: string[][] = [];
/** Per-round ratios of each judged scenario's last case, by target. */
const lengthRatios: number[][] = [];
let afterStopRatios: number[] = [];
for (const [index, scenario] of scenarios.entries()) {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), CHILD_FLAG, String(index), ...process.argv.slice(2)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 },
  );
  if (child.status !== 0) throw new Error(`the scenario "${scenario.name}" failed`);
  const samples = JSON.parse(child.stdout) as number[][];
  const base = samples[0] ?? [];
  for (const [caseIndex, options] of scenario.cases.entries()) {
    const own = samples[caseIndex] ?? [];
    const ratios = roundRatios(own, base);
    if (caseIndex === scenario.cases.length - 1 && scenario.judged === 'length') lengthRatios.push(ratios);
    if (caseIndex === scenario.cases.length - 1 && scenario.judged === 'after stop') afterStopRatios = ratios;
    rows.push([
      scenario.name,
      `${options.length.toLocaleString('en-US')}${options.note === undefined ? '' : `, ${options.note}`}`,
      formatNs(median(own)),
      formatNs(own.reduce((sum, value) => sum + value, 0) / own.length),
      formatRatio(median(ratios)),
      middleHalf(ratios),
    ]);
  }
}

const worstLengthRatios = lengthRatios.reduce((worst, ratios) => (median(ratios) > median(worst) ? ratios : worst), lengthRatios[0] ?? []);
const longest = (LENGTHS[LENGTHS.length - 1] ?? 0).toLocaleString('en-US');
const shortest = (LENGTHS[0] ?? 0).toLocaleString('en-US');
const judged = (ratios: readonly number[], target: number, text: string): TargetCheck => ({
  target: text,
  measured: `${formatRatioAgainst(median(ratios), target)} (middle half of the rounds: ${middleHalf(ratios)})`,
  met: median(ratios) <= target,
});

publish(import.meta.filename, {
  title: '3. `check()` per step against history length, and after a stop',
  method:
    `Each step is one \`search\` call with arguments \`{ query, limit, filters }\` (unique per step, so no detector stops) and a result of about 2 KB. ` +
    `A guard (default options plus \`maxSteps: false\`, and \`historyLimit\` where the scenario says so) is filled with N steps untimed; then batches of ${String(BATCH)} further steps are timed, and the history is rebuilt once it grows 20% past N. ` +
    `After a stop: a guard that stopped after ${String(STOP_LENGTH)} steps (its last call three times in a row) and is checked on, against one that never stopped, on the same healthy steps; a second guard that never stopped shows how far two guards doing the same work differ. ` +
    'With a shared hit list the heap holds little besides the guard; with results that own their 2 KB, a guard without a limit keeps every one of them alive (about 100 MB at 20,000 steps), so garbage collection has more to trace. ' +
    `Each scenario runs in a Node process of its own; within it, ${String(SAMPLES)} batches per case are taken in turn across the cases (so they share the machine's conditions). The figures are the median and mean ${CLOCK_NAME} per check over batches; the ratio is the median of the per-round ratios to the scenario's first row, shown with the middle half of them.`,
  tables: [{ header: ['Scenario', 'History length', 'Median per check', 'Mean per check', 'Ratio to the first row', 'Middle half of the rounds'], rows }],
  targets: [
    judged(worstLengthRatios, LENGTH_TARGET, `a check at step ${longest} at most ${formatRatio(LENGTH_TARGET)} one at step ${shortest}`),
    judged(afterStopRatios, AFTER_STOP_TARGET, `a check after a stop at most ${formatRatio(AFTER_STOP_TARGET)} one before it (no dearer, within noise)`),
  ],
  notes: [
    'The history-length target is checked on the two scenarios without `historyLimit` (the worse of the two is reported), on the median of per-round ratios: a batch that a major garbage collection lands in is an outlier the median leaves out, and the mean column shows what such pauses add on average.',
    ...(QUICK ? ['Quick mode: few batches; the figures are only a smoke test.'] : []),
  ],
});
