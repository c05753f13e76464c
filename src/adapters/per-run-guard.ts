import { createGuard } from '../guard/create-guard.js';
import type { CallRefusal, Guard, GuardOptions, StopVerdict } from '../types.js';
import { isRecord } from '../utils/validate.js';

/**
 * Where the guard of each run comes from: `GuardOptions` (a new guard with them for every run), or a function that
 * returns a new guard for the run it is given (to restore one from a snapshot, say).
 */
export type GuardSource<Run> = GuardOptions | ((run: Run) => Guard);

/**
 * A function that makes the guard of a run. Options are validated here, once, so a bad one throws its `TypeError`
 * where the adapter is set up rather than in the middle of a run.
 * @param source - options or a factory. @default {} (the defaults)
 * @throws TypeError from `createGuard` when the options are invalid
 */
export function guardMaker<Run>(source: GuardSource<Run> | undefined): (run: Run) => Guard {
  if (typeof source === 'function') return source;
  createGuard(source);
  return () => createGuard(source);
}

/** Whether a value can serve as a guard: an object with the methods adapters call. */
export function isGuard(value: unknown): value is Guard {
  return isRecord(value) && typeof value.check === 'function' && typeof value.judgeCall === 'function';
}

/** A refusal as the stop verdict it becomes when the refusal itself ends the run. */
export function refusalStop(refusal: CallRefusal): StopVerdict {
  const { reason, code, detail, evidence } = refusal;
  return { stop: true, reason, code, detail, evidence } as StopVerdict;
}

/** One line that says the guard stopped the run, and why. */
export function stopLine(verdict: StopVerdict): string {
  return `Stopped by agent-loopguard [${verdict.code}]: ${verdict.detail}`;
}

/**
 * A tool call's arguments as data: JSON text parsed, so key order and spacing do not matter; anything else as it is.
 * @param text - the arguments as the framework gives them
 */
export function parseArguments(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
