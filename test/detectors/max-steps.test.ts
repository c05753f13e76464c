import { describe, expect, it } from 'vitest';
import { createGuard } from '../../src/index.js';
import { ALL_OFF, text } from '../support/step-builder.js';

describe('maxSteps', () => {
  it('stops on the step that reaches the limit, not before', () => {
    const guard = createGuard({ ...ALL_OFF, maxSteps: 3 });
    expect(guard.check(text('a'))).toEqual({ stop: false });
    expect(guard.check(text('b'))).toEqual({ stop: false });
    expect(guard.check(text('c'))).toEqual({
      stop: true,
      reason: 'max-steps',
      code: 'MAX_STEPS',
      detail: 'The run has taken 3 steps, reaching its limit of 3.',
      evidence: { steps: 3, limit: 3 },
    });
  });

  it('defaults to 50 steps', () => {
    const guard = createGuard({ ...ALL_OFF, maxSteps: undefined });
    for (let i = 0; i < 49; i++) expect(guard.check({}).stop).toBe(false);
    expect(guard.check({})).toMatchObject({ stop: true, code: 'MAX_STEPS', evidence: { steps: 50, limit: 50 } });
  });

  it('counts steps with no usable data, and a limit of 1 stops the first step', () => {
    const guard = createGuard({ ...ALL_OFF, maxSteps: 1 });
    expect(guard.check({ toolCalls: 'none' as never, usage: null as never })).toMatchObject({
      stop: true,
      detail: 'The run has taken 1 step, reaching its limit of 1.',
      evidence: { steps: 1, limit: 1 },
    });
  });

  it('keeps stopping after the limit if the caller goes on', () => {
    const guard = createGuard({ ...ALL_OFF, maxSteps: 2 });
    guard.check({});
    guard.check({});
    expect(guard.check({})).toMatchObject({ stop: true, evidence: { steps: 3, limit: 2 } });
  });

  it('is switched off with false', () => {
    const guard = createGuard({ ...ALL_OFF });
    for (let i = 0; i < 200; i++) expect(guard.check({}).stop).toBe(false);
  });

  it('starts counting again after reset', () => {
    const guard = createGuard({ ...ALL_OFF, maxSteps: 2 });
    guard.check({});
    guard.reset();
    expect(guard.check({}).stop).toBe(false);
    expect(guard.check({}).stop).toBe(true);
  });

  it('reports its state in the summary', () => {
    const guard = createGuard({ ...ALL_OFF, maxSteps: 4 });
    guard.check({});
    expect(guard.summary().detectors['max-steps']).toEqual({ steps: 1, limit: 4 });
  });
});
