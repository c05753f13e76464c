/**
 * One process of a durable run: it does one step of the agent and exits. Runs on Node 22 (`node:sqlite`).
 *
 *   worker.ts step DB RUN [--pause-after-check]
 *     load the run's row -> restore the guard from its snapshot -> do step N -> guard.check -> save, in that order.
 *     Prints a JSON line for each of those moments (`loaded`, `checked`, `saved`), or `finished` when the run had
 *     already stopped. With --pause-after-check it waits after `checked` for a line `save` on stdin before saving:
 *     the window in which the driver kills it.
 *   worker.ts show DB RUN
 *     prints the run's row and step log as one JSON line (for the test, which runs on Node 20 without `node:sqlite`).
 */
import { createInterface } from 'node:readline';
import { createGuard, type Verdict } from '../../src/index.js';
import { OPTIONS, scriptedStep } from './agent.js';
import { loadRun, openStore, saveStep, stepLog } from './store.js';

/** What a worker prints, one JSON line per moment of its step. */
export type WorkerEvent =
  | { readonly event: 'loaded'; readonly pid: number; readonly step: number; readonly restoredSteps: number }
  | { readonly event: 'checked' | 'saved' | 'finished'; readonly pid: number; readonly step: number; readonly verdict: Verdict };

function emit(event: WorkerEvent): void {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

/** The first line on stdin, or `undefined` at its end. */
async function readLine(): Promise<string | undefined> {
  const lines = createInterface({ input: process.stdin });
  try {
    for await (const line of lines) return line;
    return undefined;
  } finally {
    lines.close();
  }
}

async function step(file: string, run: string, pauseAfterCheck: boolean): Promise<number> {
  const db = openStore(file);
  try {
    // 1. Load.
    const row = loadRun(db, run);
    if (row.verdict !== null) {
      const last = JSON.parse(row.verdict) as Verdict;
      if (last.stop) {
        emit({ event: 'finished', pid: process.pid, step: row.next - 1, verdict: last });
        return 0;
      }
    }
    // Refused with a TypeError if the snapshot is malformed or was taken under other options.
    const guard = createGuard(OPTIONS, { snapshot: row.snapshot === null ? undefined : JSON.parse(row.snapshot) });
    emit({ event: 'loaded', pid: process.pid, step: row.next, restoredSteps: guard.summary().steps });

    // 2. Do the step and check it.
    const verdict = guard.check(scriptedStep(row.next));
    emit({ event: 'checked', pid: process.pid, step: row.next, verdict });

    if (pauseAfterCheck && (await readLine()) !== 'save') return 3; // told to give up: nothing saved

    // 3. Save the guard's new state with the step's verdict, in one transaction.
    saveStep(db, run, row.next, JSON.stringify(guard.snapshot()), JSON.stringify(verdict), process.pid);
    emit({ event: 'saved', pid: process.pid, step: row.next, verdict });
    return 0;
  } finally {
    db.close();
  }
}

function show(file: string, run: string): number {
  const db = openStore(file);
  try {
    process.stdout.write(`${JSON.stringify({ row: loadRun(db, run), log: stepLog(db, run) })}\n`);
    return 0;
  } finally {
    db.close();
  }
}

const [command, file, run, flag] = process.argv.slice(2);
if (file === undefined || run === undefined || (command !== 'step' && command !== 'show')) {
  process.stderr.write('usage: worker.ts step DB RUN [--pause-after-check] | worker.ts show DB RUN\n');
  process.exitCode = 2;
} else {
  process.exitCode = command === 'show' ? show(file, run) : await step(file, run, flag === '--pause-after-check');
}
