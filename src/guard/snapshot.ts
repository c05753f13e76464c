import { isHashKey, type HashKey } from '../canonical/hash.js';
import type { RunTotals } from '../detectors/detector.js';
import type { GuardStep, Verdict } from '../types.js';
import { savedArray, savedBoolean, savedError, savedInteger, savedNumber, savedObject, savedString } from '../utils/validate.js';
import { differingOption, optionsFingerprint, type ResolvedOptions } from './options.js';
import { readStep } from './read-step.js';
import { RunMemory } from './run-memory.js';
import { keyedHash } from '../canonical/hash.js';

/**
 * The snapshot format this version writes and reads. Version 2 hashes with SipHash over UTF-16 code units, keeps totals
 * rounded to 15 significant digits instead of exact decimal sums, and keeps the run's memory of answers beside the
 * detectors' states: a snapshot of version 1 cannot be read, as its keys would never equal new ones.
 */
export const SNAPSHOT_VERSION = 2;

/** The figures a run adds up, in the order summaries list them. */
export const TOTAL_NAMES = ['inputTokens', 'outputTokens', 'totalTokens', 'costUsd', 'durationMs'] as const;

/** A snapshot after validation: the run-level state, and each detector's saved state still to be read by it. */
export interface ReadSnapshot {
  readonly steps: number;
  readonly toolCalls: number;
  readonly stops: number;
  readonly lastVerdict: Verdict | null;
  readonly blockedBefore: boolean;
  readonly totals: RunTotals;
  readonly startedAt: number;
  readonly hashKey: HashKey;
  readonly history: readonly GuardStep[];
  readonly outcomes: RunMemory;
  readonly answers: RunMemory;
  readonly detectors: Readonly<Record<string, unknown>>;
}

/** A verdict as `check` writes it: only its shape is checked; it is shown in `summary()`, never acted on. */
function readVerdict(value: unknown): Verdict | null {
  if (value === null) return null;
  const record = savedObject(value, 'lastVerdict');
  if (typeof record.stop !== 'boolean') savedError('lastVerdict.stop', 'true or false', record.stop);
  if (record.stop) {
    savedString(record.reason, 'lastVerdict.reason');
    savedString(record.code, 'lastVerdict.code');
    savedString(record.detail, 'lastVerdict.detail');
  }
  if (record.warnings !== undefined) {
    savedArray(record.warnings, 'lastVerdict.warnings').forEach((warning, index) => {
      const path = `lastVerdict.warnings[${String(index)}]`;
      const item = savedObject(warning, path);
      savedString(item.code, `${path}.code`);
      savedString(item.detail, `${path}.detail`);
    });
  }
  return record as unknown as Verdict;
}

/**
 * Checks a snapshot against the options a guard is being created with, field by field, before anything of it is used.
 * @param value - what `guard.snapshot()` returned, possibly after a JSON round trip
 * @param options - the resolved options of the guard being created
 * @throws TypeError naming the field that does not fit, or the option whose value differs
 */
export function readSnapshot(value: unknown, options: ResolvedOptions): ReadSnapshot {
  const snapshot = savedObject(value, 'snapshot');
  if (snapshot.version !== SNAPSHOT_VERSION) {
    savedError('version', `${String(SNAPSHOT_VERSION)} (the snapshot format this version of agent-loopguard reads)`, snapshot.version);
  }
  const differs = differingOption(savedObject(snapshot.options, 'options'), optionsFingerprint(options));
  if (differs !== undefined) {
    throw new TypeError(`agent-loopguard: the snapshot was taken under other options: "${differs}" differs. Restore it with the options it was taken with.`);
  }
  const steps = savedInteger(snapshot.steps, 'steps');
  const kept = Math.min(steps, options.historyLimit ?? steps);
  const history = savedArray(snapshot.history, 'history', kept);
  if (history.length !== kept) savedError('history', `an array of ${String(kept)} steps`, history);
  const { hashKey } = snapshot;
  if (!isHashKey(hashKey)) savedError('hashKey', '32 lowercase hexadecimal characters', hashKey);
  const totalsRecord = savedObject(snapshot.totals, 'totals');
  const totals = Object.fromEntries(TOTAL_NAMES.map((name) => [name, savedNumber(totalsRecord[name], `totals.${name}`)])) as unknown as RunTotals;
  for (const name of TOTAL_NAMES) if (totals[name] < 0) savedError(`totals.${name}`, 'a number of at least 0', totals[name]);
  const memory = savedObject(snapshot.memory, 'memory');
  const hash = keyedHash(hashKey);
  return {
    steps,
    toolCalls: savedInteger(snapshot.toolCalls, 'toolCalls'),
    stops: savedInteger(snapshot.stops, 'stops', 0, steps),
    lastVerdict: readVerdict(snapshot.lastVerdict),
    blockedBefore: savedBoolean(snapshot.blockedBefore, 'blockedBefore'),
    totals,
    startedAt: savedNumber(snapshot.startedAt, 'startedAt'),
    hashKey,
    // Read as any step is: whatever does not fit a step is left out, as `check` would have left it out.
    history: history.map((step, index) => readStep(savedObject(step, `history[${String(index)}]`), hash, index).step),
    outcomes: RunMemory.restore(memory.outcomes, options.historyLimit, steps, 'memory.outcomes'),
    answers: RunMemory.restore(memory.answers, options.historyLimit, steps, 'memory.answers'),
    detectors: savedObject(snapshot.detectors, 'detectors'),
  };
}
