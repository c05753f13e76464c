import { describe, expect, it } from 'vitest';
import { createGuard, type GuardStep } from '../../src/index.js';
import { MAX_NORMALIZED_TEXT } from '../../src/utils/text.js';
import { ALL_OFF, call, calls, factsOf } from '../support/step-builder.js';

const HASHED = /^[0-9a-f]{28}$/;

describe('the facts of a step, as detectors read them', () => {
  it('hold the step as recorded, its index, its calls, its finish reason, the totals and the history', () => {
    const step: GuardStep = { text: 'x', finishReason: 'stop', toolCalls: [{ name: 'a' }, { name: 'b', blocked: true }] };
    const totals = { inputTokens: 1, outputTokens: 2, totalTokens: 3, costUsd: 4, durationMs: 5 };
    const facts = factsOf(step, 3, totals, 17);
    expect(facts.index).toBe(3);
    expect(facts.step).toEqual(step);
    expect(Object.isFrozen(facts.step)).toBe(true);
    // A refused call is in the step, not among the calls that ran.
    expect(facts.calls.map((entry) => entry.name)).toEqual(['a']);
    expect(facts.finishReason).toBe('stop');
    expect(facts.history).toEqual([step]);
    expect(facts.totals).toEqual(totals);
    expect(facts.elapsedMs).toBe(17);
  });

  it('read a finish reason only when it is a string', () => {
    expect(factsOf({ finishReason: 7 } as unknown as GuardStep).finishReason).toBeUndefined();
    expect(factsOf({}).finishReason).toBeUndefined();
    expect(factsOf({ finishReason: '' }).finishReason).toBe('');
  });

  describe('text', () => {
    it('is keyed by its normalised form: as itself when short, by length and hash when longer', () => {
      expect(factsOf({ text: '  Hello\n  WORLD ' }).textKey).toBe('=hello world');
      expect(factsOf({}).textKey).toBe('=');
      expect(factsOf({ text: ' \n ' }).textKey).toBe('=');
      expect(factsOf({ text: 'x'.repeat(256) }).textKey).toBe(`=${'x'.repeat(256)}`);
      const long = factsOf({ text: 'A'.repeat(257) }).textKey;
      expect(long.slice(0, 6)).toBe('=#257:');
      expect(long.slice(6)).toMatch(HASHED);
      expect(factsOf({ text: ` ${'a'.repeat(257)}\n` }).textKey).toBe(long);
      expect(factsOf({ text: 'b'.repeat(257) }).textKey).not.toBe(long);
    });

    it('compares a step text holding 1 MB of whitespace as one space, so noProgress sees the repeat', () => {
      const whitespace = ' \t\n\r\u00a0\u2003'.repeat((1024 * 1024) / 6);
      expect(factsOf({ text: `Same${whitespace}TEXT` }).textKey).toBe('=same text');
      const guard = createGuard({ ...ALL_OFF, noProgress: { threshold: 2, warnBefore: false } });
      expect(guard.check({ text: `Same${whitespace}text` })).toEqual({ stop: false });
      expect(guard.check({ text: ' same text ' })).toMatchObject({ stop: true, reason: 'no-progress', evidence: { steps: 2, textPreview: 'same text' } });
    });

    it('too long to normalise, is keyed exactly by its own length and hash, and previewed by its normalised start', () => {
      const giant = `Start ${'x'.repeat(MAX_NORMALIZED_TEXT)}`;
      const facts = factsOf({ text: giant });
      expect(facts.textKey).toMatch(new RegExp(`^#t${String(giant.length)}:[0-9a-f]{28}$`));
      expect(factsOf({ text: giant.toLowerCase() }).textKey).not.toBe(facts.textKey);
      expect(facts.textPreview).toBe(`start ${'x'.repeat(113)}…`);
      expect(facts.hasText).toBe(true);
      // One character shorter, it is normalised whole.
      const whole = 'X'.repeat(MAX_NORMALIZED_TEXT);
      expect(factsOf({ text: whole }).textKey).toMatch(new RegExp(`^=#${String(MAX_NORMALIZED_TEXT)}:[0-9a-f]{28}$`));
      expect(factsOf({ text: whole.toLowerCase() }).textKey).toBe(factsOf({ text: whole }).textKey);
    });

    it('tells blank text from text, and previews the normalised text', () => {
      const blank = factsOf({ text: ' \n\t ' });
      expect([blank.hasText, blank.textPreview]).toEqual([false, '']);
      const words = factsOf({ text: ' Some\nWords ' });
      expect([words.hasText, words.textPreview]).toEqual([true, 'some words']);
      expect(factsOf({}).hasText).toBe(false);
      expect(factsOf({ text: 'y'.repeat(200) }).textPreview).toBe(`${'y'.repeat(119)}…`);
    });
  });

  describe('newness', () => {
    const found = (id: number, result = 'ok'): ReturnType<typeof call> => call('lookup', { id }, { result });

    it('says per call whether its outcome is new to the run and to the calls of the step before it', () => {
      expect(factsOf(calls(found(1), found(1), found(2), found(1, 'other'))).newOutcomes).toEqual([true, false, true, true]);
      expect(factsOf({ text: 'no calls' }).newOutcomes).toEqual([]);
    });

    it('says an answer a detector asks about is new to a run that remembers none', () => {
      expect(factsOf({}).isNewAnswer('anything')).toBe(true);
    });

    it('keys a text as the run compares it: itself when short, its length and keyed hash when long', () => {
      const facts = factsOf({});
      expect(facts.keyOf('short')).toBe('short');
      const key = facts.keyOf('k'.repeat(300));
      expect(key.slice(0, 5)).toBe('#300:');
      expect(key.slice(5)).toMatch(HASHED);
      expect(factsOf({}, 9).keyOf('k'.repeat(300))).toBe(key);
    });
  });
});

describe('the clock', () => {
  it('is read when a step is checked only when a duration budget asks how long the run has taken', () => {
    let reads = 0;
    const now = (): number => ++reads * 10;
    const timed = createGuard({ ...ALL_OFF, budget: { maxDurationMs: 1_000 }, now });
    // Once to see that it can be called, once for the run's start.
    expect(reads).toBe(2);
    expect(timed.check({})).toEqual({ stop: false });
    expect(reads).toBe(3);
    const untimed = createGuard({ ...ALL_OFF, budget: { maxCostUsd: 1 }, repeatedToolCall: {}, now });
    expect(reads).toBe(5);
    untimed.check({ toolCalls: [{ name: 'a' }] });
    expect(reads).toBe(5);
  });
});
