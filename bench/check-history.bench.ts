/**
 * Target 3: the cost of one `check()` must not depend on how long the run already is. A guard is filled with N
 * realistic steps (untimed), then batches of further steps are timed one `check()` at a time. The history is rebuilt
 * whenever it has grown 10% (at least 50 steps) past N, so every figure is taken at a history length close to N.
 */
import { createGuard, type Guard, type GuardOptions } from '../src/index.js';
import { guardSteps } from './fixtures.js';
import { QUICK, combine, median, roundOptions, timeManual, type Timing } from './harness.js';
import { formatNs, formatRatio, publish } from './report.js';

const LENGTHS = QUICK ? [100, 1_000, 10_000] : [100, 10_000, 100_000];
const BATCH = 50;
const options = roundOptions({ rounds: 5, minCpuMs: 300 }, { rounds: 2, minCpuMs: 40 });

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
    const window = Math.max(BATCH, Math.floor(this.length / 10));
    if (this.guard === undefined || this.next + BATCH > this.length + window) this.rebuild();
    const guard = this.guard;
    if (guard === undefined) throw new Error('unreachable: rebuilt above');
    const steps = guardSteps(this.next, BATCH, this.shareHits);
    let stops = 0;
    const start = performance.now();
    for (const step of steps) if (guard.check(step).stop) stops++;
    const elapsed = performance.now() - start;
    this.stops += stops;
    this.next += BATCH;
    return (elapsed * 1e6) / BATCH;
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
}

const unbounded: GuardOptions = { maxSteps: false };
const scenarios: Scenario[] = [
  { name: 'default detectors, results share their hit list', cases: LENGTHS.map((n) => new HistoryCase(n, unbounded, true)) },
];

const timings = new Map<HistoryCase, Timing[]>();
for (let round = 0; round < options.rounds; round++) {
  for (const scenario of scenarios) {
    // Rotate which length goes first, so no length always gets the coldest or warmest moment.
    const cases = scenario.cases.map((_, index) => scenario.cases[(index + round) % scenario.cases.length]);
    for (const historyCase of cases) {
      if (historyCase === undefined) continue;
      const timing = await timeManual(() => historyCase.sample(), options.minCpuMs);
      timings.set(historyCase, [...(timings.get(historyCase) ?? []), timing]);
    }
  }
}

const rows: string[][] = [];
let worstFlatness = 0;
for (const scenario of scenarios) {
  const base = scenario.cases[0];
  const baseTimings = base === undefined ? [] : (timings.get(base) ?? []);
  for (const historyCase of scenario.cases) {
    if (historyCase.stops > 0) throw new Error(`a detector stopped the ${String(historyCase.length)}-step run`);
    const own = timings.get(historyCase) ?? [];
    const ratio = median(own.map((timing, round) => timing.medianNs / (baseTimings[round]?.medianNs ?? Number.NaN)));
    if (historyCase.length === LENGTHS[LENGTHS.length - 1]) worstFlatness = Math.max(worstFlatness, ratio);
    const timing = combine(own);
    rows.push([
      scenario.name,
      historyCase.length.toLocaleString('en-US'),
      formatNs(timing.medianNs),
      formatNs(timing.meanNs),
      formatRatio(ratio),
    ]);
  }
}

publish(import.meta.filename, {
  title: '3. `check()` per step against history length',
  method:
    `Each step is one \`search\` call with arguments \`{ query, limit, filters }\` (unique per step, so no detector stops) and a result of about 2 KB. ` +
    `A guard with default options and \`maxSteps: false\` is filled with N steps untimed; then batches of ${String(BATCH)} further steps are timed, and the history is rebuilt once it grows 10% past N. ` +
    `${String(options.rounds)} rounds, lengths interleaved; the ratio is the median over rounds of (median at N) / (median at 100) in the same round.`,
  tables: [{ header: ['Scenario', 'History length', 'Median per check', 'Mean per check', 'Ratio to 100'], rows }],
  targets: [
    {
      target: `${(LENGTHS[LENGTHS.length - 1] ?? 0).toLocaleString('en-US')}-step figure within 1.2x of the 100-step figure`,
      measured: formatRatio(worstFlatness),
      met: worstFlatness <= 1.2,
    },
  ],
  notes: QUICK ? ['Quick mode: few, short rounds; the figures are only a smoke test.'] : [],
});
