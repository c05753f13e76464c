import { UnreadableNumbering } from '../canonical/form.js';
import { createHashKey, type HashKey, keyedHash, type TextHash } from '../canonical/hash.js';
import { toPlainJson } from '../canonical/plain-json.js';
import { roundFigure } from '../detectors/budget.js';
import type { Finding, RunTotals } from '../detectors/detector.js';
import { DETECTORS } from '../detectors/registry.js';
import type {
  CallScreen,
  CallVerdict,
  Guard,
  GuardOptions,
  GuardSnapshot,
  GuardStep,
  GuardSummary,
  GuardToolCall,
  GuardWarning,
  JsonValue,
  RestoreOptions,
  StopReason,
  Verdict,
} from '../types.js';
import { safeArray, safeRead } from '../utils/read.js';
import { printable } from '../utils/text.js';
import { argumentError, isRecord, savedError } from '../utils/validate.js';
import { History } from './history.js';
import { type EnabledDetector, optionsFingerprint, resolveOptions, type ResolvedOptions } from './options.js';
import { addUsage, type ReadStep, readStep } from './read-step.js';
import type { ToolRules } from './tools.js';
import { RunMemory } from './run-memory.js';
import { Facts, type FactsContext } from './step-facts.js';
import { type ClockKind, readSnapshot, SNAPSHOT_VERSION } from './snapshot.js';
import { verdictOf } from './verdict.js';

/** A detector that is on, with its state in the run so far. */
interface Slot extends EnabledDetector {
  state: unknown;
}

/** Everything a guard knows about the run in progress. A new run is a new one of these. */
interface Run {
  readonly slots: readonly Slot[];
  readonly history: History;
  totals: RunTotals;
  readonly startedAt: number;
  /**
   * The secret key of the run's comparisons: tool output cannot be built to look like other output without it. Saved
   * in snapshots, so a restored guard compares as the one that saved it.
   */
  readonly hashKey: HashKey;
  readonly hash: TextHash;
  /** The call outcomes the run has seen, and the answers detectors asked it to remember. */
  readonly outcomes: RunMemory;
  readonly answers: RunMemory;
  steps: number;
  toolCalls: number;
  stops: number;
  lastVerdict: Verdict | null;
  /** A call the guard would refuse was refused in an earlier step: asking for one again stops the run. */
  blockedBefore: boolean;
  /** The fields the run's steps had in a shape the guard does not read, warned of once each. */
  readonly warnedFields: Set<string>;
}

/** The clock's reading, or 0 when it throws or reads something that is not a finite number. */
function readClock(now: () => number): number {
  try {
    const time = now();
    return Number.isFinite(time) ? time : 0;
  } catch {
    return 0;
  }
}

/**
 * When a restored run started, on the restoring guard's clock. Two guards on `Date.now` share one clock, so the run
 * keeps its start (time between processes counts, as on any wall clock). Any other pair may not (a frozen clock, or
 * `performance.now`, whose zero is each process's own): the run goes on from the time it had run when saved.
 */
function startOf(restored: { readonly startedAt: number; readonly clock: ClockKind; readonly elapsedMs: number }, now: () => number): number {
  return restored.clock === 'Date.now' && now === Date.now ? restored.startedAt : readClock(now) - restored.elapsedMs;
}

function newRun(options: ResolvedOptions, saved?: unknown): Run {
  const restored = saved === undefined ? undefined : readSnapshot(saved, options);
  const slots = options.detectors.map(({ detector, options: settings }): Slot => {
    if (restored === undefined) return { detector, options: settings, state: detector.start(settings) };
    const path = `detectors.${detector.kind}`;
    if (!Object.hasOwn(restored.detectors, detector.kind)) savedError(path, "an enabled detector's saved state", undefined);
    const run = { steps: restored.steps, toolCalls: restored.toolCalls };
    return { detector, options: settings, state: detector.restore(restored.detectors[detector.kind], settings, path, run) };
  });
  const hashKey = restored?.hashKey ?? createHashKey();
  return {
    slots,
    history: new History(options.historyLimit, restored?.history),
    totals: restored?.totals ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0, durationMs: 0 },
    startedAt: restored === undefined ? readClock(options.now) : startOf(restored, options.now),
    hashKey,
    hash: keyedHash(hashKey),
    outcomes: restored?.outcomes ?? new RunMemory(options.historyLimit),
    answers: restored?.answers ?? new RunMemory(options.historyLimit),
    steps: restored?.steps ?? 0,
    toolCalls: restored?.toolCalls ?? 0,
    stops: restored?.stops ?? 0,
    lastVerdict: restored?.lastVerdict ?? null,
    blockedBefore: restored?.blockedBefore ?? false,
    warnedFields: new Set(restored?.warnedFields),
  };
}

/** The totals after a step. */
function addStep(totals: RunTotals, step: GuardStep): RunTotals {
  const next = { ...totals, durationMs: roundFigure(totals.durationMs + (step.durationMs ?? 0)) };
  if (step.usage !== undefined) addUsage(next, step.usage);
  return next;
}

/** What the facts of the run's steps read from the run. */
function contextOf(run: Run, now: () => number): FactsContext {
  return {
    hash: run.hash,
    history: () => run.history.forRules(),
    elapsedMs: () => readClock(now) - run.startedAt,
    outcomes: run.outcomes,
    answers: run.answers,
  };
}

/**
 * Runs every detector over a step's facts; the first stop in priority order wins, every warning is kept. Fields in
 * another shape are warned of once per run: recorded on a check, not on a peek.
 */
function judge(run: Run, facts: Facts, read: ReadStep, record: boolean): Verdict {
  let reason: StopReason | undefined;
  let finding: Finding | undefined;
  const warnings: GuardWarning[] = [...(read.warnings ?? [])];
  for (const warning of read.shapes) {
    if (run.warnedFields.has(warning.field)) continue;
    warnings.push(warning);
    if (record) run.warnedFields.add(warning.field);
  }
  // Every detector sees every step, so its state stays right.
  for (const slot of run.slots) {
    const judgement = slot.detector.check(slot.state, facts, slot.options);
    if (record) {
      slot.state = judgement.state;
      if (judgement.remember !== undefined) run.answers.record(facts.index, judgement.remember);
    }
    if (finding === undefined && judgement.stop !== undefined) {
      reason = slot.detector.kind;
      finding = judgement.stop;
    }
    if (judgement.warnings !== undefined) warnings.push(...judgement.warnings);
  }
  if (record && facts.outcomesAsked && facts.calls.length > 0) run.outcomes.record(facts.index, facts.calls.map((call) => call.outcome));
  return verdictOf(reason, finding, warnings.length === 0 ? undefined : warnings);
}

/** The guard's state, with what it needs to read and judge steps. */
interface Judged {
  readonly run: Run;
  readonly now: () => number;
  readonly tools: ToolRules;
}

/**
 * What the detectors that can judge a call before it runs say of calls that have not run, from the given states of the
 * run's detectors: the first stop in priority order, as a refusal, and the states after the calls.
 */
function judgeCalls(
  { run, now, tools }: Judged,
  calls: readonly GuardToolCall[],
  index: number,
  states: readonly unknown[] = run.slots.map((slot) => slot.state),
  unreadable?: UnreadableNumbering,
): { verdict: CallVerdict; states: unknown[] } {
  // Name and arguments only: whatever else a caller passed says nothing before the call runs.
  const asked = { toolCalls: calls.map((call) => ({ name: safeRead(call, 'name'), args: safeRead(call, 'args') })) };
  const read = readStep(asked, run.hash, index, tools, unreadable);
  const facts = new Facts(read, index, run.totals, contextOf(run, now), true);
  const after = [...states];
  let verdict: CallVerdict = { block: false };
  run.slots.forEach((slot, position) => {
    if (!slot.detector.judgesCalls(slot.options)) return;
    const judgement = slot.detector.check(states[position], facts, slot.options);
    after[position] = judgement.state;
    if (verdict.block || judgement.stop === undefined) return;
    // The message goes to the model; a detector that wrote none gets one that quotes nothing a tool or model wrote.
    const { code, detail, evidence, message = 'Not run: this call would carry on a loop. Try a different approach, or answer with what you have.' } = judgement.stop;
    verdict = { block: true, reason: slot.detector.kind, code, detail: printable(detail), message, evidence } as CallVerdict;
  });
  return { verdict, states: after };
}

/**
 * A step's refused calls, judged after its calls that ran: when the guard would refuse one too, and one was refused in
 * an earlier step, the model persisted, and the refusal becomes a stop.
 */
function persisted(judged: Judged, read: ReadStep, record: boolean): CallVerdict | undefined {
  const { run } = judged;
  // Recorded, the step's calls that ran are part of the state; in a peek they are not, so they go first.
  const ran = record ? [] : (read.step.toolCalls ?? []).filter((call) => call.blocked !== true);
  const index = record ? run.steps - 1 : run.steps;
  for (const call of read.blockedCalls) {
    const refusal = judgeCalls(judged, [...ran, call], index).verdict;
    if (!refusal.block) continue;
    if (run.blockedBefore) return refusal;
    if (record) run.blockedBefore = true;
    return undefined;
  }
  return undefined;
}

/** A verdict that did not stop becomes the refusal's stop when the model persisted. */
function afterRefusals(verdict: Verdict, refusal: CallVerdict | undefined, slots: readonly Slot[]): Verdict {
  if (refusal?.block !== true) return verdict;
  // A stop of a detector that comes later in priority gives way: the model that asks again for a refused repeat is
  // stopped as a repeat however else its step reads (a step whose only call was refused brings nothing new, too).
  const rank = (reason: string): number => slots.findIndex((slot) => slot.detector.kind === reason);
  if (verdict.stop && rank(verdict.reason) <= rank(refusal.reason)) return verdict;
  const { reason, code, detail, evidence } = refusal;
  return verdictOf(reason, { code, detail, evidence }, verdict.warnings);
}

/**
 * A guard. Its methods are own properties bound to it, so they can be passed around alone (`steps.map(guard.check)`).
 */
class LoopGuard implements Guard {
  readonly #options: ResolvedOptions;
  #run: Run;

  constructor(options: ResolvedOptions, snapshot: unknown) {
    this.#options = options;
    this.#run = newRun(options, snapshot);
  }

  #context(run: Run): FactsContext {
    return contextOf(run, this.#options.now);
  }

  get #judged(): Judged {
    return { run: this.#run, now: this.#options.now, tools: this.#options.tools };
  }

  readonly check = (raw: GuardStep): Verdict => {
    if (!isRecord(raw)) argumentError('check takes a step, an object such as { toolCalls, text, finishReason, usage }', raw);
    const run = this.#run;
    const index = run.steps++;
    const read = readStep(raw, run.hash, index, this.#options.tools);
    run.history.push(read.step);
    run.totals = addStep(run.totals, read.step);
    run.toolCalls += read.calls.length;
    const facts = new Facts(read, index, run.totals, this.#context(run));
    const verdict = afterRefusals(judge(run, facts, read, true), persisted(this.#judged, read, true), run.slots);
    if (verdict.stop) run.stops++;
    run.lastVerdict = verdict;
    return verdict;
  };

  readonly peek = (raw: GuardStep): Verdict => {
    if (!isRecord(raw)) argumentError('peek takes a step, an object such as { toolCalls, text, finishReason, usage }', raw);
    const run = this.#run;
    const read = readStep(raw, run.hash, run.steps, this.#options.tools);
    const facts = new Facts(read, run.steps, addStep(run.totals, read.step), this.#context(run));
    // Custom rules see the step last in their history, as in a check; it is taken back out whatever they do.
    const takeBack = run.history.push(read.step);
    try {
      const verdict = judge(run, facts, read, false);
      return afterRefusals(verdict, persisted(this.#judged, read, false), run.slots);
    } finally {
      takeBack();
    }
  };

  readonly judgeCall = (call: GuardToolCall, earlier: readonly GuardToolCall[] = []): CallVerdict => {
    if (!isRecord(call)) argumentError('judgeCall takes a tool call, an object such as { name, args }', call);
    const before = safeArray(earlier) as readonly GuardToolCall[];
    const index = this.#run.steps;
    const withCall = judgeCalls(this.#judged, [...before, call], index).verdict;
    if (!withCall.block || before.length === 0) return withCall;
    // The earlier calls may complete a loop on their own; the call is refused only when it carries the loop further.
    const without = judgeCalls(this.#judged, before, index).verdict;
    return without.block && JSON.stringify(without.evidence) === JSON.stringify(withCall.evidence) ? { block: false } : withCall;
  };

  readonly screen = (): CallScreen => {
    const judged = this.#judged;
    const index = judged.run.steps;
    // The states after the calls allowed so far: each call is judged from them alone, so a call costs the same however
    // many came before it. A refused call does not move them.
    let states: readonly unknown[] = judged.run.slots.map((slot) => slot.state);
    // The calls are compared with each other through these states, so their unreadable values are numbered as one.
    const unreadable = new UnreadableNumbering(`${String(index)}.`);
    return {
      judge: (call) => {
        if (!isRecord(call)) argumentError('screen().judge takes a tool call, an object such as { name, args }', call);
        const judgement = judgeCalls(judged, [call], index, states, unreadable);
        if (!judgement.verdict.block) states = judgement.states;
        return judgement.verdict;
      },
    };
  };

  readonly reset = (): void => {
    this.#run = newRun(this.#options);
  };

  readonly summary = (): GuardSummary => {
    const run = this.#run;
    const view = { steps: run.steps, distinctOutcomes: run.outcomes.size, distinctAnswers: run.answers.size };
    const detectors: Record<string, JsonValue> = {};
    for (const { detector, options, state } of run.slots) detectors[detector.kind] = detector.summary(state, options, view);
    return { steps: run.steps, toolCalls: run.toolCalls, stops: run.stops, lastVerdict: run.lastVerdict, totals: { ...run.totals }, detectors };
  };

  readonly snapshot = (): GuardSnapshot => {
    const run = this.#run;
    const snapshot = {
      version: SNAPSHOT_VERSION,
      options: optionsFingerprint(this.#options),
      steps: run.steps,
      toolCalls: run.toolCalls,
      stops: run.stops,
      lastVerdict: run.lastVerdict,
      blockedBefore: run.blockedBefore,
      totals: run.totals,
      startedAt: run.startedAt,
      clock: this.#options.now === Date.now ? 'Date.now' : 'custom',
      elapsedMs: Math.max(0, readClock(this.#options.now) - run.startedAt),
      hashKey: run.hashKey,
      history: run.history.snapshot().map((step) => toPlainJson(step)),
      memory: { outcomes: run.outcomes.save(), answers: run.answers.save() },
      warnedFields: [...run.warnedFields].sort(),
      detectors: Object.fromEntries(run.slots.map(({ detector, state }) => [detector.kind, state])),
    };
    // A copy through JSON: plain data, sharing nothing with the guard, which goes on changing.
    return JSON.parse(JSON.stringify(snapshot)) as GuardSnapshot;
  };

  get history(): readonly GuardStep[] {
    return this.#run.history.snapshot();
  }
}

/**
 * A guard over the given detectors: what `createGuard` does with the registry's. For tests that add a detector the way
 * a contributor would, through the list alone.
 * @param registry - the detectors, in priority order
 */
export function createGuardWith(registry: typeof DETECTORS, options?: unknown, restore?: RestoreOptions): Guard {
  const resolved = resolveOptions(options, registry);
  return new LoopGuard(resolved, snapshotOf(restore));
}

/**
 * The snapshot in `createGuard`'s second argument, refusing what is not `{ snapshot }`: a snapshot passed as it is,
 * JSON text, or a misspelt key would otherwise start a fresh guard, and a durable run would never stop.
 */
function snapshotOf(restore: unknown): unknown {
  if (restore === undefined) return undefined;
  const fix = 'pass { snapshot: guard.snapshot() } (JSON.parse it first if it was stored as text)';
  if (!isRecord(restore)) argumentError(`createGuard's second argument is { snapshot }: ${fix}`, restore);
  const keys = Object.keys(restore);
  if (keys.includes('version') && keys.includes('hashKey')) argumentError(`createGuard's second argument is { snapshot }, not the snapshot itself: ${fix}`, restore);
  const unknown = keys.find((key) => key !== 'snapshot');
  if (unknown !== undefined) throw new TypeError(`agent-loopguard: createGuard's second argument has an unknown key "${unknown}": ${fix}.`);
  const snapshot = restore.snapshot;
  if (typeof snapshot === 'string') argumentError(`the snapshot is the object guard.snapshot() returned, not JSON text: pass { snapshot: JSON.parse(text) }`, snapshot);
  return snapshot;
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
  return createGuardWith(DETECTORS, options, restore);
}
