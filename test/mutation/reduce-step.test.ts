import { describe, expect, it } from 'vitest';
import { reduceStep } from '../../src/guard/reduce-step.js';

describe('reduceStep keeps only what was given', () => {
  it('leaves out every field that was not supplied', () => {
    const reduced = reduceStep({});
    expect(reduced.step).toStrictEqual({});
    expect(Object.keys(reduced.step)).toEqual([]);
    expect(reduced).toStrictEqual({ step: {}, calls: [], finishReason: undefined });
  });

  it('leaves out fields that are unusable', () => {
    const reduced = reduceStep({ toolCalls: undefined, text: 5, finishReason: 7, usage: 5, durationMs: -1, timestamp: Infinity });
    expect(Object.keys(reduced.step)).toEqual([]);
  });

  it('does not invent usage from a non-object or a function', () => {
    expect(Object.keys(reduceStep({ usage: 'lots' }).step)).toEqual([]);
    expect(Object.keys(reduceStep({ usage: null }).step)).toEqual([]);
    expect(Object.keys(reduceStep({ usage: Object.assign(() => 1, { inputTokens: 3 }) }).step)).toEqual([]);
  });

  it('keeps only the usable usage figures, and an empty usage object when none is usable', () => {
    expect(reduceStep({ usage: { inputTokens: 3, outputTokens: Number.NaN, costUsd: 0 } }).step.usage).toStrictEqual({ inputTokens: 3, costUsd: 0 });
    expect(reduceStep({ usage: {} }).step.usage).toStrictEqual({});
  });

  it('keeps a finite timestamp and duration, zero included', () => {
    expect(reduceStep({ durationMs: 0, timestamp: 0 }).step).toStrictEqual({ durationMs: 0, timestamp: 0 });
    expect(reduceStep({ timestamp: -5 }).step).toStrictEqual({ timestamp: -5 });
  });

  it('records a call with only the fields it had', () => {
    const { step } = reduceStep({ toolCalls: [{ name: 'a' }, { name: 'b', args: 1 }, { name: 'c', result: 2 }, { name: 'd', error: null }] });
    expect(step.toolCalls).toStrictEqual([{ name: 'a' }, { name: 'b', args: 1 }, { name: 'c', result: 2 }, { name: 'd', error: null }]);
  });
});

describe('reduceStep call facts', () => {
  it('makes the outcome equal the signature when neither result nor error was supplied', () => {
    const [facts] = reduceStep({ toolCalls: [{ name: 'a', args: { q: 1 } }] }).calls;
    expect(facts?.outcome).toBe(facts?.signature);
    expect(facts?.failed).toBe(false);
  });

  it('treats a null error like no error at all', () => {
    const [withNull] = reduceStep({ toolCalls: [{ name: 'a', error: null }] }).calls;
    const [without] = reduceStep({ toolCalls: [{ name: 'a' }] }).calls;
    expect(withNull?.outcome).toBe(without?.outcome);
    expect(withNull?.failed).toBe(false);
  });

  it('adds the result and the error to the outcome, kept apart', () => {
    const [result] = reduceStep({ toolCalls: [{ name: 'a', result: 'x' }] }).calls;
    const [error] = reduceStep({ toolCalls: [{ name: 'a', error: 'x' }] }).calls;
    expect(result?.outcome).not.toBe(result?.signature);
    expect(error?.outcome).not.toBe(error?.signature);
    expect(result?.outcome).not.toBe(error?.outcome);
    expect(error?.failed).toBe(true);
  });
});
