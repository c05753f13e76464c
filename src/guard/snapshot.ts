import { isHashKey, keyedHash, type HashKey } from '../canonical/hash.js';
import type { RunTotals } from '../detectors/detector.js';
import type { GuardStep, Verdict } from '../types.js';
import { roundFigure } from '../detectors/budget.js';
import { MAX_ARRAY_ITEMS } from '../utils/read.js';
import { amount, type Check, finite, flag, integer, list, record, savedArray, savedError, savedJson, savedObject, text } from '../utils/validate.js';
import { differingOption, optionsFingerprint, type ResolvedOptions } from './options.js';
import { readStep } from './read-step.js';
import { RunMemory } from './run-memory.js';

/**
 * The snapshot format this version writes and reads. Version 1 was written before the restructured library's hash
 * and totals; version 2 never left development. Version 3 keys outcomes by answers with what changes on every call
 * blanked, keeps the run's memory of answers beside the detectors' states and the last answer in the states of
 * `repeatedToolCall` and `oscillation`: an older snapshot cannot be read, as its keys would never equal new ones.
 */
export const SNAPSHOT_VERSION = 3;

/** Which clock a snapshot's times were read from: `Date.now`, shared by every process, or any other. */
export type ClockKind = 'Date.now' | 'custom';

/** A snapshot after validation: the run-level state, and each detector's saved state still to be read by it. */
export interface ReadSnapshot {
  readonly steps: number;
  readonly toolCalls: number;
  readonly stops: number;
  readonly lastVerdict: Verdict | null;
  readonly blockedBefore: boolean;
  readonly totals: RunTotals;
  readonly startedAt: number;
  readonly clock: ClockKind;
  /** Wall-clock milliseconds the run had taken when the snapshot was taken. */
  readonly elapsedMs: number;
  readonly hashKey: HashKey;
  readonly history: readonly GuardStep[];
  readonly outcomes: RunMemory;
  readonly answers: RunMemory;
  readonly warnedFields: readonly string[];
  readonly detectors: Readonly<Record<string, unknown>>;
}

/** A verdict as `check` writes it: only its shape is checked; it is shown in `summary()`, never acted on. */
function readVerdict(value: unknown): Verdict | null {
  if (value === null) return null;
  const verdict = record({ stop: flag, warnings: (warnings, path) => (warnings === undefined ? undefined : list(record({ code: text, detail: text }))(warnings, path)) })(value, 'lastVerdict');
  if (verdict.stop) record({ reason: text, code: text, detail: text })(value, 'lastVerdict');
  return value as Verdict;
}

/**
 * A running total as the guard keeps it: at least 0, and rounded as `roundFigure` rounds (a whole number below 2^53,
 * else 15 significant digits), so no total holds more digits than a finite double has and every later sum costs the
 * same.
 */
const total: Check<number> = (value, path) => {
  const figure = amount(value, path);
  if (roundFigure(figure) !== figure) savedError(path, 'a total as the guard rounds it (at most 15 significant digits)', value);
  return figure;
};

/** The run-level fields of a snapshot, each checked; the history and each detector's state are checked apart. */
const RUN_FIELDS = record({
  toolCalls: integer(),
  blockedBefore: flag,
  totals: record({ inputTokens: total, outputTokens: total, totalTokens: total, costUsd: total, durationMs: total }),
  startedAt: finite,
  clock: (value: unknown, path: string) => (value === 'Date.now' || value === 'custom' ? value : savedError(path, '"Date.now" or "custom"', value)),
  elapsedMs: amount,
  memory: record({ outcomes: savedArray, answers: savedArray }),
  warnedFields: list(text),
  detectors: savedObject,
});

/**
 * Checks a snapshot against the options a guard is being created with, field by field, before anything of it is used.
 * @param value - what `guard.snapshot()` returned, possibly after a JSON round trip
 * @param options - the resolved options of the guard being created
 * @throws TypeError naming the field that does not fit, or the option whose value differs
 */
export function readSnapshot(value: unknown, options: ResolvedOptions): ReadSnapshot {
  // A plain copy first: every later check reads data, never a getter, and what it checks cannot change under it.
  const snapshot = savedObject(savedJson(value, ''), 'snapshot');
  if (snapshot.version !== SNAPSHOT_VERSION) {
    savedError('version', `${SNAPSHOT_VERSION} (the snapshot format this version of agent-loopguard reads)`, snapshot.version);
  }
  const differs = differingOption(savedObject(snapshot.options, 'options'), optionsFingerprint(options));
  if (differs !== undefined) {
    throw new TypeError(`agent-loopguard: the snapshot was taken under other options: "${differs}" differs. Restore it with the options it was taken with.`);
  }
  const steps = integer()(snapshot.steps, 'steps');
  const kept = Math.min(steps, options.historyLimit ?? steps);
  const history = savedArray(snapshot.history, 'history', kept);
  if (history.length !== kept) savedError('history', `an array of ${kept} steps`, history);
  const { hashKey } = snapshot;
  if (!isHashKey(hashKey)) savedError('hashKey', '32 lowercase hexadecimal characters', hashKey);
  const stops = integer(0, steps)(snapshot.stops, 'stops');
  const lastVerdict = readVerdict(snapshot.lastVerdict);
  const { toolCalls, blockedBefore, totals, startedAt, clock, elapsedMs, memory, warnedFields, detectors } = RUN_FIELDS(snapshot, '');
  // A step's calls are read up to MAX_ARRAY_ITEMS of them.
  if (toolCalls > steps * MAX_ARRAY_ITEMS) savedError('toolCalls', `an integer from 0 to ${steps * MAX_ARRAY_ITEMS} (${MAX_ARRAY_ITEMS} calls a step)`, toolCalls);
  const hash = keyedHash(hashKey);
  return {
    steps,
    toolCalls,
    stops,
    lastVerdict,
    blockedBefore,
    totals,
    startedAt,
    clock,
    elapsedMs,
    hashKey,
    detectors,
    // Read as any step is: whatever does not fit a step is left out, as `check` would have left it out.
    history: history.map((step, index) => readStep(savedObject(step, `history[${index}]`), hash, index).step),
    outcomes: RunMemory.restore(memory.outcomes, options.historyLimit, steps, 'memory.outcomes'),
    answers: RunMemory.restore(memory.answers, options.historyLimit, steps, 'memory.answers'),
    warnedFields,
  };
}
