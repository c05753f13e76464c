import { describe, expect, it } from 'vitest';
import { toRecordedRun } from '../../src/cli/recorded-run.js';

const place = { file: 'runs.jsonl', line: 7, fallbackId: 'runs.jsonl:7' };

describe('toRecordedRun', () => {
  it('keeps id, outcome and steps, and records where the run was read', () => {
    const steps = [{ text: 'a' }, { toolCalls: [] }];
    expect(toRecordedRun({ id: 'r1', outcome: { resolved: true, exitStatus: 'Submitted' }, steps, extra: 1 }, place)).toEqual({
      id: 'r1',
      file: 'runs.jsonl',
      line: 7,
      outcome: { resolved: true, exitStatus: 'Submitted' },
      steps,
    });
  });

  it('uses the fallback id, turns a numeric id into text, and reads absent or null outcome fields as null', () => {
    expect(toRecordedRun({ steps: [] }, place)).toMatchObject({ id: 'runs.jsonl:7', outcome: null });
    expect(toRecordedRun({ id: 12, steps: [], outcome: null }, place)).toMatchObject({ id: '12', outcome: null });
    expect(toRecordedRun({ steps: [], outcome: {} }, place)).toMatchObject({ outcome: { resolved: null, exitStatus: null } });
    expect(toRecordedRun({ steps: [], outcome: { resolved: false, exitStatus: null } }, place)).toMatchObject({
      outcome: { resolved: false, exitStatus: null },
    });
  });

  it.each([
    [null, 'expected a run object with a "steps" array, got null'],
    [[1], 'expected a run object with a "steps" array, got an array'],
    ['run', 'expected a run object with a "steps" array, got a string'],
    [{}, '"steps" must be an array, got undefined'],
    [{ steps: {} }, '"steps" must be an array, got an object'],
    [{ steps: [{}, 3] }, 'step 1 must be an object, got a number'],
    [{ steps: [[]] }, 'step 0 must be an object, got an array'],
    [{ steps: [], id: true }, '"id" must be a string, got a boolean'],
    [{ steps: [], outcome: 'ok' }, '"outcome" must be an object, got a string'],
    [{ steps: [], outcome: { resolved: 'yes' } }, '"outcome.resolved" must be true, false or null, got a string'],
    [{ steps: [], outcome: { resolved: true, exitStatus: 3 } }, '"outcome.exitStatus" must be a string or null, got a number'],
  ])('rejects %j: %s', (value, message) => {
    expect(toRecordedRun(value, place)).toBe(message);
  });
});
