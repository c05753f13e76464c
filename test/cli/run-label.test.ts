import { describe, expect, it } from 'vitest';
import { labelRun } from '../../src/cli/run-label.js';

describe('labelRun', () => {
  it.each([
    [null, null],
    [{ resolved: null, exitStatus: 'exit_cost' }, null],
    [{ resolved: true, exitStatus: 'submitted (exit_cost)' }, 'healthy'],
    [{ resolved: true, exitStatus: null }, 'healthy'],
    [{ resolved: false, exitStatus: 'exit_cost' }, 'stuck'],
    [{ resolved: false, exitStatus: 'submitted (exit_cost)' }, 'stuck'],
    [{ resolved: false, exitStatus: 'exit_context' }, 'ambiguous'],
    [{ resolved: false, exitStatus: null }, 'ambiguous'],
  ] as const)('labels %j as %s', (outcome, label) => {
    expect(labelRun(outcome)).toBe(label);
  });
});
