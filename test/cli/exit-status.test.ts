import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseArguments } from '../../src/cli/arguments.js';
import { EXIT_BAD_INPUT, EXIT_FAULT_STOPS, EXIT_OK, EXIT_USAGE, main } from '../../src/cli/main.js';
import { captureIo, RUNS, SYNTHETIC, useTempDir } from './support.js';

const at = useTempDir('loopguard-exit-');

async function exitStatus(...argv: string[]): Promise<{ code: number; stderr: string }> {
  const capture = captureIo();
  const code = await main(argv, capture.io);
  return { code, stderr: capture.stderr() };
}

/** A JSON-lines file of runs, each given by its steps. */
function runsFile(name: string, ...runs: readonly (readonly object[])[]): string {
  writeFileSync(at(name), runs.map((steps, index) => JSON.stringify({ id: `run-${String(index)}`, steps })).join('\n'));
  return at(name);
}

const loop = Array.from({ length: 4 }, () => ({ toolCalls: [{ name: 'search', args: { query: 'same' }, result: 'none' }] }));
const finishes = [{ toolCalls: [{ name: 'search', args: { query: 'a' }, result: 1 }] }, { text: 'Done.', finishReason: 'stop' }];

describe('agent-loopguard replay exit status', () => {
  it('names its statuses 0, 1, 2 and 3', () => {
    expect([EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE, EXIT_FAULT_STOPS]).toEqual([0, 1, 2, 3]);
  });

  it('with --fail-on-fault: 0 when no run was stopped, or only by a normal finish; 3 when one fault stop was found', async () => {
    const quiet = runsFile('quiet.jsonl', [{ text: 'hello' }], finishes);
    const faulty = runsFile('faulty.jsonl', finishes, loop);
    expect(await exitStatus('replay', '--fail-on-fault', quiet)).toEqual({ code: 0, stderr: '' });
    expect(await exitStatus('replay', '--fail-on-fault', faulty)).toEqual({ code: 3, stderr: '' });
    expect(await exitStatus('replay', '--json', faulty, '--fail-on-fault')).toEqual({ code: 3, stderr: '' });
    expect((await exitStatus('replay', '--fail-on-fault', RUNS, SYNTHETIC)).code).toBe(3);
  });

  it('without --fail-on-fault, stays 0 when fault stops were found, as before the option existed', async () => {
    expect((await exitStatus('replay', runsFile('faulty-plain.jsonl', loop))).code).toBe(0);
  });

  it('input errors outrank fault stops: 1 when a line could not be read, whatever the runs that were read', async () => {
    writeFileSync(at('broken.jsonl'), `${JSON.stringify({ id: 'looping', steps: loop })}\nnot json\n`);
    const result = await exitStatus('replay', '--fail-on-fault', at('broken.jsonl'));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/broken\.jsonl:2: /);
  });

  it('refuses a value for the flag as a usage error (2)', async () => {
    expect((await exitStatus('replay', '--fail-on-fault=yes', RUNS)).code).toBe(2);
    expect(parseArguments(['replay', '--fail-on-fault=yes', 'a.jsonl'])).toEqual({ kind: 'usage-error', message: 'option "--fail-on-fault" takes no value' });
  });

  it('reads the flag anywhere on the command line, and leaves the request without it when not given', () => {
    expect(parseArguments(['--fail-on-fault', 'replay', 'a.jsonl'])).toMatchObject({ kind: 'replay', failOnFault: true, files: ['a.jsonl'] });
    expect(Object.keys(parseArguments(['replay', 'a.jsonl']))).not.toContain('failOnFault');
  });
});
