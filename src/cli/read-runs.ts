import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { createGunzip, gunzip } from 'node:zlib';
import type { GuardStep } from '../index.js';
import { errorMessage } from './io.js';

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

/** A problem with one input: a file that cannot be read, a line that is not a run. */
export interface InputError {
  readonly file: string;
  /** 1-based line of a JSON-lines file, or `null` when the problem is not tied to a line. */
  readonly line: number | null;
  readonly message: string;
}

/** What reading an input yields, item by item: a run to replay, or a problem to report. */
export type RunOrError = { readonly run: RecordedRun; readonly error?: never } | { readonly error: InputError; readonly run?: never };

/** Where a run came from, and the id it gets when it has none. */
interface RunPlace {
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

/** A run, or the problem with it, as one item. */
function runOrError(value: unknown, place: RunPlace, prefix = ''): RunOrError {
  const run = toRecordedRun(value, place);
  return typeof run === 'string' ? { error: { file: place.file, line: place.line, message: `${prefix}${run}` } } : { run };
}

/**
 * Streams a JSON-lines file (gzip-compressed when `gzip` is set), one run a line, so big files never sit in memory.
 * Blank lines are skipped. A bad line yields an error naming it and reading goes on; a file that cannot be read (or
 * a corrupt gzip stream) yields one error and ends the file.
 */
async function* readJsonLines(file: string, gzip: boolean): AsyncGenerator<RunOrError> {
  const raw = createReadStream(file);
  const input: Readable = gzip ? raw.pipe(createGunzip()) : raw;
  const lines = createInterface({ input, crlfDelay: Infinity });
  // pipe() does not pass the file stream's errors (a missing file) on to the gunzip stream readline reads, so the
  // lines would never end: catch errors of both streams here and close the lines.
  let failure: unknown;
  const fail = (error: unknown): void => {
    failure ??= error;
    lines.close();
  };
  raw.on('error', fail);
  input.on('error', fail);

  let lineNumber = 0;
  try {
    for await (const text of lines) {
      lineNumber++;
      const trimmed = lineNumber === 1 ? text.replace(/^\uFEFF/, '').trim() : text.trim();
      if (trimmed === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(trimmed);
      } catch (error) {
        yield { error: { file, line: lineNumber, message: `not valid JSON: ${errorMessage(error)}` } };
        continue;
      }
      yield runOrError(value, { file, line: lineNumber, fallbackId: `${file}:${String(lineNumber)}` });
    }
  } catch (error) {
    failure ??= error;
  } finally {
    lines.close();
    raw.destroy();
  }
  if (failure !== undefined) {
    const line = lineNumber === 0 ? null : lineNumber + 1;
    yield { error: { file, line, message: `cannot read: ${errorMessage(failure)}` } };
  }
}

/** Line (1-based) of a character offset, for JSON.parse messages that give a position. */
function lineOfPosition(text: string, message: string): number | null {
  const match = /position (\d+)/.exec(message);
  if (match === null) return null;
  let line = 1;
  const end = Math.min(Number(match[1]), text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function holdsRuns(value: readonly unknown[]): boolean {
  const first: unknown = value[0];
  return first !== null && typeof first === 'object' && Array.isArray((first as { steps?: unknown }).steps);
}

const gunzipAsync = promisify(gunzip);

/**
 * Reads a `.json` document: an array of steps (one run), an array of runs, or a single run object.
 * An array whose first element has a `steps` array is taken as runs. A run in an array that is not valid yields an
 * error naming it (1-based) and the others still replay.
 */
async function* readJsonDocument(file: string, gzip: boolean): AsyncGenerator<RunOrError> {
  let text: string;
  let value: unknown;
  try {
    const bytes = await readFile(file);
    text = (gzip ? await gunzipAsync(bytes) : bytes).toString('utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    yield { error: { file, line: null, message: `cannot read: ${errorMessage(error)}` } };
    return;
  }
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = errorMessage(error);
    yield { error: { file, line: lineOfPosition(text, message), message: `not valid JSON: ${message}` } };
    return;
  }

  const place = { file, line: null, fallbackId: file };
  if (!Array.isArray(value)) {
    yield runOrError(value, place);
    return;
  }
  if (value.length > 0 && !holdsRuns(value)) {
    yield runOrError({ steps: value }, place);
    return;
  }
  for (const [index, item] of value.entries()) {
    const ordinal = String(index + 1);
    yield runOrError(item, { file, line: null, fallbackId: `${file}#${ordinal}` }, `run ${ordinal}: `);
  }
}

/**
 * Reads the runs of one file, choosing the format by its name: a trailing `.gz` means gzip; then `.json` is one JSON
 * document and anything else (`.jsonl`, `.ndjson`, ...) is JSON lines, one run a line.
 * @param file - path of the file
 */
export function readRuns(file: string): AsyncGenerator<RunOrError> {
  const lower = file.toLowerCase();
  const gzip = lower.endsWith('.gz');
  const name = gzip ? lower.slice(0, -'.gz'.length) : lower;
  return name.endsWith('.json') ? readJsonDocument(file, gzip) : readJsonLines(file, gzip);
}
