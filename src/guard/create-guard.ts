import type { Detector, Finding, RunTotals } from '../detectors/detector.js';
import { buildDetectors } from '../detectors/registry.js';
import { resolveOptions, type ResolvedOptions } from '../options/resolve-options.js';
import type { Guard, GuardOptions, GuardStep, GuardSummary, GuardWarning, JsonValue, StopReason, Verdict } from '../types.js';
import { reduceStep } from './reduce-step.js';
import { addStep, emptyTotals } from './run-totals.js';
import { LoadedStepFacts } from './step-facts.js';
import { createStepHistory, type StepHistory } from './step-history.js';
import { verdictOf } from './verdict.js';

/** Everything a guard knows about the run in progress. A new run is a new one of these. */
interface Run {
  readonly detectors: readonly Detector[];
  readonly history: StepHistory;
  readonly totals: RunTotals;
  readonly facts: LoadedStepFacts;
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

function newRun(options: ResolvedOptions): Run {
  const history = createStepHistory(options.historyLimit);
  const totals = emptyTotals();
  const { now } = options;
  const startedAt = readClock(now);
  return {
    detectors: buildDetectors(options),
    history,
    totals,
    facts: new LoadedStepFacts({ history: () => history.forRules(), elapsed: () => readClock(now) - startedAt, totals }),
    steps: 0,
    toolCalls: 0,
    stops: 0,
    lastVerdict: null,
  };
}

/**
 * Creates a guard for one agent run. Options are validated here, once.
 * @param options - detector settings; every detector is on with its defaults unless switched off with `false`
 * @throws TypeError naming the option path when an option is invalid
 * @example
 * const guard = createGuard({ maxSteps: 25, budget: { maxCostUsd: 0.5 } });
 * const verdict = guard.check({ toolCalls: [{ name: 'search', args: { query: 'x' } }] });
 */
export function createGuard(options?: GuardOptions): Guard {
  const resolved = resolveOptions(options);
  let run = newRun(resolved);

  return {
    check(raw: GuardStep): Verdict {
      const reduced = reduceStep(raw);
      const { history, totals } = run;
      const index = run.steps++;
      history.push(reduced.step);
      addStep(totals, reduced.step);
      run.toolCalls += reduced.calls.length;

      const facts = run.facts;
      facts.load(index, reduced);

      // Every detector sees every step so its state stays right; the first stop in priority order wins.
      let reason: StopReason | undefined;
      let finding: Finding | undefined;
      let warnings: GuardWarning[] | undefined;
      for (const detector of run.detectors) {
        const result = detector.check(facts);
        if (result === undefined) continue;
        if (finding === undefined && result.stop !== undefined) {
          reason = detector.kind;
          finding = result.stop;
        }
        if (result.warnings !== undefined) (warnings ??= []).push(...result.warnings);
      }

      const verdict = verdictOf(reason, finding, warnings);
      if (verdict.stop) run.stops++;
      run.lastVerdict = verdict;
      return verdict;
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

    get history(): readonly GuardStep[] {
      return run.history.snapshot();
    },
  };
}
