import type { GuardStep } from '../types.js';

/** How a recorded run ended, as far as its source knows. */
export interface RunOutcome {
  /** Whether the task was solved; `null` when unknown. */
  readonly resolved: boolean | null;
  /** The agent's own exit status (`exit_cost` means it hit its call or cost limit); `null` when unknown. */
  readonly exitStatus: string | null;
}

/** One agent run read from a file, ready to replay. */
export interface RecordedRun {
  readonly id: string;
  readonly file: string;
  /** 1-based line of a JSON-lines file; `null` for runs from a `.json` document. */
  readonly line: number | null;
  readonly outcome: RunOutcome | null;
  readonly steps: readonly GuardStep[];
}

/** Where a run came from, and the id it gets when it has none. */
export interface RunPlace {
  readonly file: string;
  readonly line: number | null;
  readonly fallbackId: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function readOutcome(value: unknown): RunOutcome | string {
  if (!isRecord(value)) return `"outcome" must be an object, got ${describe(value)}`;
  const resolved = value.resolved ?? null;
  if (resolved !== null && typeof resolved !== 'boolean') {
    return `"outcome.resolved" must be true, false or null, got ${describe(resolved)}`;
  }
  const exitStatus = value.exitStatus ?? null;
  if (exitStatus !== null && typeof exitStatus !== 'string') {
    return `"outcome.exitStatus" must be a string or null, got ${describe(exitStatus)}`;
  }
  return { resolved, exitStatus };
}

/**
 * Checks that a parsed value is a run: an object with a `steps` array of objects, and optionally an `id` and an `outcome`.
 * @param value - the parsed JSON
 * @param place - where it was read, for the run's fields
 * @returns the run, or a message saying what is wrong with it
 */
export function toRecordedRun(value: unknown, place: RunPlace): RecordedRun | string {
  if (!isRecord(value)) return `expected a run object with a "steps" array, got ${describe(value)}`;
  const steps = value.steps;
  if (!Array.isArray(steps)) return `"steps" must be an array, got ${describe(steps)}`;
  const badStep = steps.findIndex((step) => !isRecord(step));
  if (badStep !== -1) return `step ${String(badStep)} must be an object, got ${describe(steps[badStep])}`;

  const id = value.id ?? place.fallbackId;
  if (typeof id !== 'string' && typeof id !== 'number') return `"id" must be a string, got ${describe(id)}`;

  let outcome: RunOutcome | null = null;
  if (value.outcome !== undefined && value.outcome !== null) {
    const read = readOutcome(value.outcome);
    if (typeof read === 'string') return read;
    outcome = read;
  }
  return { id: String(id), file: place.file, line: place.line, outcome, steps: steps as GuardStep[] };
}
