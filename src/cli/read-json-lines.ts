import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { RunOrError } from './run-or-error.js';
import { toRecordedRun } from './recorded-run.js';
import { errorMessage } from './error-message.js';

/**
 * Streams a JSON-lines file (gzip-compressed when `gzip` is set), one run a line, so big files never sit in memory.
 * Blank lines are skipped. A bad line yields an error naming it and reading goes on; a file that cannot be read (or
 * a corrupt gzip stream) yields one error and ends the file.
 * @param file - path of the file
 * @param gzip - whether to decompress it
 */
export async function* readJsonLines(file: string, gzip: boolean): AsyncGenerator<RunOrError> {
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
      const run = toRecordedRun(value, { file, line: lineNumber, fallbackId: `${file}:${String(lineNumber)}` });
      yield typeof run === 'string' ? { error: { file, line: lineNumber, message: run } } : { run };
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
