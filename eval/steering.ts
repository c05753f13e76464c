/**
 * Steering, replayed: the loop warnings a run's model would have been shown, and the tool calls `judgeCall` would
 * have refused before they ran.
 */
import type { RecordedRun } from '../src/cli/read-runs.js';
import { labelRun, type RunLabel } from '../src/cli/replay.js';
import { createGuard, loopWarnings, type GuardOptions, type GuardToolCall } from '../src/index.js';

/** What steering would have done in one recorded run. */
export interface RunSteering {
  readonly label: RunLabel | null;
  /** `LOOP_WARNING`s on the verdicts that let the run go on, before its last step. */
  readonly warnings: number;
  /** Tool calls judged: those of every step up to the stop (the stopping step included), or of the whole run. */
  readonly calls: number;
  /** Of those, the calls `judgeCall` would have refused. */
  readonly refusedCalls: number;
}

function toolCallsOf(step: unknown): readonly GuardToolCall[] {
  const calls = (step as { toolCalls?: unknown }).toolCalls;
  return Array.isArray(calls) ? (calls as GuardToolCall[]) : [];
}

/**
 * How refused calls reach `check`: `'recorded'` passes the step as recorded, as if the refused call had run anyway
 * (so the loop it completes stops the run there); `'blocked'` marks them `blocked: true`, as the steering adapters
 * do, so they leave the call sequence and the run goes on until the model asks for a refused call again.
 */
export type RefusalMode = 'recorded' | 'blocked';

/**
 * Replays a run through a fresh guard and counts what steering would have done. Before each step is checked, each of
 * its tool calls is judged by name and arguments, after the step's earlier calls that were not refused (as the AI SDK
 * adapter's tool approval does). The run's steps are replayed as recorded: a real model would have read the refusal
 * and done something else, so everything after a run's first refusal is hypothetical.
 * @param run - the recorded run
 * @param options - the guard's options
 * @param stuckStatus - exit statuses of stuck runs, for the run's label
 * @param mode - how refused calls reach `check` (see {@link RefusalMode})
 */
export function steerRun(run: RecordedRun, options: GuardOptions, stuckStatus: RegExp, mode: RefusalMode = 'recorded'): RunSteering {
  const guard = createGuard({ ...options, now: () => 0 });
  const last = run.steps.length - 1;
  let warnings = 0;
  let calls = 0;
  let refusedCalls = 0;
  for (const [index, step] of run.steps.entries()) {
    const allowed: GuardToolCall[] = [];
    const judged = toolCallsOf(step).map((call) => {
      calls++;
      const refused = guard.judgeCall({ name: call.name, args: call.args }, allowed).block;
      if (refused) refusedCalls++;
      else allowed.push(call);
      return refused && mode === 'blocked' ? { ...call, blocked: true } : call;
    });
    const verdict = guard.check(mode === 'blocked' && judged.length > 0 ? { ...step, toolCalls: judged } : step);
    if (verdict.stop) break;
    if (index < last) warnings += loopWarnings(verdict).length;
  }
  return { label: labelRun(run.outcome, stuckStatus), warnings, calls, refusedCalls };
}

/** Steering totals over the runs of one label. */
export interface LabelSteering {
  runs: number;
  /** Runs with at least one warning before their last step. */
  runsWarned: number;
  warnings: number;
  /** Runs with at least one refused call. */
  runsRefused: number;
  refusedCalls: number;
  calls: number;
}

/** Steering totals of a set of runs, per label. */
export interface SteeringTotals {
  readonly healthy: LabelSteering;
  readonly stuck: LabelSteering;
  readonly ambiguous: LabelSteering;
}

/** All zero. */
export function emptySteering(): SteeringTotals {
  const zero = (): LabelSteering => ({ runs: 0, runsWarned: 0, warnings: 0, runsRefused: 0, refusedCalls: 0, calls: 0 });
  return { healthy: zero(), stuck: zero(), ambiguous: zero() };
}

/**
 * Adds one run's steering to the totals of its label (runs without a label are left out).
 * @param totals - changed in place
 * @param run - what {@link steerRun} gave
 */
export function addSteering(totals: SteeringTotals, run: RunSteering): SteeringTotals {
  if (run.label === null) return totals;
  const into = totals[run.label];
  into.runs++;
  if (run.warnings > 0) into.runsWarned++;
  into.warnings += run.warnings;
  if (run.refusedCalls > 0) into.runsRefused++;
  into.refusedCalls += run.refusedCalls;
  into.calls += run.calls;
  return totals;
}

/** The sum of several totals, label by label. */
export function sumSteering(parts: readonly SteeringTotals[]): SteeringTotals {
  const sum = emptySteering();
  for (const part of parts) {
    for (const label of ['healthy', 'stuck', 'ambiguous'] as const) {
      for (const key of Object.keys(sum[label]) as (keyof LabelSteering)[]) sum[label][key] += part[label][key];
    }
  }
  return sum;
}
