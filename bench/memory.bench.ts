/**
 * Target 6: what a guard keeps alive as a run grows: `process.memoryUsage().heapUsed` after forced garbage collections
 * (`--expose-gc`) once the guard has seen N steps, minus the same just before it was created, each measurement in a
 * fresh Node process. Two views:
 * - the guard's own structures: the steps are built beforehand and held by the benchmark, so the difference before and
 *   after checking them is only what the guard adds (sanitised copies, seen outcomes, detector state);
 * - a long session: every step is built, checked and dropped by the caller, each with its own 2 KB result, so the
 *   difference is everything the guard holds on to, including the arguments and results its history refers to.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { guardStep, guardSteps } from './fixtures.js';
import { QUICK } from './harness.js';
import { createGuard, type Guard } from './library.js';
import { formatBytes, publish } from './report.js';

const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new Error('memory.bench.ts needs node --expose-gc (npm run bench passes it)');

/** Heap in use once garbage has been collected (twice: the first pass can leave weakly held objects for the second). */
function settledHeap(): number {
  collect?.();
  collect?.();
  return process.memoryUsage().heapUsed;
}

const LENGTHS = QUICK ? [1_000, 5_000] : [1_000, 10_000, 100_000];
const LIMIT = 1_000;

interface Measurement {
  readonly view: string;
  readonly historyLimit: number | false;
  readonly steps: number;
  readonly bytes: number;
}

function checkAll(guard: Guard, count: number, step: (index: number) => Parameters<Guard['check']>[0]): void {
  for (let index = 0; index < count; index++) {
    if (guard.check(step(index)).stop) throw new Error(`the guard stopped at step ${String(index)}`);
  }
}

type View = 'guard only' | 'long session';
const VIEW_LABELS: Readonly<Record<View, string>> = {
  'guard only': 'guard only (caller keeps the steps)',
  'long session': 'long session (caller drops each step, each result owns 2 KB)',
};

/**
 * One measurement, in this process: the heap once the guard has seen `count` steps, minus the heap just before it
 * was created. Run in a fresh process per measurement, so nothing from an earlier one is still around.
 */
function measureHere(view: View, count: number, historyLimit: number | false): number {
  // The "guard only" steps exist before the first reading and outlive the second: they are not counted.
  const steps = view === 'guard only' ? guardSteps(0, count) : [];
  const before = settledHeap();
  const guard = createGuard({ maxSteps: false, historyLimit });
  checkAll(guard, count, view === 'guard only' ? (index) => steps[index] ?? {} : (index) => guardStep(index, false));
  const after = settledHeap();
  if (guard.summary().steps !== count || (view === 'guard only' && steps.length !== count)) throw new Error('step count mismatch');
  return after - before;
}

function measureInChild(view: View, count: number, historyLimit: number | false): Measurement {
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), CHILD_FLAG, JSON.stringify({ view, count, historyLimit })],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (child.status !== 0) throw new Error(`the ${view} measurement of ${String(count)} steps failed`);
  return { view: VIEW_LABELS[view], historyLimit, steps: count, bytes: Number(child.stdout.trim()) };
}

const CHILD_FLAG = '--measure-one';
const childRequest = process.argv[process.argv.indexOf(CHILD_FLAG) + 1];
if (process.argv.includes(CHILD_FLAG) && childRequest !== undefined) {
  const { view, count, historyLimit } = JSON.parse(childRequest) as { view: View; count: number; historyLimit: number | false };
  console.log(String(measureHere(view, count, historyLimit)));
  process.exit(0);
}

const measurements: Measurement[] = [];
for (const historyLimit of [false, LIMIT] as const) {
  for (const view of ['guard only', 'long session'] as const) {
    for (const count of LENGTHS) measurements.push(measureInChild(view, count, historyLimit));
  }
}

const perStep = (measurement: Measurement): number => measurement.bytes / measurement.steps;
/** Bytes added per step between the two longest runs of one view: fixed costs cancel out. */
function slope(view: string, historyLimit: number | false): number {
  const runs = measurements.filter((m) => m.view === view && m.historyLimit === historyLimit);
  const [shorter, longer] = runs.slice(-2);
  if (shorter === undefined || longer === undefined) return Number.NaN;
  return (longer.bytes - shorter.bytes) / (longer.steps - shorter.steps);
}

const longest = LENGTHS[LENGTHS.length - 1] ?? 0;
const find = (view: string, historyLimit: number | false) =>
  measurements.find((m) => m.view.startsWith(view) && m.historyLimit === historyLimit && m.steps === longest);
const sessionUnbounded = find('long session', false);
const sessionBounded = find('long session', LIMIT);
const ownUnbounded = find('guard only', false);

publish(import.meta.filename, {
  title: '6. Memory retained by a guard',
  method:
    'A guard with default options and `maxSteps: false` is fed N realistic steps; what it retains is the heap in use (`process.memoryUsage().heapUsed` after two forced collections, `--expose-gc`) once it has seen them, minus the same just before it was created. Every figure comes from a fresh Node process. ' +
    '"Guard only": the benchmark holds the steps itself, so the difference is what the guard adds. ' +
    '"Long session": each step is built, checked and dropped by the caller, with a result that owns its 2 KB, so the difference is everything the guard keeps alive, including the arguments and results its history points to.',
  tables: [
    {
      header: ['View', 'historyLimit', 'Steps', 'Retained', 'Per step'],
      rows: measurements.map((m) => [
        m.view,
        m.historyLimit === false ? 'none' : m.historyLimit.toLocaleString('en-US'),
        m.steps.toLocaleString('en-US'),
        formatBytes(m.bytes),
        formatBytes(perStep(m)),
      ]),
    },
    {
      caption: `Growth per additional step, between the two longest runs (${LENGTHS.slice(-2).map((n) => n.toLocaleString('en-US')).join(' and ')} steps):`,
      header: ['View', 'historyLimit', 'Bytes per extra step'],
      rows: (['guard only (caller keeps the steps)', 'long session (caller drops each step, each result owns 2 KB)'] as const).flatMap((view) =>
        ([false, LIMIT] as const).map((historyLimit) => [
          view,
          historyLimit === false ? 'none' : historyLimit.toLocaleString('en-US'),
          formatBytes(slope(view, historyLimit)),
        ]),
      ),
    },
  ],
  targets: [],
  notes: [
    `Without a limit the guard grows by about ${formatBytes(ownUnbounded === undefined ? Number.NaN : perStep(ownUnbounded))} of its own per step ` +
      `(a sanitised copy of each step and each distinct outcome key, which \`noProgress\` keeps for the whole run), and it keeps every step's arguments and results alive: ` +
      `${sessionUnbounded === undefined ? 'n/a' : formatBytes(sessionUnbounded.bytes)} after ${longest.toLocaleString('en-US')} steps of this kind. ` +
      'That is harmless for one agent run and real for a session that never ends, so `historyLimit` bounds it: ' +
      `with \`historyLimit: ${LIMIT.toLocaleString('en-US')}\` the same session holds ${sessionBounded === undefined ? 'n/a' : formatBytes(sessionBounded.bytes)}, whatever its length.`,
    'The trade-off: with a limit, `history` and custom rules see only the kept steps, and `noProgress` treats an outcome as new unless one of the last `historyLimit` steps produced it, so an agent cycling through more distinct results than that looks like it is progressing. ' +
      'Step indexes, counts, totals and the other detectors (repeats, cycles, finish reasons, budgets, max steps) are unaffected: none of them ever looks further back than a few calls.',
  ],
});
