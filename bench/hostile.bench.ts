/**
 * Hostile input, issue 29's items 3, 4 and 6, each beside the limit docs/limits.md states for it:
 * - item 3, the step's budget: one `check` (and one `judgeCall`) of 10,000 calls sharing a 10 MiB name, of 64 calls
 *   rotating five long results, of 20 calls sharing a 200,000-key object;
 * - item 4, the replay command: its peak resident memory on the red team's 64 MiB line of `{}` steps (gzipped), and on
 *   a line of 4,000,000 values, each in a process of its own held to a 768 MiB heap;
 * - item 6, evidence: one step after stagnation's window of 1,000 steps of 200 calls is full, and a stop with the
 *   default window and 10,000 calls a step.
 * Times are wall-clock milliseconds of one run (these are single long operations, not loops to average); `--quick`
 * shrinks the long results and the window.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { STEP_CHARACTERS, STEP_VALUES } from '../src/canonical/form.js';
import { MAX_INPUT_VALUES, MAX_LINE_BYTES, MAX_RUN_STEPS } from '../src/cli/read-runs.js';
import { EVIDENCE_CALLS } from '../src/detectors/stagnation.js';
import { QUICK } from './harness.js';
import { createGuard } from './library.js';

const MIB = 1024 * 1024;
const root = fileURLToPath(new URL('..', import.meta.url));

interface Row {
  readonly item: string;
  readonly case: string;
  readonly figure: string;
  readonly limit: string;
}

const rows: Row[] = [];

function timed(run: () => unknown): string {
  const started = performance.now();
  run();
  return `${(performance.now() - started).toFixed(0)} ms`;
}

// Item 3: every string counts against the step's budget, names included.
const stepBudget = `${String(STEP_VALUES)} values and ${String(STEP_CHARACTERS / MIB)} Mi characters a step; a string costs its whole length`;
{
  const name = 'n'.repeat(10 * MIB);
  const calls = Array.from({ length: 10_000 }, (_, index) => ({ name, args: { index } }));
  rows.push({ item: '3', case: 'check: 10,000 calls sharing a 10 MiB name', figure: timed(() => createGuard().check({ toolCalls: calls })), limit: stepBudget });
  const earlier = calls.slice(1);
  rows.push({ item: '3', case: 'judgeCall: the same, 9,999 earlier calls', figure: timed(() => createGuard().judgeCall({ name, args: { index: 0 } }, earlier)), limit: stepBudget });
  const length = QUICK ? 10 * MIB : 50 * MIB;
  const results = Array.from({ length: 5 }, (_, index) => String(index).repeat(length));
  const rotating = Array.from({ length: 64 }, (_, index) => ({ name: 'read', args: { index }, result: results[index % 5] }));
  rows.push({ item: '3', case: `check: 64 calls rotating 5 results of ${String(length / MIB)} MiB`, figure: timed(() => createGuard().check({ toolCalls: rotating })), limit: stepBudget });
  const shared: Record<string, number> = {};
  for (let index = 0; index < 200_000; index++) shared[`key${String(index)}`] = index;
  const sharing = Array.from({ length: 20 }, (_, index) => ({ name: 'write', args: shared, result: index }));
  rows.push({ item: '3', case: 'check: 20 calls sharing a 200,000-key object', figure: timed(() => createGuard().check({ toolCalls: sharing })), limit: stepBudget });
}

// Item 4: the replay command's peak memory, read by the process itself as it exits.
{
  const directory = mkdtempSync(join(tmpdir(), 'loopguard-hostile-bench-'));
  try {
    const config = join(directory, 'stops-nothing.json');
    writeFileSync(config, JSON.stringify({ maxSteps: false, finishReason: false, noProgress: false, repeatedToolCall: false, oscillation: false, stagnation: false }));
    const emptySteps = join(directory, 'empty-steps.jsonl.gz');
    writeFileSync(emptySteps, gzipSync(`{"steps":[${'{},'.repeat(Math.floor((MAX_LINE_BYTES - 20) / 3)).slice(0, -1)}]}\n`));
    const crowded = join(directory, 'crowded.jsonl');
    writeFileSync(crowded, `{"steps":[{"toolCalls":[{"name":"a","args":[${'{},'.repeat(MAX_INPUT_VALUES - 13).slice(0, -1)}]}]}]}\n`);
    const reportPeak = 'data:text/javascript,process.on("exit",()=>process.stderr.write("peak "+process.resourceUsage().maxRSS+"\\n"))';
    const limit = `a 768 MiB heap; ${String(MAX_LINE_BYTES / MIB)} MiB and ${String(MAX_INPUT_VALUES)} values a line, ${String(MAX_RUN_STEPS)} steps a run`;
    for (const [label, file] of [
      ['replay: the 64 MiB line of {} steps (65 KB gzipped), reported', emptySteps],
      ['replay: a line of 4,000,000 values, replayed', crowded],
    ] as const) {
      const started = performance.now();
      const result = spawnSync(process.execPath, ['--max-old-space-size=768', '--import', 'tsx', '--import', reportPeak, 'src/cli/bin.ts', 'replay', '--json', '--config', config, file], {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 64 * MIB,
      });
      const peak = /peak (\d+)/.exec(result.stderr)?.[1];
      const figure = peak === undefined ? `failed (exit ${String(result.status)})` : `${(Number(peak) / 1024).toFixed(0)} MB peak RSS, exit ${String(result.status)}, ${(performance.now() - started).toFixed(0)} ms`;
      rows.push({ item: '4', case: label, figure, limit });
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

// Item 6: evidence of a warning or stop costs no more than a step's calls.
{
  const window = QUICK ? 200 : 1_000;
  const guard = createGuard({ stagnation: { window, maxNew: 1 }, maxSteps: false, noProgress: false });
  const step = (index: number): Parameters<typeof guard.check>[0] => ({
    toolCalls: Array.from({ length: 200 }, (_, position) => ({ name: 'lookup', args: { id: index * 200 + position }, result: 'No results found.' })),
  });
  const before = timed(() => guard.check(step(0)));
  for (let index = 1; index < window - 1; index++) guard.check(step(index));
  const stopping = step(window - 1);
  const started = performance.now();
  const stopped = guard.check(stopping).stop;
  const figure = `${(performance.now() - started).toFixed(0)} ms`;
  const limit = `evidence from at most ${String(EVIDENCE_CALLS)} of the window's latest calls`;
  rows.push({ item: '6', case: `stagnation.window ${String(window)} x 200 calls: the stopping step${stopped ? '' : ' (did not stop!)'}`, figure: `${figure} (first step ${before})`, limit });
  const wide = createGuard({ maxSteps: false, noProgress: false });
  const many = (index: number): Parameters<typeof wide.check>[0] => ({
    toolCalls: Array.from({ length: 10_000 }, (_, position) => ({ name: 'lookup', args: { id: index * 10_000 + position }, result: 'No results found.' })),
  });
  for (let index = 0; index < 19; index++) wide.check(many(index));
  const last = many(19);
  rows.push({ item: '6', case: 'default window x 10,000 calls: the stopping step', figure: timed(() => wide.check(last)), limit });
}

console.log('| item | case | measured | limit (docs/limits.md) |');
console.log('| --- | --- | --- | --- |');
for (const row of rows) console.log(`| ${row.item} | ${row.case} | ${row.figure} | ${row.limit} |`);
