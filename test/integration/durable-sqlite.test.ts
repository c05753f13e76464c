/**
 * A durable run proven across a process crash, with a real embedded database: the scripted agent of
 * examples/durable runs as a series of Node 22 processes on `node:sqlite`, one per step (load the snapshot, check the
 * step, save the snapshot), and processes are killed with SIGKILL between check and save. The run must end exactly
 * as one guard that saw every step without interruption: same verdicts, same step, same state.
 *
 * The workers always run on a Node 22 from scripts/node-bin.sh (installed into a cache on first use; a missing Node is
 * an error, never a skip), whatever Node runs this file: `npm test` runs it on the machine's Node, CI on Node 22 too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuard } from '../../src/index.js';
import type { GuardSnapshot, Verdict } from '../../src/index.js';
import { OPTIONS, runUninterrupted, scriptedStep, type UninterruptedRun } from '../../examples/durable/agent.js';
import { node22, runDurable, runWorker, showRun } from '../../examples/durable/processes.js';
import type { DurableRun, WorkerProcess, WorkerSetup } from '../../examples/durable/processes.js';
import type { RunRow, SavedStep } from '../../examples/durable/store.js';
import { jsonReferenceForm } from '../support/json-equality.js';

const TIMEOUT_MS = 120_000;

let node: { readonly node: string; readonly nodeVersion: string };
let dir: string;

beforeAll(() => {
  node = node22();
  dir = mkdtempSync(join(tmpdir(), 'agent-loopguard-durable-test-'));
}, TIMEOUT_MS);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The uninterrupted run, in this process: what every durable run must match. */
const reference = runUninterrupted();

/** The uninterrupted run with the key the durable run's guard drew, so snapshots compare whole. */
async function referenceFor(setup: WorkerSetup): Promise<UninterruptedRun> {
  const { row } = await showRun(setup);
  return runUninterrupted((JSON.parse(row.snapshot ?? 'null') as GuardSnapshot).hashKey);
}

interface Kill {
  readonly worker: WorkerProcess;
  /** The database right after the kill. */
  readonly row: RunRow;
  readonly log: readonly SavedStep[];
}

/** Runs the durable agent with the given kills, reading the database after each kill. */
async function durableRun(name: string, killAt: readonly number[]): Promise<{ setup: WorkerSetup; run: DurableRun; kills: Kill[] }> {
  const setup: WorkerSetup = { ...node, db: join(dir, `${name}.db`), run: name };
  const kills: Kill[] = [];
  const run = await runDurable(setup, {
    killAt,
    afterEach: async (worker) => {
      if (worker.killed) kills.push({ worker, ...(await showRun(setup)) });
    },
  });
  return { setup, run, kills };
}

function eventsOf(worker: WorkerProcess, kind: 'loaded' | 'checked' | 'saved'): number[] {
  return worker.events.filter((event) => event.event === kind).map((event) => event.step);
}

function verdictChecked(worker: WorkerProcess): Verdict | undefined {
  const checked = worker.events.find((event) => event.event === 'checked');
  return checked?.event === 'checked' ? checked.verdict : undefined;
}

/** What every durable run must show, whichever processes were killed. */
function expectSameAsUninterrupted({ run, kills }: { run: DurableRun; kills: readonly Kill[] }, killAt: readonly number[], reference: UninterruptedRun): void {
  const steps = reference.stoppedAt + 1;
  // One process per step, plus one per kill.
  expect(run.processes).toHaveLength(steps + killAt.length);
  expect(kills.map((kill) => eventsOf(kill.worker, 'checked')[0])).toEqual(killAt);

  for (const kill of kills) {
    const step = eventsOf(kill.worker, 'checked')[0] ?? -1;
    // Killed after its check, before its save: it checked the step and said what the uninterrupted guard said ...
    expect(kill.worker.signal).toBe('SIGKILL');
    expect(kill.worker.code).toBeNull();
    expect(eventsOf(kill.worker, 'saved')).toEqual([]);
    expect(verdictChecked(kill.worker)).toEqual(reference.verdicts[step]);
    // ... and the database is still at the step before: the killed check is not recorded anywhere.
    expect(kill.row.next).toBe(step);
    expect(kill.log.map((saved) => saved.step)).toEqual([...Array(step).keys()]);
    if (step === 0) {
      expect(kill.row).toEqual({ next: 0, snapshot: null, verdict: null });
    } else {
      expect(JSON.parse(kill.row.snapshot ?? 'null')).toEqual(reference.snapshots[step - 1]);
      expect(kill.row.snapshot).toBe(JSON.stringify(reference.snapshots[step - 1]));
      expect(JSON.parse(kill.row.verdict ?? 'null')).toEqual(reference.verdicts[step - 1]);
    }
  }

  run.processes.forEach((worker, index) => {
    const step = eventsOf(worker, 'checked')[0] ?? -1;
    // Every process restored what the one before it saved (or, after a kill, what the one before that saved) ...
    expect(eventsOf(worker, 'loaded')).toEqual([step]);
    expect(worker.events[0]).toMatchObject({ event: 'loaded', restoredSteps: step });
    // ... and gave its step the uninterrupted guard's verdict, to the last field.
    expect(jsonReferenceForm(verdictChecked(worker))).toBe(jsonReferenceForm(reference.verdicts[step]));
    if (worker.killed) {
      // The next process does the killed step again.
      const next = run.processes[index + 1];
      expect(next && eventsOf(next, 'checked')).toEqual([step]);
    } else {
      expect(worker.code).toBe(0);
      expect(eventsOf(worker, 'saved')).toEqual([step]);
    }
  });

  // The run ends with exactly the uninterrupted guard's verdict, at the same step.
  expect(run.step).toBe(reference.stoppedAt);
  expect(run.verdict).toEqual(reference.verdicts.at(-1));
  expect(jsonReferenceForm(run.verdict)).toBe(jsonReferenceForm(reference.verdicts.at(-1)));
  expect(run.verdict).toMatchObject({ stop: true, code: 'REPEATED_TOOL_CALL', evidence: { stepIndexes: [6, 7, 8] } });
}

/** The database at the end: the last snapshot is the uninterrupted guard's, and restored it behaves the same. */
async function expectFinalState(setup: WorkerSetup, kills: readonly Kill[], reference: UninterruptedRun): Promise<void> {
  const { row, log } = await showRun(setup);
  expect(row.next).toBe(reference.stoppedAt + 1);
  expect(JSON.parse(row.verdict ?? 'null')).toEqual(reference.verdicts.at(-1));
  // Each step saved exactly once, by the process that got through it; no killed process appears.
  expect(log.map((saved) => saved.step)).toEqual([...Array(reference.stoppedAt + 1).keys()]);
  expect(log.map((saved) => JSON.parse(saved.verdict) as unknown)).toEqual(reference.verdicts);
  const killedPids = new Set(kills.map((kill) => kill.worker.pid));
  expect(log.filter((saved) => killedPids.has(saved.pid))).toEqual([]);

  const saved = JSON.parse(row.snapshot ?? 'null') as GuardSnapshot;
  expect(saved).toEqual(reference.snapshot);
  expect(row.snapshot).toBe(JSON.stringify(reference.snapshot));

  const restored = createGuard(OPTIONS, { snapshot: saved });
  const uninterrupted = runUninterrupted(saved.hashKey).guard;
  expect(restored.snapshot()).toEqual(reference.snapshot);
  expect(restored.summary()).toEqual(uninterrupted.summary());
  expect(restored.history).toEqual(uninterrupted.history);
  // And it goes on the same way: the steps after the stop get the same verdicts.
  for (let step = reference.stoppedAt + 1; step < reference.stoppedAt + 4; step++) {
    expect(restored.peek(scriptedStep(step))).toEqual(uninterrupted.peek(scriptedStep(step)));
    expect(restored.check(scriptedStep(step))).toEqual(uninterrupted.check(scriptedStep(step)));
  }
  expect(restored.snapshot()).toEqual(uninterrupted.snapshot());
}

describe('a durable run on node:sqlite, one process per step, killed between check and save', () => {
  it('the uninterrupted reference stops on the repeated read at step 8, with a budget warning', () => {
    expect(reference.stoppedAt).toBe(8);
    expect(reference.verdicts.at(-1)).toMatchObject({ code: 'REPEATED_TOOL_CALL', warnings: [{ code: 'BUDGET_WARNING' }] });
    expect(reference.verdicts.slice(0, -1).every((verdict) => !verdict.stop)).toBe(true);
  });

  it(
    'a process killed in the middle of the run: the next one resumes from the last save and redoes the step',
    async () => {
      const killAt = [5];
      const result = await durableRun('middle', killAt);
      const reference = await referenceFor(result.setup);
      expectSameAsUninterrupted(result, killAt, reference);
      await expectFinalState(result.setup, result.kills, reference);

      // A process started after the stop finds the run over and changes nothing.
      const late = await runWorker(result.setup, false);
      expect(late.code).toBe(0);
      expect(late.events).toEqual([{ event: 'finished', pid: late.pid, step: reference.stoppedAt, verdict: reference.verdicts.at(-1) }]);
      await expectFinalState(result.setup, result.kills, reference);
    },
    TIMEOUT_MS,
  );

  it(
    'killed at the first step (nothing saved yet) and twice at the step that stops the run',
    async () => {
      const killAt = [0, 8, 8];
      const result = await durableRun('edges', killAt);
      const reference = await referenceFor(result.setup);
      expectSameAsUninterrupted(result, killAt, reference);
      // The killed processes at step 8 had already seen the stop; it was not recorded, so the run went on to redo it.
      for (const kill of result.kills.slice(1)) expect(verdictChecked(kill.worker)).toMatchObject({ stop: true, code: 'REPEATED_TOOL_CALL' });
      await expectFinalState(result.setup, result.kills, reference);
    },
    TIMEOUT_MS,
  );
});
