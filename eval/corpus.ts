/** Which trace files the eval reads: every trace file of every folder, each source once. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { formatInputError } from '../src/cli/report.js';
import { readRuns, type RecordedRun } from '../src/cli/read-runs.js';

/** One trace file, named after its source. */
export interface TraceFile {
  /** The file name without its `.jsonl.gz` (or `.jsonl`, `.json`, `.json.gz`) ending. */
  readonly source: string;
  readonly path: string;
}

/** A file left out because a file of the same source was read from an earlier folder. */
export interface SkippedFile extends TraceFile {
  /** Whether its bytes equal those of the file that was read. */
  readonly identical: boolean;
}

const ENDING = /\.(jsonl|json)(\.gz)?$/;

/** The source a trace file holds, from its name, or `undefined` when the name is not a trace file's. */
export function sourceName(fileName: string): string | undefined {
  const match = ENDING.exec(fileName);
  return match === null || match.index === 0 ? undefined : fileName.slice(0, match.index);
}

function digest(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/**
 * The trace files of the folders, in source-name order. A source met again in a later folder is skipped (the first
 * folder wins), so a folder that holds copies of another's files adds nothing twice. Missing folders are listed apart.
 * @param folders - folders to read, in order of precedence
 */
export function listTraceFiles(folders: readonly string[]): { files: TraceFile[]; skipped: SkippedFile[]; missing: string[] } {
  const files = new Map<string, TraceFile>();
  const skipped: SkippedFile[] = [];
  const missing: string[] = [];
  for (const folder of folders) {
    if (!existsSync(folder)) {
      missing.push(folder);
      continue;
    }
    for (const name of readdirSync(folder).sort()) {
      const source = sourceName(name);
      if (source === undefined) continue;
      const file = { source, path: join(folder, name) };
      const first = files.get(source);
      if (first === undefined) files.set(source, file);
      else skipped.push({ ...file, identical: digest(first.path) === digest(file.path) });
    }
  }
  return { files: [...files.values()].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0)), skipped, missing };
}

/**
 * Every run of a trace file, read with the replay command's reader. Lines that are not runs are reported on stderr
 * and counted.
 */
export async function loadRuns(file: TraceFile): Promise<{ runs: RecordedRun[]; badInputs: number }> {
  const runs: RecordedRun[] = [];
  let badInputs = 0;
  for await (const item of readRuns(file.path)) {
    if (item.error === undefined) runs.push(item.run);
    else {
      badInputs++;
      console.error(formatInputError(item.error));
    }
  }
  return { runs, badInputs };
}
