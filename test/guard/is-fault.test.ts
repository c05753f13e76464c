import { describe, expect, it } from 'vitest';
import { createGuard, isFault } from '../../src/index.js';
import type { StopVerdict } from '../../src/index.js';
import { ALL_OFF, text, tool } from '../support/step-builder.js';

describe('isFault', () => {
  it('is false for a continue verdict', () => {
    expect(isFault({ stop: false })).toBe(false);
  });

  it('is false when the model finished normally with stop, in any spelling', () => {
    expect(isFault(createGuard().check(text('Done.', 'stop')))).toBe(false);
    expect(isFault(createGuard().check(text('Done.', ' STOP ')))).toBe(false);
  });

  it.each(['length', 'content-filter', 'error'])('is true for the terminal reason %s', (reason) => {
    expect(isFault(createGuard().check(text('x', reason)))).toBe(true);
  });

  it('is true for a "stop" that a custom terminal list does not contain', () => {
    const verdict = createGuard({ finishReason: { terminal: ['length'], otherPolicy: 'stop' } }).check(text('x', 'stop'));
    expect(verdict).toMatchObject({ code: 'FINISH_OTHER' });
    expect(isFault(verdict)).toBe(true);
  });

  it('is true for every other kind of stop', () => {
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: {} });
    guard.check(tool('a'));
    guard.check(tool('a'));
    expect(isFault(guard.check(tool('a')))).toBe(true);
    expect(isFault(createGuard({ maxSteps: 1 }).check({}))).toBe(true);
    expect(isFault(createGuard().check(text('x', 'other')))).toBe(true);
  });
});

describe('isFault', () => {
  it('only treats the finish-reason detector’s own clean stop as no fault, not a custom rule borrowing its code', () => {
    const borrowed = {
      stop: true,
      reason: 'custom',
      code: 'FINISH_TERMINAL',
      detail: 'looks like a clean stop',
      evidence: { normalized: 'stop' },
    } as StopVerdict;
    expect(isFault(borrowed)).toBe(true);
    const guard = createGuard({ ...ALL_OFF, custom: () => ({ stop: true, code: 'FINISH_TERMINAL', evidence: { normalized: 'stop' } }) });
    expect(isFault(guard.check({}))).toBe(true);
  });
});
