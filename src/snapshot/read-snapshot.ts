import { type HashKey, isHashKey } from '../canonical/hash-key.js';
import { ExactSum } from '../guard/exact-sum.js';
import { reduceStep } from '../guard/reduce-step.js';
import { TOTAL_NAMES, type RunSums } from '../guard/run-totals.js';
import type { ResolvedOptions } from '../options/resolve-options.js';
import type { GuardStep, Verdict } from '../types.js';
import { differingOption, optionsFingerprint } from './fingerprint.js';
import { savedArray, savedBoolean, savedError, savedInteger, savedNumber, savedObject, savedString } from './read-saved.js';

/**
 * The snapshot format this version writes and reads. Its comparison keys are keyed SipHash; no released version ever
 * wrote another kind, so the format is still the first. A change to how keys are computed must bump it: restored keys
 * that never equal new ones would make a guard silently miss the repeats a restore spans.
 */
export const SNAPSHOT_VERSION = 1;

/** A snapshot after validation: the run-level state, and each detector's saved state still to be read by it. */
export interface ReadSnapshot {
  readonly steps: number;
  readonly toolCalls: number;
  readonly stops: number;
  readonly lastVerdict: Verdict | null;
  readonly blockedBefore: boolean;
  readonly sums: RunSums;
  readonly startedAt: number;
  /** The run's key for comparisons: a restored guard compares as the one that took the snapshot. */
  readonly hashKey: HashKey;
  readonly history: readonly GuardStep[];
  readonly detectors: Readonly<Record<string, unknown>>;
}

function readSums(value: unknown): RunSums {
  const record = savedObject(value, 'sums');
  const read = (name: (typeof TOTAL_NAMES)[number]): ExactSum => {
    const path = `sums.${name}`;
    return ExactSum.restore(savedString(record[name], path)) ?? savedError(path, 'decimal digits with at most one point', record[name]);
  };
  return {
    inputTokens: read('inputTokens'),
    outputTokens: read('outputTokens'),
    totalTokens: read('totalTokens'),
    costUsd: read('costUsd'),
    durationMs: read('durationMs'),
  };
}

/**
 * The totals as `summary()` showed them: what the exact sums round to. They are written for people reading a snapshot;
 * the guard goes on from the sums, so totals that say something else were edited, and are refused.
 */
function readTotals(value: unknown, sums: RunSums): void {
  const record = savedObject(value, 'totals');
  for (const name of TOTAL_NAMES) {
    const expected = sums[name].value;
    if (record[name] !== expected) savedError(`totals.${name}`, `${String(expected)} (what sums.${name} comes to)`, record[name]);
  }
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
 * @returns the state to start from
 * @throws TypeError naming the field that does not fit, or the option whose value differs
 */
export function readSnapshot(value: unknown, options: ResolvedOptions): ReadSnapshot {
  const snapshot = savedObject(value, 'snapshot');
  if (snapshot.version !== SNAPSHOT_VERSION) {
    savedError('version', `${String(SNAPSHOT_VERSION)} (the snapshot format this version of agent-loopguard reads)`, snapshot.version);
  }
  const differs = differingOption(savedObject(snapshot.options, 'options'), optionsFingerprint(options));
  if (differs !== undefined) {
    throw new TypeError(
      `agent-loopguard: the snapshot was taken under other options: "${differs}" differs. Restore it with the options it was taken with.`,
    );
  }
  const steps = savedInteger(snapshot.steps, 'steps');
  const kept = Math.min(steps, options.historyLimit ?? steps);
  const history = savedArray(snapshot.history, 'history', kept);
  if (history.length !== kept) savedError('history', `an array of ${String(kept)} steps`, history);
  const { hashKey } = snapshot;
  if (!isHashKey(hashKey)) savedError('hashKey', '32 lowercase hexadecimal characters', hashKey);
  const toolCalls = savedInteger(snapshot.toolCalls, 'toolCalls');
  const stops = savedInteger(snapshot.stops, 'stops', 0, steps);
  const lastVerdict = readVerdict(snapshot.lastVerdict);
  const blockedBefore = savedBoolean(snapshot.blockedBefore, 'blockedBefore');
  const sums = readSums(snapshot.sums);
  readTotals(snapshot.totals, sums);
  return {
    steps,
    toolCalls,
    stops,
    lastVerdict,
    blockedBefore,
    sums,
    startedAt: savedNumber(snapshot.startedAt, 'startedAt'),
    hashKey,
    // Read as any step is: whatever does not fit a step is left out, as `check` would have left it out.
    history: history.map((step, index) => reduceStep(savedObject(step, `history[${String(index)}]`), hashKey, index).step),
    detectors: savedObject(snapshot.detectors, 'detectors'),
  };
}
