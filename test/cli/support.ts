import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import type { ReplayStop, RunLabel, RunReplay } from '../../src/cli/replay.js';

/** The five MIT-licensed real runs (see test/fixtures/README.md). */
export const RUNS = fileURLToPath(new URL('../fixtures/runs.jsonl', import.meta.url));
/** The two hand-written stuck runs. */
export const SYNTHETIC = fileURLToPath(new URL('../fixtures/synthetic.jsonl', import.meta.url));

/** A `CliIo` that records what the command writes. */
export function captureIo(): { io: CliIo; stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return {
    io: {
      stdout: (text) => {
        out += text;
      },
      stderr: (text) => {
        err += text;
      },
    },
    stdout: () => out,
    stderr: () => err,
  };
}

/**
 * A temporary folder for the test file that calls this, removed after its tests.
 * @returns the path of a file in that folder, by name
 */
export function useTempDir(prefix: string): (name: string) => string {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return (name) => join(dir, name);
}

/** A replayed run, built by hand for tests of what comes after the replay. */
export function replayOf(label: RunLabel | null, stop: Partial<ReplayStop> | null, extra: Partial<RunReplay> = {}): RunReplay {
  return {
    id: 'r',
    file: 'f.jsonl',
    line: 1,
    steps: 10,
    stop: stop === null ? null : { index: 0, reason: 'max-steps', code: 'MAX_STEPS', fault: true, detail: 'd', ...stop },
    label,
    falseStop: false,
    caught: false,
    afterStop: { steps: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0 },
    inputShape: [],
    ...extra,
  };
}
