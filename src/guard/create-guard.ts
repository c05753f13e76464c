import type { Detector, Finding, RunTotals } from '../detectors/detector.js';
import { createHashKey, type HashKey } from '../canonical/hash-key.js';
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
  GuardToolCall,
  GuardWarning,
  CallVerdict,
  JsonValue,
  RestoreOptions,
  StopReason,
  Verdict,
} from '../types.js';
import { printable } from './printable.js';
import { safeArray, safeRead } from './safe-read.js';
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
  /**
   * The secret key of the run's comparisons: tool output cannot be built to look like other output without it. Saved
   * in snapshots, so a restored guard compares as the one that saved it.
   */
  readonly hashKey: HashKey;
  /** The facts of the step being checked, loaded anew for each step. */
  readonly facts: LoadedStepFacts;
  /** The facts of a step being peeked at: totals of their own, so a peek changes none of the run's. */
  readonly peekFacts: LoadedStepFacts;
  steps: number;
  toolCalls: number;
  stops: number;
  lastVerdict: Verdict | null;
  /** A call the guard would refuse was refused in an earlier step: asking for one again stops the run. */
  blockedBefore: boolean;
}

/**
 * The clock's reading, or 0 when it throws or reads something that is not a finite number: `check` never throws
 * because of a clock, and a snapshot can always hold the reading.
 */
function readClock(now: () => number): number {
  try {
    const time = now();
    return Number.isFinite(time) ? time : 0;
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
  const hashKey = restored?.hashKey ?? createHashKey();
  return {
    detectors: buildDetectors(options, hashKey, restored?.detectors),
    history,
    sums,
    totals,
    startedAt,
    hashKey,
    facts: new LoadedStepFacts({ history: rules, elapsed, totals, hashKey }),
    peekFacts: new LoadedStepFacts({ history: rules, elapsed, totals: peekTotals, hashKey }),
    steps: restored?.steps ?? 0,
    toolCalls: restored?.toolCalls ?? 0,
    stops: restored?.stops ?? 0,
    lastVerdict: restored?.lastVerdict ?? null,
    blockedBefore: restored?.blockedBefore ?? false,
  };
}

/**
 * What the detectors that can judge a call before it runs say of a step of calls that has not run: the first stop in
 * priority order, as a refusal.
 */
function judgeCalls(run: Run, calls: readonly GuardToolCall[], index: number): CallVerdict {
  // Name and arguments only: whatever else a caller passed says nothing before the call runs.
  const asked = { toolCalls: calls.map((call) => ({ name: safeRead(call, 'name'), args: safeRead(call, 'args') })) };
  const reduced = reduceStep(asked, run.hashKey, index);
  run.peekFacts.load(index, reduced);
  for (const detector of run.detectors) {
    if (!detector.judgesCalls) continue;
    const finding = detector.check(run.peekFacts, false)?.stop;
    if (finding === undefined) continue;
    const { code, detail, evidence, message = detail } = finding;
    return { block: true, reason: detector.kind, code, detail: printable(detail), message, evidence } as CallVerdict;
  }
  return { block: false };
}

/**
 * A step's refused calls, judged after its calls that ran: when the guard would refuse one too, and one was refused
 * in an earlier step, the model persisted, and the refusal becomes a stop.
 */
function persisted(run: Run, reduced: ReducedStep, record: boolean): CallVerdict | undefined {
  // Recorded, the step's calls that ran are part of the state; in a peek they are not, so they go first.
  const ran = record ? [] : (reduced.step.toolCalls ?? []).filter((call) => call.blocked !== true);
  const index = record ? run.steps - 1 : run.steps;
  for (const call of reduced.blockedCalls) {
    const refusal = judgeCalls(run, [...ran, call], index);
    if (!refusal.block) continue;
    if (run.blockedBefore) return refusal;
    if (record) run.blockedBefore = true;
    return undefined;
  }
  return undefined;
}

/** A verdict that did not stop becomes the refusal's stop when the model persisted. */
function afterRefusals(verdict: Verdict, refusal: CallVerdict | undefined): Verdict {
  if (verdict.stop || refusal?.block !== true) return verdict;
  const { reason, code, detail, evidence } = refusal;
  return verdictOf(reason, { code, detail, evidence }, verdict.warnings);
}

/** Runs every detector over loaded facts; the first stop in priority order wins, every warning is kept. */
function judge(run: Run, facts: LoadedStepFacts, reduced: ReducedStep, record: boolean): Verdict {
  let reason: StopReason | undefined;
  let finding: Finding | undefined;
  let warnings: GuardWarning[] | undefined = reduced.warnings === undefined ? undefined : [...reduced.warnings];
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
 * A guard. Its methods are own properties bound to it, so they can be passed around alone (`steps.map(guard.check)`);
 * `history` is a getter on the class, shared by every guard: a getter defined per guard, in an object literal, gave
 * each guard a hidden class of its own and made creating one several times slower.
 */
class LoopGuard implements Guard {
  readonly #resolved: ResolvedOptions;
  // Worked out when a snapshot is first taken: two dozen hashes that a guard never snapshotted does not need.
  #fingerprint: Readonly<Record<string, string>> | undefined;
  #run: Run;

  constructor(resolved: ResolvedOptions, restore: RestoreOptions | undefined) {
    this.#resolved = resolved;
    this.#run = newRun(resolved, restore?.snapshot);
  }

  readonly check = (raw: GuardStep): Verdict => {
    const run = this.#run;
    const index = run.steps++;
    const reduced = reduceStep(raw, run.hashKey, index);
    const { history, totals, facts } = run;
    history.push(reduced.step);
    addStep(run.sums, totals, reduced.step);
    run.toolCalls += reduced.calls.length;
    facts.load(index, reduced);
    const verdict = afterRefusals(judge(run, facts, reduced, true), persisted(run, reduced, true));
    if (verdict.stop) run.stops++;
    run.lastVerdict = verdict;
    return verdict;
  };

  readonly peek = (raw: GuardStep): Verdict => {
    const run = this.#run;
    const reduced: ReducedStep = reduceStep(raw, run.hashKey, run.steps);
    const { peekFacts } = run;
    addStep(copySums(run.sums), peekFacts.totals, reduced.step);
    peekFacts.load(run.steps, reduced);
    // Custom rules see the step last in their history, as in a check; it is taken back out whatever they do.
    const takeBack = run.history.push(reduced.step);
    try {
      const verdict = judge(run, peekFacts, reduced, false);
      return verdict.stop ? verdict : afterRefusals(verdict, persisted(run, reduced, false));
    } finally {
      takeBack();
    }
  };

  readonly judgeCall = (call: GuardToolCall, earlier: readonly GuardToolCall[] = []): CallVerdict => {
    const run = this.#run;
    const before = safeArray(earlier) as readonly GuardToolCall[];
    const withCall = judgeCalls(run, [...before, call], run.steps);
    if (!withCall.block || before.length === 0) return withCall;
    // The earlier calls may complete a loop on their own; the call is refused only when it carries the loop further.
    const without = judgeCalls(run, before, run.steps);
    return without.block && JSON.stringify(without.evidence) === JSON.stringify(withCall.evidence) ? { block: false } : withCall;
  };

  readonly reset = (): void => {
    this.#run = newRun(this.#resolved);
  };

  readonly summary = (): GuardSummary => {
    const run = this.#run;
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
  };

  readonly snapshot = (): GuardSnapshot => {
    const run = this.#run;
    const detectors: Record<string, unknown> = {};
    for (const detector of run.detectors) detectors[detector.kind] = detector.save();
    const snapshot = {
      version: 1,
      options: (this.#fingerprint ??= optionsFingerprint(this.#resolved)),
      steps: run.steps,
      toolCalls: run.toolCalls,
      stops: run.stops,
      lastVerdict: run.lastVerdict,
      blockedBefore: run.blockedBefore,
      totals: run.totals,
      // The exact totals, as decimal text: the doubles alone would lose what a later step may need.
      sums: Object.fromEntries(TOTAL_NAMES.map((name) => [name, run.sums[name].save()])),
      startedAt: run.startedAt,
      hashKey: run.hashKey,
      history: run.history.snapshot().map((step) => toPlainJson(step)),
      detectors,
    };
    // A copy through JSON: plain data, sharing nothing with the guard, which goes on changing.
    return JSON.parse(JSON.stringify(snapshot)) as GuardSnapshot;
  };

  get history(): readonly GuardStep[] {
    return this.#run.history.snapshot();
  }
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
  return new LoopGuard(resolveOptions(options), restore);
}
