/**
 * Issue 29's property test: a guard restored in another process, from a snapshot taken at any step of any run with
 * unreadable values in arguments, results and errors, goes on exactly as the guard that never stopped: the same
 * verdicts, and the same snapshot at the end. The other process is a worker of its own (restore-worker.ts), which
 * has handed out placeholders of its own before it restores anything.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuard } from '../../src/index.js';
import { buildStep, CASE_OPTIONS, type CallSpec, type RestoreAnswer, type RestoreRequest, type StepSpec, type ValueSpec } from './restore-case.js';

const WORKER = fileURLToPath(new URL('./restore-worker.ts', import.meta.url));

let worker: ChildProcess;

beforeAll(() => {
  worker = fork(WORKER, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
});

afterAll(() => {
  worker.kill();
});

/** Asks the worker to restore a snapshot and check steps; one request at a time. */
function inWorker(request: RestoreRequest): Promise<RestoreAnswer> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null): void => {
      reject(new Error(`the worker exited with ${String(code)}`));
    };
    worker.once('exit', onExit);
    worker.once('message', (answer) => {
      worker.off('exit', onExit);
      resolve(answer as RestoreAnswer);
    });
    worker.send(request);
  });
}

// Few distinct values, so calls repeat and loops form; an unreadable one in a third of the places.
const value: fc.Arbitrary<ValueSpec> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ unreadable: true } as const) },
  { weight: 2, arbitrary: fc.constantFrom<unknown>({ job: 1 }, { job: 2 }, 'pending', 'done', { status: 'ok' }).map((json) => ({ json })) },
);
const call: fc.Arbitrary<CallSpec> = fc.record(
  { name: fc.constantFrom('poll', 'search', 'read'), args: value, result: value, error: value },
  { requiredKeys: ['name'] },
);
const step: fc.Arbitrary<StepSpec> = fc.record({ calls: fc.array(call, { maxLength: 3 }), text: fc.constantFrom('working', 'still working') }, { requiredKeys: ['calls'] });
const runWithSplit = fc.array(step, { minLength: 1, maxLength: 12 }).chain((steps) => fc.tuple(fc.constant(steps), fc.nat({ max: steps.length })));

/** JSON's copy: what the worker's answer is, after the channel between the processes. */
function asJson(data: unknown): unknown {
  return JSON.parse(JSON.stringify(data));
}

describe('restore in another process (issue 29)', () => {
  it('goes on as the uninterrupted guard, placeholder for placeholder, from any step of any run', async () => {
    await fc.assert(
      fc.asyncProperty(runWithSplit, async ([steps, split]) => {
        // Both start from one new guard's snapshot, so they share its key.
        const start = createGuard(CASE_OPTIONS).snapshot();
        const uninterrupted = createGuard(CASE_OPTIONS, { snapshot: start });
        const verdicts = steps.map((spec, index) => {
          const verdict = uninterrupted.check(buildStep(spec));
          return { verdict, snapshot: index === split - 1 ? uninterrupted.snapshot() : undefined };
        });
        const saved = split === 0 ? start : verdicts[split - 1]?.snapshot;
        const answer = await inWorker({ snapshot: saved, steps: steps.slice(split) });
        expect(answer.verdicts).toEqual(asJson(verdicts.slice(split).map((entry) => entry.verdict)));
        expect(answer.snapshot).toEqual(asJson(uninterrupted.snapshot()));
      }),
      { numRuns: 150, seed: 29 },
    );
  });

  it('holds a case that stopped the uninterrupted guard of the version before: a poll answered unreadably', async () => {
    const steps: StepSpec[] = Array.from({ length: 6 }, () => ({ calls: [{ name: 'poll', args: { json: { job: 1 } }, result: { unreadable: true } }] }));
    const start = createGuard(CASE_OPTIONS).snapshot();
    const guard = createGuard(CASE_OPTIONS, { snapshot: start });
    guard.check(buildStep(steps[0] ?? { calls: [] }));
    const answer = await inWorker({ snapshot: guard.snapshot(), steps: steps.slice(1) });
    expect(answer.verdicts).toEqual(Array.from({ length: 5 }, () => ({ stop: false })));
  });
});
