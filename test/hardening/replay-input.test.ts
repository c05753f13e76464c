/**
 * Issue 29, items 4 and 7: the replay command's memory stays bounded on any file, and its numeric run ids keep their
 * digits; a reordered `finishReason.terminal` list does not refuse a snapshot. The red team's memory case: one 64 MiB
 * line of `{}` steps, gzipped to 65 KB, with a config that stops nothing, took 3.83 GB and ran out of memory under a
 * 2 GiB heap. Here the command runs as its own process with a heap of 768 MiB, the bound docs/limits.md states.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { countJsonValues, DEFAULT_READ_LIMITS, MAX_INPUT_VALUES, MAX_RUN_STEPS, rawNumberIds, readRuns, type ReadLimits } from '../../src/cli/read-runs.js';
import { createGuard, type GuardSnapshot } from '../../src/index.js';
import { useTempDir } from '../cli/support.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const at = useTempDir('loopguard-hardening-');

/** The heap the command is held to: the bound of docs/limits.md. */
const HEAP_MIB = 768;

/** Every detector off: the command replays every step of every run. */
const STOPS_NOTHING = { maxSteps: false, finishReason: false, noProgress: false, repeatedToolCall: false, oscillation: false, stagnation: false };

interface Report {
  readonly runs: readonly { readonly id: string; readonly steps: number }[];
  readonly errors?: readonly { readonly line: number | null; readonly message: string }[];
}

/** The command on `file` in a process of its own with a heap of {@link HEAP_MIB}: its exit status and JSON report. */
function replayAlone(file: string): { status: number | null; report: Report; stderr: string } {
  const config = at('stops-nothing.json');
  writeFileSync(config, JSON.stringify(STOPS_NOTHING));
  const result = spawnSync(process.execPath, [`--max-old-space-size=${String(HEAP_MIB)}`, '--import', 'tsx', 'src/cli/bin.ts', 'replay', '--json', '--config', config, file], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  return { status: result.status, report: JSON.parse(result.stdout || '{"runs":[]}') as Report, stderr: result.stderr };
}

describe('the replay command on hostile files, issue 29 item 4', () => {
  it(`reports the red team's 64 MiB line of {} steps (65 KB gzipped) without parsing it, within a ${String(HEAP_MIB)} MiB heap`, () => {
    const steps = '{},'.repeat(Math.floor((64 * 1024 * 1024 - 20) / 3)).slice(0, -1);
    const file = at('empty-steps.jsonl.gz');
    writeFileSync(file, gzipSync(`{"steps":[${steps}]}\n`));
    const { status, report, stderr } = replayAlone(file);
    expect(status).toBe(1);
    expect(report.runs).toEqual([]);
    expect(report.errors).toEqual([{ file, line: 1, message: `the line holds more than ${String(MAX_INPUT_VALUES)} JSON values` }]);
    expect(stderr).toBe(`${file}:1: the line holds more than ${String(MAX_INPUT_VALUES)} JSON values\n`);
  });

  it(`replays a line of exactly ${String(MAX_INPUT_VALUES)} values, all but 13 in one call's arguments, within the same heap`, () => {
    const file = at('crowded-arguments.jsonl');
    // Besides the objects, the line holds 13 values: the run, the step, the call, two arrays, five keys and three strings.
    const objects = MAX_INPUT_VALUES - 13;
    writeFileSync(file, `{"id":"crowded","steps":[{"toolCalls":[{"name":"a","args":[${'{},'.repeat(objects).slice(0, -1)}]}]}]}\n`);
    const { status, report } = replayAlone(file);
    expect(status).toBe(0);
    expect(report.runs).toMatchObject([{ id: 'crowded', steps: 1 }]);
  });

  it(`does not replay a run of more than ${String(MAX_RUN_STEPS)} steps, and replays one of exactly that many`, async () => {
    const file = at('long-runs.jsonl');
    const run = (id: string, steps: number): string => `{"id":"${id}","steps":[${'{},'.repeat(steps).slice(0, -1)}]}`;
    writeFileSync(file, `${run('longest', MAX_RUN_STEPS)}\n${run('too-long', MAX_RUN_STEPS + 1)}\n`);
    const items = [];
    for await (const item of readRuns(file)) items.push(item.run?.steps.length ?? item.error);
    expect(items).toEqual([MAX_RUN_STEPS, { file, line: 2, message: `a run of ${String(MAX_RUN_STEPS + 1)} steps; at most ${String(MAX_RUN_STEPS)} are replayed` }]);
  });

  // In this process, with a small cap, so the boundary is exact and the test stays quick; the cases above hold the
  // command's own cap in a process of its own.
  const CAP: ReadLimits = { ...DEFAULT_READ_LIMITS, maxValues: 100 };

  it('reads a JSON-lines line of exactly the cap of values, reports one of more, and goes on to the next line', async () => {
    const file = at('crowded-line.jsonl');
    // The run, its id key and string, its steps key and array: 5 values besides the steps.
    const line = (id: string, steps: number): string => `{"id":"${id}","steps":[${'{},'.repeat(steps).slice(0, -1)}]}`;
    writeFileSync(file, `${line('full', 95)}\n${line('crowded', 96)}\n{"id":"next","steps":[{}]}\n`);
    const items = [];
    for await (const item of readRuns(file, CAP)) items.push(item.run?.id ?? item.error);
    expect(items).toEqual(['full', { file, line: 2, message: 'the line holds more than 100 JSON values' }, 'next']);
  });

  it('reads a .json document of exactly the cap of values, and reports one of more without parsing it', async () => {
    const full = at('full.json');
    const crowded = at('crowded.json');
    // The array of steps is one value besides its steps.
    writeFileSync(full, `[${'{},'.repeat(99).slice(0, -1)}]`);
    writeFileSync(crowded, `[${'{},'.repeat(100).slice(0, -1)}]`);
    const items = [];
    for (const file of [full, crowded]) for await (const item of readRuns(file, CAP)) items.push(item.run?.steps.length ?? item.error);
    expect(items).toEqual([99, { file: crowded, line: null, message: 'the document holds more than 100 JSON values' }]);
  });

  it('counts values without parsing: strings with quotes and brackets inside, numbers, words, keys', () => {
    expect(countJsonValues('{"a":[1,-2.5e+3,true,null,"x\\"]{["],{}]}', 100)).toBe(9);
    expect(countJsonValues('[]', 100)).toBe(1);
    expect(countJsonValues('[0,0,0,0,0]', 3)).toBe(4);
  });
});

describe('run ids and terminal reasons, issue 29 item 7', () => {
  it('keeps every digit of a numeric run id, in JSON lines and in a document of runs', async () => {
    const lines = at('numeric-ids.jsonl');
    writeFileSync(lines, '{"id":12345678901234567890,"steps":[]}\n{"steps":[{"text":"\\"id\\":5"}],"id": 12345678901234567891}\n{"id":7,"steps":[]}\n');
    const document = at('numeric-ids.json');
    writeFileSync(document, '[{"id":12345678901234567890,"steps":[]},{"steps":[],"id":"12345678901234567891"},{"steps":[{"id":1}],"id":1.50}]');
    const ids = async (file: string): Promise<(string | undefined)[]> => {
      const read = [];
      for await (const item of readRuns(file)) read.push(item.run?.id);
      return read;
    };
    expect(await ids(lines)).toEqual(['12345678901234567890', '12345678901234567891', '7']);
    expect(await ids(document)).toEqual(['12345678901234567890', '12345678901234567891', '1.50']);
    const single = at('numeric-id.json');
    writeFileSync(single, '{"steps":[{"id":3}],"id":12345678901234567893}');
    expect(await ids(single)).toEqual(['12345678901234567893']);
    expect(rawNumberIds('{"steps":[{"id":5}],"x":{"id":6},"id":-1e400}', false)).toEqual(new Map([[0, '-1e400']]));
  });

  it('restores a snapshot under the same terminal reasons in another order or listed twice, and refuses another set', () => {
    const saved = createGuard({ finishReason: { terminal: ['error', 'stop', 'done'] } }).snapshot();
    expect(() => createGuard({ finishReason: { terminal: ['stop', 'done', 'error', 'stop'] } }, { snapshot: saved })).not.toThrow();
    expect(() => createGuard({ finishReason: { terminal: ['stop', 'error'] } }, { snapshot: saved })).toThrow(
      new TypeError('agent-loopguard: the snapshot was taken under other options: "finishReason.terminal" differs. Restore it with the options it was taken with.'),
    );
  });

  it('ties a snapshot with the default reasons to what it was tied to before: the defaults keep their order', () => {
    const defaults = createGuard().snapshot() as GuardSnapshot & { options: Record<string, string> };
    const listed = createGuard({ finishReason: { terminal: ['error', 'content-filter', 'length', 'stop'] } }).snapshot() as GuardSnapshot & { options: Record<string, string> };
    // The fingerprint of the default list as the version before this one wrote it.
    expect(defaults.options['finishReason.terminal']).toBe('d80bf3160a2c');
    expect(listed.options['finishReason.terminal']).toBe('d80bf3160a2c');
  });
});
