/**
 * The simulated agent of the durable example, shared by the driver, the one-step worker and the test: the guard's
 * options and a scripted coding agent. Offline and deterministic: step N is always the same step, in any process, so
 * a step that is run again after a crash is the same step (a real agent would call its model again).
 */
import { createGuard, type Guard, type GuardOptions, type GuardSnapshot, type GuardStep, type Verdict } from '../../src/index.js';

/**
 * The guard's options, the same in every process: a snapshot is refused under other options. Every built-in detector
 * is on with its defaults, plus a token budget with an early warning, a custom rule and a bounded history.
 */
export const OPTIONS: GuardOptions = {
  maxSteps: 30,
  budget: { maxTotalTokens: { limit: 40_000, warnAt: 0.5 }, maxCostUsd: 0.25 },
  // A custom rule reads the history it is given, which after a restore is the restored history.
  custom: (history) => {
    const testRuns = history.filter((step) => step.toolCalls?.some((call) => call.name === 'run_tests') === true).length;
    return testRuns > 4 ? { stop: true, code: 'TOO_MANY_TEST_RUNS', detail: `The tests ran ${String(testRuns)} times.` } : undefined;
  },
  historyLimit: 20,
  // The demo freezes the clock so an interrupted run can be compared with an uninterrupted one field by field,
  // `startedAt` included. A real worker keeps the default `Date.now`: `startedAt` survives every restart.
  now: () => 0,
};

interface ScriptedCall {
  readonly say: string;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly result: unknown;
}

/** What the agent does at each step: a few varied calls, then it gets stuck re-reading the same file. */
const SCRIPT: readonly ScriptedCall[] = [
  { say: 'Let me see the project layout.', name: 'list_files', args: { dir: 'src' }, result: ['date.ts', 'index.ts'] },
  { say: 'Where is the date parsing?', name: 'search', args: { query: 'parseDate' }, result: { hits: ['src/date.ts:12'] } },
  { say: 'Reading the parser.', name: 'read_file', args: { path: 'src/date.ts' }, result: 'export function parseDate(s) { ... }' },
  { say: 'And its tests.', name: 'read_file', args: { path: 'test/date.test.ts' }, result: "it('parses ISO dates', ...)" },
  { say: 'Fixing the time zone handling.', name: 'edit_file', args: { path: 'src/date.ts', line: 14 }, result: { ok: true } },
  { say: 'Running the tests.', name: 'run_tests', args: { filter: 'date' }, result: { passed: 11, failed: 1 } },
  { say: 'One failure. Let me look at the parser again.', name: 'read_file', args: { path: 'src/date.ts' }, result: 'export function parseDate(s) { /* fixed */ }' },
  { say: 'Reading it once more, to be sure.', name: 'read_file', args: { path: 'src/date.ts' }, result: 'export function parseDate(s) { /* fixed */ }' },
  { say: 'Let me read the parser again.', name: 'read_file', args: { path: 'src/date.ts' }, result: 'export function parseDate(s) { /* fixed */ }' },
];

/**
 * Step `index` of the scripted agent: in a real worker, "ask the model, run the tools it asked for". Past the script
 * the agent keeps re-reading the same file (the guard stops it long before that).
 */
export function scriptedStep(index: number): GuardStep {
  const call = SCRIPT[Math.min(Math.max(index, 0), SCRIPT.length - 1)];
  if (call === undefined) throw new RangeError(`no step ${String(index)}`);
  return {
    text: call.say,
    finishReason: 'tool-calls',
    toolCalls: [{ name: call.name, args: call.args, result: call.result }],
    usage: { inputTokens: 1_500 + 400 * index, outputTokens: 120 + 7 * index, costUsd: 0.0061 + 0.0003 * index },
    durationMs: 800 + 35 * index,
  };
}

/** How the agent runs without interruption, in this process: one guard, every step, up to the first stop. */
export interface UninterruptedRun {
  /** The verdict of every step, in order; the last one says stop. */
  readonly verdicts: readonly Verdict[];
  /** The guard's snapshot after each step: `snapshots[n]` is the state once steps 0 to n are checked. */
  readonly snapshots: readonly GuardSnapshot[];
  /** The index of the step that stopped the run. */
  readonly stoppedAt: number;
  /** The guard's snapshot at the end. */
  readonly snapshot: GuardSnapshot;
  /** The guard itself, to compare a restored one with. */
  readonly guard: Guard;
}

/**
 * Runs the scripted agent through one guard, never interrupted.
 * @param hashKey - the secret key a durable run's guard compares with (its snapshots' `hashKey`): with it, this
 *   guard's snapshots equal the durable run's field by field. Each new guard draws a key of its own.
 * @param maxSteps - how far to go at most
 */
export function runUninterrupted(hashKey?: string, maxSteps = 100): UninterruptedRun {
  // A snapshot is plain JSON: a new guard's, with the durable run's key, is where that run started.
  const start = hashKey === undefined ? undefined : { snapshot: { ...createGuard(OPTIONS).snapshot(), hashKey } };
  const guard = createGuard(OPTIONS, start);
  const verdicts: Verdict[] = [];
  const snapshots: GuardSnapshot[] = [];
  for (let index = 0; index < maxSteps; index++) {
    const verdict = guard.check(scriptedStep(index));
    verdicts.push(verdict);
    snapshots.push(guard.snapshot());
    if (verdict.stop) return { verdicts, snapshots, stoppedAt: index, snapshot: guard.snapshot(), guard };
  }
  throw new Error(`the scripted agent was not stopped within ${String(maxSteps)} steps`);
}
