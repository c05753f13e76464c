import { createReadStream } from 'node:fs';
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { GuardStep } from '../index.js';
import { errorMessage } from './io.js';

/**
 * Most bytes one JSON-lines line may hold (64 MiB), past which it is reported and skipped. Real runs are far smaller
 * (the largest in the project's trace set is 230 KB); the cap bounds memory, since parsing and replaying a line can
 * take about 20 to 35 bytes of memory per byte of a hostile one (a line of `{}` steps).
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Most bytes a `.json` document may hold (64 MiB), decompressed, past which the file is reported and skipped. Not
 * larger than a line: a document is parsed whole, with the same cost per byte. Bigger sets of runs belong in JSON
 * lines, which are read a line at a time.
 */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/**
 * Most JSON values (objects, arrays, strings, numbers, booleans and nulls, keys included) one line or one document may
 * hold (4,000,000), past which it is reported and skipped without being parsed. Parsing costs memory by the value,
 * up to about 70 bytes each (a line of `{}` steps), so the byte cap alone let one line take gigabytes; with this one,
 * parsing a line or document takes at most about 300 MB besides its text. A real run holds a few thousand.
 */
export const MAX_INPUT_VALUES = 4_000_000;

/**
 * Most steps one run may hold (100,000, as many as an adapter checks in one call), past which it is reported and not
 * replayed: the guard keeps what it learns of every step, so the steps of one run bound the replay's memory.
 */
export const MAX_RUN_STEPS = 100_000;

/**
 * How many JSON values a text holds, counting up to `maximum + 1` and no further: one pass over the characters that
 * allocates nothing, so a line is measured before parsing it costs anything. Counts the openings of objects, arrays and
 * strings (keys too) and the first character of each other value; the text need not be valid JSON.
 */
export function countJsonValues(text: string, maximum: number): number {
  let count = 0;
  let inString = false;
  // Inside a number or word: its later characters start nothing.
  let inWord = false;
  for (let at = 0; at < text.length && count <= maximum; at++) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === 92) at++;
      else if (code === 34) inString = false;
      continue;
    }
    const startsValue = code === 34 || code === 123 || code === 91;
    const wordCharacter = (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || code === 45 || code === 43 || code === 46 || code === 69;
    if (startsValue || (wordCharacter && !inWord)) count++;
    inString = code === 34;
    inWord = wordCharacter;
  }
  return count;
}

/** How much of the input one line or one document may be. Tests pass small ones. */
export interface ReadLimits {
  readonly maxLineBytes: number;
  readonly maxDocumentBytes: number;
  /** Most JSON values one line or document may hold. */
  readonly maxValues: number;
}

/** The limits the command uses. */
export const DEFAULT_READ_LIMITS: ReadLimits = Object.freeze({ maxLineBytes: MAX_LINE_BYTES, maxDocumentBytes: MAX_DOCUMENT_BYTES, maxValues: MAX_INPUT_VALUES });

/** Why a text is not parsed: it holds more JSON values than the limits allow. */
function tooManyValues(text: string, what: string, limits: ReadLimits): string | undefined {
  return countJsonValues(text, limits.maxValues) > limits.maxValues ? `${what} holds more than ${limits.maxValues} JSON values` : undefined;
}

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
  /** The id as the file writes it, when it is a number: parsed, a number past 2^53 loses digits. */
  readonly rawId?: string | undefined;
}

/**
 * The numbers the `"id"` members of runs hold, as the text writes them, by the run's position: of the one object the
 * text is (position 0), or of each object in the array it is (`inArray`). A scan of valid JSON that keeps track of
 * strings and nesting only; used only when a run's id is a number.
 */
export function rawNumberIds(text: string, inArray: boolean): Map<number, string> {
  const ids = new Map<number, string>();
  // Each open container: whether it is an object, whether a key comes next, and the position of the item it is at.
  const open: { object: boolean; keyNext: boolean; position: number }[] = [];
  let key: string | undefined;
  for (let at = 0; at < text.length; at++) {
    const character = text[at];
    const top = open.at(-1);
    if (character === '"') {
      const start = at + 1;
      for (at = start; at < text.length && text[at] !== '"'; at++) if (text[at] === '\\') at++;
      if (top?.object === true && top.keyNext) key = text.slice(start, at);
    } else if (character === '{' || character === '[') open.push({ object: character === '{', keyNext: character === '{', position: 0 });
    else if (character === '}' || character === ']') open.pop();
    else if (character === ',' && top !== undefined) {
      top.position++;
      top.keyNext = top.object;
    } else if (character === ':' && top !== undefined) {
      top.keyNext = false;
      const isRun = inArray ? open.length === 2 && open[0]?.object === false : open.length === 1;
      if (isRun && key === 'id') {
        const number = /^\s*(-?[0-9][-+0-9.eE]*)/.exec(text.slice(at + 1, at + 1100));
        if (number?.[1] !== undefined) ids.set(inArray ? (open[0]?.position ?? 0) : 0, number[1]);
      }
    }
  }
  return ids;
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
  if (steps.length > MAX_RUN_STEPS) return `a run of ${steps.length} steps; at most ${MAX_RUN_STEPS} are replayed`;
  const badStep = steps.findIndex((step) => !isRecord(step));
  if (badStep !== -1) return `step ${badStep} must be an object, got ${describe(steps[badStep])}`;

  const id = value.id ?? place.fallbackId;
  if (typeof id !== 'string' && typeof id !== 'number') return `"id" must be a string, got ${describe(id)}`;

  let outcome: RunOutcome | null = null;
  if (value.outcome !== undefined && value.outcome !== null) {
    const read = readOutcome(value.outcome);
    if (typeof read === 'string') return read;
    outcome = read;
  }
  return { id: typeof id === 'number' ? (place.rawId ?? String(id)) : id, file: place.file, line: place.line, outcome, steps: steps as GuardStep[] };
}

/** A run, or the problem with it, as one item. */
function runOrError(value: unknown, place: RunPlace, prefix = ''): RunOrError {
  const run = toRecordedRun(value, place);
  return typeof run === 'string' ? { error: { file: place.file, line: place.line, message: `${prefix}${run}` } } : { run };
}

/**
 * The bytes of a file, gunzipped when `gzip` is set, a chunk at a time. Errors of either stream (a missing file, a
 * corrupt gzip stream) end the iteration with that error; stopping early closes both.
 */
function fileChunks(file: string, gzip: boolean): AsyncIterable<Buffer> {
  const raw = createReadStream(file);
  if (!gzip) return raw;
  const gunzip = createGunzip();
  // pipeline, unlike pipe, passes the file stream's errors on to the gunzip stream read here. Both arrive there.
  pipeline(raw, gunzip, () => undefined);
  return gunzip as Readable & AsyncIterable<Buffer>;
}

/**
 * Splits a byte stream into lines at each `\n`, holding at most `maxLineBytes` of one line: a longer line yields
 * `null` (its bytes dropped as they come) and the next line is read as usual. A line keeps a `\r` before its
 * `\n`; the caller trims it with the other white space.
 */
export async function* splitLines(chunks: AsyncIterable<Uint8Array>, maxLineBytes: number): AsyncGenerator<Uint8Array | null> {
  let pieces: Uint8Array[] = [];
  let length = 0;
  let tooLong = false;
  const line = (): Uint8Array | null => (tooLong ? null : Buffer.concat(pieces, length));
  for await (const chunk of chunks) {
    for (let start = 0; start <= chunk.length; ) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      length += end - start;
      if (length > maxLineBytes) {
        tooLong = true;
        pieces = [];
      } else if (end > start) pieces.push(chunk.subarray(start, end));
      if (newline === -1) break;
      yield line();
      pieces = [];
      length = 0;
      tooLong = false;
      start = newline + 1;
    }
  }
  if (length > 0) yield line();
}

// `fatal`: bytes that are not UTF-8 are an error to report, not text to replace with U+FFFD in silence.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Text of UTF-8 bytes without a leading byte-order mark, or `undefined` when they are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** One line's run, the problem with it, or `undefined` for a blank line. */
function lineItem(bytes: Uint8Array | null, file: string, line: number, limits: ReadLimits): RunOrError | undefined {
  if (bytes === null) return { error: { file, line, message: `line longer than ${limits.maxLineBytes} bytes` } };
  const text = decodeUtf8(bytes)?.trim();
  if (text === undefined) return { error: { file, line, message: 'not valid UTF-8' } };
  if (text === '') return undefined;
  const crowded = tooManyValues(text, 'the line', limits);
  if (crowded !== undefined) return { error: { file, line, message: crowded } };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: { file, line, message: `not valid JSON: ${errorMessage(error)}` } };
  }
  return runOrError(value, { file, line, fallbackId: `${file}:${line}`, rawId: numberId(value) ? rawNumberIds(text, false).get(0) : undefined });
}

/** Whether a parsed run's id is a number, whose text is then read from the file (see {@link rawNumberIds}). */
function numberId(value: unknown): boolean {
  return isRecord(value) && typeof value.id === 'number';
}

/**
 * Streams a JSON-lines file (gzip-compressed when `gzip` is set), one run a line, so its size does not matter: only
 * one line at a time is in memory, at most `limits.maxLineBytes`. Blank lines are skipped. A bad line (too long, not
 * UTF-8, not JSON, not a run) yields an error naming it and reading goes on; a file that cannot be read (or a corrupt
 * gzip stream) yields one error and ends the file.
 */
async function* readJsonLines(file: string, gzip: boolean, limits: ReadLimits): AsyncGenerator<RunOrError> {
  let line = 0;
  try {
    for await (const bytes of splitLines(fileChunks(file, gzip), limits.maxLineBytes)) {
      line++;
      const item = lineItem(bytes, file, line, limits);
      if (item !== undefined) yield item;
    }
  } catch (error) {
    yield { error: { file, line: line === 0 ? null : line + 1, message: `cannot read: ${errorMessage(error)}` } };
  }
}

/**
 * The bytes of a file (gunzipped when `gzip` is set), or `null` when there are more than `maxBytes` of them: reading
 * stops there, so neither a huge file nor a gzip bomb is ever held whole.
 * @throws the read or decompression error
 */
export async function readCapped(file: string, gzip: boolean, maxBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of fileChunks(file, gzip)) {
    length += chunk.length;
    if (length > maxBytes) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length);
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

/**
 * Reads a `.json` document of at most `limits.maxDocumentBytes` (decompressed): an array of steps (one run), an array
 * of runs, a single run object, or nothing (empty or only white space: no runs). An array whose first element has a `steps` array is taken as runs. A run in an
 * array that is not valid yields an error naming it (1-based) and the others still replay.
 */
async function* readJsonDocument(file: string, gzip: boolean, limits: ReadLimits): AsyncGenerator<RunOrError> {
  let bytes: Buffer | null;
  try {
    bytes = await readCapped(file, gzip, limits.maxDocumentBytes);
  } catch (error) {
    yield { error: { file, line: null, message: `cannot read: ${errorMessage(error)}` } };
    return;
  }
  const text = bytes === null ? undefined : decodeUtf8(bytes);
  if (text === undefined) {
    const message = bytes === null ? `document larger than ${limits.maxDocumentBytes} bytes` : 'not valid UTF-8';
    yield { error: { file, line: null, message } };
    return;
  }
  // An empty file holds no runs, as an empty JSON-lines file does; it is not a JSON error.
  if (/^[\t\n\r ]*$/.test(text)) return;
  const crowded = tooManyValues(text, 'the document', limits);
  if (crowded !== undefined) {
    yield { error: { file, line: null, message: crowded } };
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = errorMessage(error);
    yield { error: { file, line: lineOfPosition(text, message), message: `not valid JSON: ${message}` } };
    return;
  }

  const place = { file, line: null, fallbackId: file };
  if (!Array.isArray(value)) {
    yield runOrError(value, { ...place, rawId: numberId(value) ? rawNumberIds(text, false).get(0) : undefined });
    return;
  }
  if (value.length > 0 && !holdsRuns(value)) {
    yield runOrError({ steps: value }, place);
    return;
  }
  const rawIds = value.some(numberId) ? rawNumberIds(text, true) : undefined;
  for (const [index, item] of value.entries()) {
    const ordinal = String(index + 1);
    yield runOrError(item, { file, line: null, fallbackId: `${file}#${ordinal}`, rawId: rawIds?.get(index) }, `run ${ordinal}: `);
  }
}

/**
 * Reads the runs of one file, choosing the format by its name: a trailing `.gz` means gzip; then `.json` is one JSON
 * document and anything else (`.jsonl`, `.ndjson`, ...) is JSON lines, one run a line.
 * @param file - path of the file
 * @param limits - how long a line and how large a document may be, and how many JSON values either may hold
 */
export function readRuns(file: string, limits: ReadLimits = DEFAULT_READ_LIMITS): AsyncGenerator<RunOrError> {
  const lower = file.toLowerCase();
  const gzip = lower.endsWith('.gz');
  const name = gzip ? lower.slice(0, -'.gz'.length) : lower;
  return name.endsWith('.json') ? readJsonDocument(file, gzip, limits) : readJsonLines(file, gzip, limits);
}
