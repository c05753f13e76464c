import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createGuard, isFault, type GuardOptions, type GuardStep } from '../../src/index.js';
import { captureIo } from './capture-io.js';
import { RUNS, SYNTHETIC } from './fixture-paths.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loopguard-agree-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  id: string;
  steps: GuardStep[];
}

function readRuns(file: string): Run[] {
  return readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Run);
}

/** The replay done by hand, straight through the public API. */
function replayByHand(run: Run, options?: GuardOptions): { id: string; stop: object | null } {
  const guard = createGuard(options);
  for (const [index, step] of run.steps.entries()) {
    const verdict = guard.check(step);
    if (verdict.stop) {
      return {
        id: run.id,
        stop: { index, reason: verdict.reason, code: verdict.code, fault: isFault(verdict), detail: verdict.detail },
      };
    }
  }
  return { id: run.id, stop: null };
}

async function replayByCommand(argv: string[]): Promise<{ id: string; stop: object | null }[]> {
  const capture = captureIo();
  expect(await main(['replay', '--json', ...argv], capture.io)).toBe(0);
  const report = JSON.parse(capture.stdout()) as { runs: { id: string; stop: object | null }[] };
  return report.runs.map(({ id, stop }) => ({ id, stop }));
}

const runs = [...readRuns(RUNS), ...readRuns(SYNTHETIC)];
const configs: [string, GuardOptions | undefined][] = [
  ['the defaults', undefined],
  ['maxSteps off, repeat threshold 2', { maxSteps: false, repeatedToolCall: { threshold: 2 } }],
  ['only oscillation', { maxSteps: false, repeatedToolCall: false, noProgress: false, finishReason: false, oscillation: { repeats: 2 } }],
  ['a token budget', { maxSteps: false, budget: { maxTotalTokens: 60_000 } }],
];

describe('replay agrees run by run with createGuard', () => {
  it.each(configs)('with %s', async (_name, options) => {
    const argv = [RUNS, SYNTHETIC];
    if (options !== undefined) {
      const config = join(dir, 'guard.json');
      writeFileSync(config, JSON.stringify(options));
      argv.unshift('--config', config);
    }
    const byCommand = await replayByCommand(argv);
    const byHand = runs.map((run) => replayByHand(run, options));
    expect(byCommand).toHaveLength(7);
    expect(byCommand).toEqual(byHand);
    // Each config is worth checking only if it stops some runs and lets others through.
    expect(byHand.some((r) => r.stop === null)).toBe(true);
    expect(byHand.some((r) => r.stop !== null)).toBe(true);
  });
});
