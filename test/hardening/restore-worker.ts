/**
 * The worker process of restore-in-worker.test.ts: for each request, a guard restored from the snapshot it names
 * checks the steps it describes, and the verdicts and the final snapshot go back. Run with `--import tsx`.
 */
import { canonicalize, createGuard, type GuardSnapshot } from '../../src/index.js';
import { buildStep, CASE_OPTIONS, type RestoreAnswer, type RestoreRequest } from './restore-case.js';

// Placeholders handed out here before any restore: a process whose own count has moved on must still agree.
for (let index = 0; index < 100; index++) canonicalize(buildStep({ calls: [{ name: 'x', args: { unreadable: true } }] }));

process.on('message', (request: RestoreRequest) => {
  const guard = createGuard(CASE_OPTIONS, { snapshot: request.snapshot as GuardSnapshot });
  const verdicts = request.steps.map((step) => guard.check(buildStep(step)));
  const answer: RestoreAnswer = { verdicts, snapshot: guard.snapshot() };
  process.send?.(answer);
});
