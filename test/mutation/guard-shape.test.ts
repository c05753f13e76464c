import { describe, expect, it } from 'vitest';
import { createGuard, isFault } from '../../src/index.js';
import type { StopVerdict } from '../../src/index.js';
import { preview, PREVIEW_LENGTH } from '../../src/guard/normalize-text.js';
import { ALL_OFF } from '../support/step-builder.js';


describe('a switched-off detector is absent, not merely quiet', () => {
  it.each([
    ['maxSteps', 'max-steps'],
    ['repeatedToolCall', 'repeated-tool-call'],
    ['oscillation', 'oscillation'],
    ['noProgress', 'no-progress'],
    ['finishReason', 'finish-reason'],
    ['budget', 'budget'],
  ] as const)('%s: false leaves %s out of the summary', (option, kind) => {
    const guard = createGuard({ [option]: false });
    expect(Object.keys(guard.summary().detectors)).not.toContain(kind);
    expect(Object.keys(createGuard().summary().detectors)).toContain(kind);
  });

  it('finishReason: false does not stop a text-only step with an unfamiliar reason', () => {
    const guard = createGuard({ ...ALL_OFF });
    expect(guard.check({ text: 'Here is the answer.', finishReason: 'weird' })).toStrictEqual({ stop: false });
  });

  it('with everything off, the summary lists no detectors', () => {
    expect(createGuard(ALL_OFF).summary().detectors).toStrictEqual({});
  });
});

describe('verdicts carry exactly their documented keys', () => {
  it('a continue verdict without warnings is exactly { stop: false }', () => {
    const verdict = createGuard().check({ text: 'x' });
    expect(verdict).toStrictEqual({ stop: false });
    expect(Object.keys(verdict)).toEqual(['stop']);
  });

  it('a stop verdict without warnings has no warnings key', () => {
    const verdict = createGuard({ maxSteps: 1 }).check({});
    expect(Object.keys(verdict).sort()).toEqual(['code', 'detail', 'evidence', 'reason', 'stop']);
  });
});

describe('custom verdict defaults', () => {
  it.each([
    ['no code or detail', {}],
    ['empty strings', { code: '', detail: '' }],
    ['non-string values', { code: 42, detail: { text: 'x' } }],
  ])('fills in the defaults for %s', (_label, fields) => {
    const guard = createGuard({ ...ALL_OFF, custom: () => ({ stop: true, ...fields }) as never });
    expect(guard.check({})).toStrictEqual({
      stop: true,
      reason: 'custom',
      code: 'CUSTOM',
      detail: 'A custom detector stopped the run.',
      evidence: {},
    });
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

describe('preview', () => {
  it('keeps text of exactly the preview length whole, and shortens one character more', () => {
    const exact = 'x'.repeat(PREVIEW_LENGTH);
    expect(preview(exact)).toBe(exact);
    const longer = `${exact}y`;
    expect(preview(longer)).toBe(`${'x'.repeat(PREVIEW_LENGTH - 1)}…`);
    expect(preview(longer)).toHaveLength(PREVIEW_LENGTH);
  });
});
