import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { USAGE } from '../../src/cli/arguments.js';
import { RUNS, useTempDir } from './support.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const at = useTempDir('loopguard-bin-');

describe('the agent-loopguard bin', () => {
  it('passes the process arguments to main and sets the exit code from it', async () => {
    const argv = process.argv;
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    process.argv = [process.execPath, 'agent-loopguard', '--bogus'];
    try {
      await import('../../src/cli/bin.js');
      expect(process.exitCode).toBe(2);
      expect(stdout).not.toHaveBeenCalled();
      expect(stderr).toHaveBeenCalledTimes(1);
      const written = String(stderr.mock.calls[0]?.[0]);
      expect(written).toBe(`agent-loopguard: unknown option "--bogus"\n\n${USAGE}`);
    } finally {
      process.argv = argv;
      process.exitCode = undefined;
      stdout.mockRestore();
      stderr.mockRestore();
    }
  });

  it('runs as its own process (through tsx), with output on stdout, errors on stderr and exit code 1 for bad input', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'replay', '--json', RUNS, 'no-such-file.jsonl'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^no-such-file\.jsonl: cannot read: ENOENT/);
    const report = JSON.parse(result.stdout) as { runs: unknown[]; summary: { runs: number; stopped: number } };
    expect(report.runs).toHaveLength(5);
    expect(report.summary).toMatchObject({ runs: 5, stopped: 3 });
  });

  it('still prints the summary and exits 1 when stderr is closed (EPIPE) while it reports bad lines', async () => {
    writeFileSync(at('bad.jsonl'), Array.from({ length: 2000 }, (_, i) => `not json ${String(i)}`).join('\n'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'replay', at('bad.jsonl'), RUNS], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr.destroy();
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stdout).toContain('\n\nruns: 5, stopped: 3, fault stops: 2\n');
    expect(stdout.endsWith('\nbad input: 2,000 (reported on stderr)\n')).toBe(true);
  });
});
