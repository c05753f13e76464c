import { describe, expect, it } from 'vitest';
import { createHashKey, hashOfKey } from '../../src/canonical/hash-key.js';
import { MAX_NORMALIZED_TEXT } from '../../src/guard/normalize-text.js';
import { reduceStep } from '../../src/guard/reduce-step.js';
import { LoadedStepFacts } from '../../src/guard/step-facts.js';
import type { GuardStep } from '../../src/index.js';

const hashKey = createHashKey();
const hash = hashOfKey(hashKey);
const totals = { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0, durationMs: 0 };

function load(step: GuardStep, elapsed: () => number = () => 0): LoadedStepFacts {
  const facts = new LoadedStepFacts({ history: () => [step], elapsed, totals, hashKey });
  facts.load(3, reduceStep(step, hashKey, 3));
  return facts;
}

describe('LoadedStepFacts', () => {
  it('keys short normalised texts as themselves and longer ones by length and hash', () => {
    expect(load({ text: '  Hello\n  WORLD ' }).textKey).toBe('=hello world');
    expect(load({}).textKey).toBe('=');
    const long = 'a'.repeat(300);
    expect(load({ text: long.toUpperCase() }).textKey).toBe(`=#300:${hash(long)}`);
  });

  it('keys a text too long to normalise by its own length and hash, and previews its normalised start', () => {
    const giant = `Start ${'x'.repeat(MAX_NORMALIZED_TEXT)}`;
    const facts = load({ text: giant });
    expect(facts.textKey).toBe(`#t${String(giant.length)}:${hash(giant)}`);
    expect(facts.textPreview).toBe(`start ${'x'.repeat(113)}…`);
    expect(facts.hasText).toBe(true);
  });

  it('tells blank text from text before and after normalising it', () => {
    const blank = load({ text: ' \n\t ' });
    expect(blank.hasText).toBe(false);
    expect(blank.textPreview).toBe('');
    expect(blank.hasText).toBe(false);
    const words = load({ text: 'Words' });
    expect(words.hasText).toBe(true);
    expect(words.textPreview).toBe('words');
    expect(words.hasText).toBe(true);
    expect(load({}).hasText).toBe(false);
  });

  it('reads the clock once per step, and counts a clock that is not a finite number as no time', () => {
    let reads = 0;
    const facts = load({}, () => ++reads * 10);
    expect(facts.elapsedMs).toBe(10);
    expect(facts.elapsedMs).toBe(10);
    expect(load({}, () => Number.NaN).elapsedMs).toBe(0);
    facts.load(4, reduceStep({}, hashKey, 4));
    expect(facts.elapsedMs).toBe(20);
  });

  it('exposes the step, its index, calls, finish reason and the rules history', () => {
    const step = { text: 'x', finishReason: 'stop', toolCalls: [{ name: 'a' }] };
    const facts = load(step);
    expect(facts.index).toBe(3);
    expect(facts.step).toEqual(step);
    expect(facts.calls.map((call) => call.name)).toEqual(['a']);
    expect(facts.finishReason).toBe('stop');
    expect(facts.history).toEqual([step]);
    expect(facts.totals).toBe(totals);
  });
});
