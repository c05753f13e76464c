/**
 * Target 3: the cost of one `check()` must not depend on how long the run already is. A guard is filled with N
 * realistic steps (untimed), then batches of further steps are timed one `check()` at a time. The history is rebuilt
 * whenever it has grown 20% (at least 50 steps) past N, so every figure is taken at a history length close to N.
 */
import { createGuard, type Guard, type GuardOptions } from '../src/index.js';
import { guardSteps } from './fixtures.js';
import { CLOCK_NAME, QUICK, clock, median } from './harness.js';
import { formatNs, formatRatio, publish } from './report.js';

const LENGTHS = QUICK ? [100, 1_000, 10_000] : [100, 10_000, 100_000];
const BATCH = 50;
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
  readonly cases: readonly HistoryCase[];
  /** Whether the flatness target applies (it is about the defaults, without `historyLimit`). */
  readonly target: boolean;
}

const scenario = (name: string, guardOptions: GuardOptions, shareHits: boolean, target: boolean): Scenario => ({
  name,
  cases: LENGTHS.map((length) => new HistoryCase(length, guardOptions, shareHits)),
  target,
});
const scenarios: Scenario[] = [
  scenario('defaults; results share one hit list', { maxSteps: false }, true, true),
  scenario('defaults; every result owns its 2 KB', { maxSteps: false }, false, true),
  scenario('historyLimit 1,000; every result owns its 2 KB', { maxSteps: false, historyLimit: 1_000 }, false, false),
];

// Sample by sample, every length in turn: load on the shared machine changes slowly compared with one batch, so the
// lengths see the same conditions. (mitata is not used here: its own sample loop would let the history grow freely.)
const samples = new Map<HistoryCase, number[]>();
const allCases = scenarios.flatMap((scenario) => scenario.cases);
for (const historyCase of allCases) historyCase.sample(); // Builds every history and warms up before anything counts.
for (let round = 0; round < SAMPLES; round++) {
  for (let offset = 0; offset < allCases.length; offset++) {
    const historyCase = allCases[(offset + round) % allCases.length];
    if (historyCase === undefined) continue;
    samples.set(historyCase, [...(samples.get(historyCase) ?? []), historyCase.sample()]);
  }
}

const rows: string[][] = [];
let worstFlatness = 0;
for (const scenario of scenarios) {
  const base = scenario.cases[0];
  const baseMedian = median((base === undefined ? undefined : samples.get(base)) ?? []);
  for (const historyCase of scenario.cases) {
    if (historyCase.stops > 0) throw new Error(`a detector stopped the ${String(historyCase.length)}-step run`);
    const own = samples.get(historyCase) ?? [];
    const ratio = median(own) / baseMedian;
    if (historyCase.length === LENGTHS[LENGTHS.length - 1] && scenario.target) worstFlatness = Math.max(worstFlatness, ratio);
    rows.push([
      scenario.name,
      historyCase.length.toLocaleString('en-US'),
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
    `${String(SAMPLES)} batches per length, taken in turn across all lengths and scenarios (so they share the machine's conditions); the figures are the median and mean ${CLOCK_NAME} per check over batches, and the ratio divides medians.`,
  tables: [{ header: ['Scenario', 'History length', 'Median per check', 'Mean per check', 'Median ratio to 100'], rows }],
  targets: [
    {
      target: `${(LENGTHS[LENGTHS.length - 1] ?? 0).toLocaleString('en-US')}-step figure within 1.2x of the 100-step figure`,
      measured: formatRatio(worstFlatness),
      met: worstFlatness <= 1.2,
    },
  ],
  notes: [
    'The target is checked on the two scenarios without `historyLimit`, on medians: a batch that a major garbage collection lands in is an outlier the median leaves out, and the mean column shows what such pauses add on average.',
    ...(QUICK ? ['Quick mode: shorter histories and few batches; the figures are only a smoke test.'] : []),
  ],
});
