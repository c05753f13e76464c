import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { USAGE } from '../../src/cli/arguments.js';
import { RUNS } from './support.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

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
});
