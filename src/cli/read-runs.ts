import type { RunOrError } from './run-or-error.js';
import { readJsonDocument } from './read-json-document.js';
import { readJsonLines } from './read-json-lines.js';

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
