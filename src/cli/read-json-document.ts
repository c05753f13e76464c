import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { RunOrError } from './run-or-error.js';
import { toRecordedRun } from './recorded-run.js';
import { errorMessage } from './error-message.js';

const gunzipAsync = promisify(gunzip);

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
 * Reads a `.json` document: an array of steps (one run), an array of runs, or a single run object.
 * An array whose first element has a `steps` array is taken as runs. A run in an array that is not valid yields an
 * error naming it (1-based) and the others still replay.
 * @param file - path of the file
 * @param gzip - whether to decompress it
 */
export async function* readJsonDocument(file: string, gzip: boolean): AsyncGenerator<RunOrError> {
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

  if (!Array.isArray(value)) {
    const run = toRecordedRun(value, { file, line: null, fallbackId: file });
    yield typeof run === 'string' ? { error: { file, line: null, message: run } } : { run };
    return;
  }
  if (value.length > 0 && !holdsRuns(value)) {
    const run = toRecordedRun({ steps: value }, { file, line: null, fallbackId: file });
    yield typeof run === 'string' ? { error: { file, line: null, message: run } } : { run };
    return;
  }
  for (const [index, item] of value.entries()) {
    const ordinal = String(index + 1);
    const run = toRecordedRun(item, { file, line: null, fallbackId: `${file}#${ordinal}` });
    yield typeof run === 'string' ? { error: { file, line: null, message: `run ${ordinal}: ${run}` } } : { run };
  }
}
