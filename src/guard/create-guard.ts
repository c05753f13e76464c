import type { Detector, Finding, RunTotals } from '../detectors/detector.js';
import { buildDetectors } from '../detectors/registry.js';
import { resolveOptions, type ResolvedOptions } from '../options/resolve-options.js';
import { optionsFingerprint } from '../snapshot/fingerprint.js';
import { readSnapshot } from '../snapshot/read-snapshot.js';
import type {
  Guard,
  GuardOptions,
  GuardSnapshot,
  GuardStep,
  GuardSummary,
  GuardWarning,
  JsonValue,
  RestoreOptions,
  StopReason,
  Verdict,
} from '../types.js';
import { toolCallLimitWarning } from './input-limit-warning.js';
import { toPlainJson } from './plain-json.js';
import { reduceStep, type ReducedStep } from './reduce-step.js';
import { addStep, copySums, emptySums, TOTAL_NAMES, type RunSums } from './run-totals.js';
import { LoadedStepFacts } from './step-facts.js';
import { createStepHistory, type StepHistory } from './step-history.js';
import { verdictOf } from './verdict.js';

/** Everything a guard knows about the run in progress. A new run is a new one of these. */
interface Run {
  readonly detectors: readonly Detector[];
  readonly history: StepHistory;
  /** The totals, exact; `totals` holds the doubles nearest to them, which detectors and summaries read. */
  readonly sums: RunSums;
  readonly totals: RunTotals;
  readonly startedAt: number;
  /** The facts of the step being checked, loaded anew for each step. */
  readonly facts: LoadedStepFacts;
  /** The facts of a step being peeked at: totals of their own, so a peek changes none of the run's. */
  readonly peekFacts: LoadedStepFacts;
  steps: number;
  toolCalls: number;
  stops: number;
  lastVerdict: Verdict | null;
}

/** The clock's reading, or 0 when it throws: `check` never throws because of a clock. */
function readClock(now: () => number): number {
  try {
    return now();
  } catch {
    return 0;
  }
}

function totalsOf(sums: RunSums): RunTotals {
  return {
    inputTokens: sums.inputTokens.value,
    outputTokens: sums.outputTokens.value,
    totalTokens: sums.totalTokens.value,
    costUsd: sums.costUsd.value,
    durationMs: sums.durationMs.value,
  };
}

function newRun(options: ResolvedOptions, saved?: unknown): Run {
  const restored = saved === undefined ? undefined : readSnapshot(saved, options);
  const history = createStepHistory(options.historyLimit, restored?.history);
  const sums = restored?.sums ?? emptySums();
  const totals = totalsOf(sums);
  const peekTotals = totalsOf(sums);
  const { now } = options;
  const startedAt = restored?.startedAt ?? readClock(now);
  const elapsed = (): number => readClock(now) - startedAt;
  const rules = (): readonly GuardStep[] => history.forRules();
  return {
    detectors: buildDetectors(options, restored?.detectors),
    history,
    sums,
    totals,
    startedAt,
    facts: new LoadedStepFacts({ history: rules, elapsed, totals }),
    peekFacts: new LoadedStepFacts({ history: rules, elapsed, totals: peekTotals }),
    steps: restored?.steps ?? 0,
    toolCalls: restored?.toolCalls ?? 0,
    stops: restored?.stops ?? 0,
    lastVerdict: restored?.lastVerdict ?? null,
  };
}

/** Runs every detector over loaded facts; the first stop in priority order wins, every warning is kept. */
function judge(run: Run, facts: LoadedStepFacts, reduced: ReducedStep, record: boolean): Verdict {
  let reason: StopReason | undefined;
  let finding: Finding | undefined;
  let warnings: GuardWarning[] | undefined = reduced.unreadCalls === undefined ? undefined : [toolCallLimitWarning(reduced.unreadCalls)];
  // Every detector sees every step so its state stays right.
  for (const detector of run.detectors) {
    const result = detector.check(facts, record);
    if (result === undefined) continue;
    if (finding === undefined && result.stop !== undefined) {
      reason = detector.kind;
      finding = result.stop;
    }
    if (result.warnings !== undefined) (warnings ??= []).push(...result.warnings);
  }
  return verdictOf(reason, finding, warnings);
}

/**
 * Creates a guard for one agent run, or restores one from a snapshot. Options are validated here, once.
 * @param options - detector settings; every detector is on with its defaults unless switched off with `false`
 * @param restore - `{ snapshot }` to go on from what `guard.snapshot()` returned, under the same options
 * @throws TypeError naming the option path when an option is invalid, or the snapshot field or differing option when
 *   a snapshot is refused
 * @example
 * const guard = createGuard({ maxSteps: 25, budget: { maxCostUsd: 0.5 } });
 * const verdict = guard.check({ toolCalls: [{ name: 'search', args: { query: 'x' } }] });
 */
export function createGuard(options?: GuardOptions, restore?: RestoreOptions): Guard {
  const resolved = resolveOptions(options);
  const fingerprint = optionsFingerprint(resolved);
  let run = newRun(resolved, restore?.snapshot);

  return {
    check(raw: GuardStep): Verdict {
      const reduced = reduceStep(raw);
      const { history, totals, facts } = run;
      const index = run.steps++;
      history.push(reduced.step);
      addStep(run.sums, totals, reduced.step);
      run.toolCalls += reduced.calls.length;
      facts.load(index, reduced);
      const verdict = judge(run, facts, reduced, true);
      if (verdict.stop) run.stops++;
      run.lastVerdict = verdict;
      return verdict;
    },

    peek(raw: GuardStep): Verdict {
      const reduced: ReducedStep = reduceStep(raw);
      const { peekFacts } = run;
      addStep(copySums(run.sums), peekFacts.totals, reduced.step);
      peekFacts.load(run.steps, reduced);
      // Custom rules see the step last in their history, as in a check; it is taken back out whatever they do.
      const takeBack = run.history.push(reduced.step);
      try {
        return judge(run, peekFacts, reduced, false);
      } finally {
        takeBack();
      }
    },

    reset(): void {
      run = newRun(resolved);
    },

    summary(): GuardSummary {
      const detectors: Record<string, JsonValue> = {};
      for (const detector of run.detectors) detectors[detector.kind] = detector.state(run);
      return {
        steps: run.steps,
        toolCalls: run.toolCalls,
        stops: run.stops,
        lastVerdict: run.lastVerdict,
        totals: { ...run.totals },
        detectors,
      };
    },

    snapshot(): GuardSnapshot {
      const detectors: Record<string, unknown> = {};
      for (const detector of run.detectors) detectors[detector.kind] = detector.save();
      const snapshot = {
        version: 1,
        options: fingerprint,
        steps: run.steps,
        toolCalls: run.toolCalls,
        stops: run.stops,
        lastVerdict: run.lastVerdict,
        totals: run.totals,
        // The exact totals, as decimal text: the doubles alone would lose what a later step may need.
        sums: Object.fromEntries(TOTAL_NAMES.map((name) => [name, run.sums[name].save()])),
        startedAt: run.startedAt,
        history: run.history.snapshot().map((step) => toPlainJson(step)),
        detectors,
      };
      // A copy through JSON: plain data, sharing nothing with the guard, which goes on changing.
      return JSON.parse(JSON.stringify(snapshot)) as GuardSnapshot;
    },

    get history(): readonly GuardStep[] {
      return run.history.snapshot();
    },
  };
}
