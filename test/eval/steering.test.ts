import { describe, expect, it } from 'vitest';
import type { RecordedRun } from '../../src/cli/read-runs.js';
import { DEFAULT_STUCK_STATUS } from '../../src/cli/replay.js';
import type { GuardStep } from '../../src/index.js';
import { addSteering, emptySteering, steerRun, sumSteering } from '../../eval/steering.js';

const HEADLINE = { maxSteps: false } as const;

const read = (path: string, result = 'same text'): GuardStep => ({ toolCalls: [{ name: 'read', args: { path }, result }] });

function run(steps: GuardStep[], resolved: boolean, exitStatus: string | null = null): RecordedRun {
  return { id: 'r', file: 'f', line: 1, outcome: { resolved, exitStatus }, steps };
}

describe('steerRun', () => {
  it('counts the warning before the stop and the call that would complete the repeat', () => {
    // Default repeatedToolCall: threshold 3, a warning at 2 in a row; judgeCall refuses the 3rd.
    const stuck = run([read('a'), read('a'), read('a'), read('a'), read('a')], false, 'exit_cost');
    expect(steerRun(stuck, HEADLINE, DEFAULT_STUCK_STATUS)).toEqual({ label: 'stuck', warnings: 1, calls: 3, refusedCalls: 1 });
  });

  it('in blocked mode, goes on past a refused call until the model asks for it again', () => {
    const stuck = run([read('a'), read('a'), read('a'), read('a'), read('a')], false, 'exit_cost');
    const steering = steerRun(stuck, HEADLINE, DEFAULT_STUCK_STATUS, 'blocked');
    expect(steering.refusedCalls).toBe(2);
    expect(steering.calls).toBe(4);
  });

  it('judges parallel calls after the earlier calls of their step', () => {
    const parallel: GuardStep = { toolCalls: [1, 2, 3].map(() => ({ name: 'read', args: { path: 'a' }, result: 'x' })) };
    expect(steerRun(run([parallel], true), HEADLINE, DEFAULT_STUCK_STATUS)).toMatchObject({ calls: 3, refusedCalls: 1 });
  });

  it('counts nothing on a run that makes progress, and no warning on the last step', () => {
    const healthy = run([read('a', '1'), read('b', '2'), read('c', '3'), { text: 'done', finishReason: 'stop' }], true);
    expect(steerRun(healthy, HEADLINE, DEFAULT_STUCK_STATUS)).toEqual({ label: 'healthy', warnings: 0, calls: 3, refusedCalls: 0 });
    // Two identical calls warn; on the run's last step the warning is moot and not counted.
    expect(steerRun(run([read('a'), read('a')], true), HEADLINE, DEFAULT_STUCK_STATUS).warnings).toBe(0);
    expect(steerRun(run([read('a'), read('a'), read('b', 'new')], true), HEADLINE, DEFAULT_STUCK_STATUS).warnings).toBe(1);
  });

  it('reads steps without a tool-call array as steps without calls', () => {
    const odd = run([{ toolCalls: 'nope' } as unknown as GuardStep, { text: 'hi' }], null as unknown as boolean);
    expect(steerRun(odd, HEADLINE, DEFAULT_STUCK_STATUS)).toEqual({ label: null, warnings: 0, calls: 0, refusedCalls: 0 });
  });
});

describe('steering totals', () => {
  it('add runs per label, leave unlabelled runs out, and sum sources', () => {
    const totals = emptySteering();
    addSteering(totals, { label: 'stuck', warnings: 2, calls: 10, refusedCalls: 1 });
    addSteering(totals, { label: 'stuck', warnings: 0, calls: 5, refusedCalls: 0 });
    addSteering(totals, { label: 'healthy', warnings: 1, calls: 3, refusedCalls: 0 });
    addSteering(totals, { label: null, warnings: 9, calls: 9, refusedCalls: 9 });
    expect(totals.stuck).toEqual({ runs: 2, runsWarned: 1, warnings: 2, runsRefused: 1, refusedCalls: 1, calls: 15 });
    expect(totals.healthy).toEqual({ runs: 1, runsWarned: 1, warnings: 1, runsRefused: 0, refusedCalls: 0, calls: 3 });
    const sum = sumSteering([totals, totals]);
    expect(sum.stuck.calls).toBe(30);
    expect(sum.ambiguous.runs).toBe(0);
  });
});
