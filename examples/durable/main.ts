/**
 * A durable agent run that survives a crash. The agent (a scripted coding agent, offline) runs as a series of
 * processes, one per step: each loads the guard's snapshot from a SQLite file (Node 22's `node:sqlite`), checks its
 * step, saves the new snapshot and exits. One process is killed with SIGKILL after its check and before its save;
 * the next one resumes from the last saved snapshot and does that step again. At the end the run is compared with one
 * guard that saw every step in this process without interruption: same verdict, same step, same state, or exit 1.
 *
 * Run with `npm run example:durable` (options: --kill-at 7 or --kill-at 0,8,8, --keep to keep the database).
 * The workers need Node 22.5 or newer; on an older Node this driver fetches one with `scripts/node-bin.sh 22`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGuard, explain, type GuardSnapshot, type Verdict } from '../../src/index.js';
import { OPTIONS, runUninterrupted, scriptedStep } from './agent.js';
import { node22, runDurable, showRun, type WorkerProcess, type WorkerSetup } from './processes.js';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const killAt = (option('--kill-at') ?? '7').split(',').map(Number);
const keep = process.argv.includes('--keep');

/** The current Node if it has `node:sqlite` (22.5 or newer), else a Node 22 from scripts/node-bin.sh. */
function workerNode(): { readonly node: string; readonly nodeVersion: string } {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 5) ? { node: process.execPath, nodeVersion: process.version } : node22();
}

function describeCall(step: number): string {
  const call = scriptedStep(step).toolCalls?.[0];
  return call === undefined ? '(no call)' : `${call.name}(${JSON.stringify(call.args)})`;
}

function describeVerdict(verdict: Verdict): string {
  const warnings = verdict.warnings?.length ?? 0;
  const said = verdict.stop ? `STOP ${verdict.code}` : 'continue';
  return warnings === 0 ? said : `${said} (${String(warnings)} warning${warnings === 1 ? '' : 's'})`;
}

const dir = mkdtempSync(join(tmpdir(), 'agent-loopguard-durable-'));
const setup: WorkerSetup = { ...workerNode(), db: join(dir, 'run.db'), run: 'fix-date-parser' };

console.log(`A durable agent run: one process per step, the guard's state in SQLite (node:sqlite, Node ${setup.nodeVersion}).`);
console.log(`Database ${setup.db}, run "${setup.run}". Killed between check and save: the process at step ${killAt.join(', step ')}.\n`);

let count = 0;
/** The step whose process was killed last: the next process does it again. */
let retry: number | undefined;
async function tell(worker: WorkerProcess): Promise<void> {
  count++;
  const who = `process ${String(count).padStart(2)} (pid ${String(worker.pid)})`;
  for (const event of worker.events) {
    if (event.event === 'finished') console.log(`${who}: the run had already stopped at step ${String(event.step)}; nothing to do`);
    if (event.event !== 'checked') continue;
    const first = worker.events[0];
    const from = first?.event === 'loaded' && first.restoredSteps > 0 ? `restored ${String(first.restoredSteps)} step${first.restoredSteps === 1 ? '' : 's'}` : 'new run';
    const step = `step ${String(event.step)}${event.step === retry ? ' again' : ''}`;
    const outcome = worker.killed ? 'checked, then SIGKILL before its save' : 'saved';
    console.log(`${who}: ${from.padEnd(17)} ${step.padEnd(12)} ${describeCall(event.step).padEnd(43)} ${describeVerdict(event.verdict).padEnd(36)} ${outcome}`);
    retry = worker.killed ? event.step : undefined;
  }
  if (worker.killed) {
    const { row, log } = await showRun(setup);
    const steps = row.snapshot === null ? 0 : (JSON.parse(row.snapshot) as GuardSnapshot).steps;
    console.log(
      `${' '.repeat(who.length)}  the database still says: next step ${String(row.next)}, snapshot of ${String(steps)} steps, ${String(log.length)} steps in the log`,
    );
  }
}

try {
  const started = performance.now();
  const durable = await runDurable(setup, { killAt, afterEach: tell });
  const seconds = (performance.now() - started) / 1_000;
  const stopper = durable.processes.at(-1);
  console.log(`\nThe run stopped at step ${String(durable.step)} (process ${String(durable.processes.length)}, pid ${String(stopper?.pid)}):`);
  console.log(explain(durable.verdict));

  // The same steps through one guard in this process, never interrupted.
  const { row } = await showRun(setup);
  const saved = JSON.parse(row.snapshot ?? 'null') as GuardSnapshot;
  // With the key the run's first process drew, so the two guards' snapshots compare field by field.
  const reference = runUninterrupted(saved.hashKey);
  const restored = createGuard(OPTIONS, { snapshot: saved }).snapshot(); // refuses a snapshot that does not fit
  // What the processes saved, step by step (a killed process saved nothing).
  const savedVerdicts = durable.processes.flatMap((worker) => worker.events.flatMap((event) => (event.event === 'saved' ? [event.verdict] : [])));
  const checks = {
    'stopped at the same step': durable.step === reference.stoppedAt,
    'with the same verdict (as JSON)': JSON.stringify(durable.verdict) === JSON.stringify(reference.verdicts.at(-1)),
    'the same verdicts, step by step': JSON.stringify(savedVerdicts) === JSON.stringify(reference.verdicts),
    'the saved snapshot is the uninterrupted guard\'s snapshot': row.snapshot === JSON.stringify(reference.snapshot),
    'restored, it is a guard in the same state': JSON.stringify(restored) === JSON.stringify(reference.snapshot),
  };
  console.log(`\nCompared with one guard that saw every step in this process, without interruption (stopped at step ${String(reference.stoppedAt)}):`);
  for (const [what, same] of Object.entries(checks)) console.log(`  ${what}: ${same ? 'yes' : 'NO'}`);
  const ms = durable.processes.map((worker) => worker.ms);
  console.log(
    `\n${String(ms.length)} processes in ${seconds.toFixed(1)} s (${(ms.reduce((a, b) => a + b, 0) / ms.length / 1_000).toFixed(2)} s each on average, mostly Node and tsx starting up).`,
  );
  if (Object.values(checks).includes(false)) {
    console.error('The durable run differs from the uninterrupted one.');
    process.exitCode = 1;
  }
} finally {
  if (keep) console.log(`(database kept: ${setup.db})`);
  else rmSync(dir, { recursive: true, force: true });
}
