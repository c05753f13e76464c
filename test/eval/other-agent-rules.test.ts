import { describe, expect, it } from 'vitest';
import { cline, geminiCli, openHands, rooCode } from '../../eval/other-agent-rules.js';
import { createGuard, type CustomDetector, type GuardStep } from '../../src/index.js';
import { ALL_OFF } from '../support/step-builder.js';


/** 0-based index of the step the rule stops at, or null. */
function stopIndex(rule: CustomDetector, steps: readonly GuardStep[]): number | null {
  const guard = createGuard({ ...ALL_OFF, custom: rule });
  for (const [index, step] of steps.entries()) if (guard.check(step).stop) return index;
  return null;
}

const call = (name: string, args: unknown, result: unknown = 'ok', error?: unknown): GuardStep => ({
  toolCalls: [error === undefined ? { name, args, result } : { name, args, result, error }],
});
const same = (n: number, step: GuardStep): GuardStep[] => Array.from({ length: n }, () => step);
const cycle = (steps: GuardStep[], times: number): GuardStep[] => Array.from({ length: times }, () => steps).flat();

describe('Roo Code and Cline: identical calls in a row', () => {
  it('Roo Code stops at the 4th identical call, not the 3rd', () => {
    expect(stopIndex(rooCode, same(3, call('read', { path: 'a' })))).toBeNull();
    expect(stopIndex(rooCode, same(4, call('read', { path: 'a' })))).toBe(3);
  });

  it('Cline stops at the 5th identical call, not the 4th', () => {
    expect(stopIndex(cline, same(4, call('read', { path: 'a' })))).toBeNull();
    expect(stopIndex(cline, same(5, call('read', { path: 'a' })))).toBe(4);
  });

  it('key calls by name and JSON.stringify(args): other args or key order break the run', () => {
    const steps = [call('read', { a: 1, b: 2 }), call('read', { a: 1, b: 2 }), call('read', { b: 2, a: 1 }), call('read', { a: 1, b: 2 })];
    expect(stopIndex(rooCode, [...steps, call('read', { a: 1, b: 2 })])).toBeNull();
    expect(stopIndex(rooCode, [call('read', {}), call('grep', {}), call('read', {}), call('read', {})])).toBeNull();
  });

  it('count parallel calls of one step one by one', () => {
    const parallel: GuardStep = { toolCalls: same(2, call('read', 1)).flatMap((step) => step.toolCalls ?? []) };
    expect(stopIndex(rooCode, [parallel, parallel])).toBe(1);
    expect(stopIndex(rooCode, [parallel, { text: 'thinking' }, parallel])).toBe(2);
  });
});

describe('Gemini CLI: a cycle of 1 to 5 calls repeated 5 times', () => {
  it('stops at the 5th identical call', () => {
    expect(stopIndex(geminiCli, same(4, call('ls', '.')))).toBeNull();
    expect(stopIndex(geminiCli, same(5, call('ls', '.')))).toBe(4);
  });

  it('stops when a cycle of 5 calls completes its 5th round, not before', () => {
    const round = ['a', 'b', 'c', 'd', 'e'].map((name) => call(name, {}));
    expect(stopIndex(geminiCli, [...cycle(round, 4), ...round.slice(0, 4)])).toBeNull();
    expect(stopIndex(geminiCli, cycle(round, 5))).toBe(24);
  });

  it('ignores cycles longer than 5 calls', () => {
    const round = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => call(name, {}));
    expect(stopIndex(geminiCli, cycle(round, 6))).toBeNull();
  });
});

describe('OpenHands stuck detector', () => {
  it('stops on 4 identical action-observation pairs, not 3, and not when the observation changes', () => {
    expect(stopIndex(openHands, same(3, call('run', 'x', 'same')))).toBeNull();
    expect(stopIndex(openHands, same(4, call('run', 'x', 'same')))).toBe(3);
    expect(stopIndex(openHands, ['1', '2', '3', '4', '5'].map((result) => call('run', 'x', result)))).toBeNull();
  });

  it('stops on 3 identical actions that all failed, not 2, and not when one succeeded', () => {
    const failing = call('run', 'x', undefined, 'boom');
    expect(stopIndex(openHands, same(2, failing))).toBeNull();
    expect(stopIndex(openHands, [call('run', 'x', 'a', 'e1'), call('run', 'x', 'b', 'e2'), call('run', 'x', 'c', 'e3')])).toBe(2);
    expect(stopIndex(openHands, [call('run', 'x', 'a', 'e1'), call('run', 'x', 'b'), call('run', 'x', 'c', 'e3')])).toBeNull();
  });

  it('stops on 3 identical agent messages with no action, not on different ones or with an action between', () => {
    expect(stopIndex(openHands, same(3, { text: 'I will now fix it.' }))).toBe(2);
    expect(stopIndex(openHands, [{ text: 'a' }, { text: 'b' }, { text: 'a' }])).toBeNull();
    expect(stopIndex(openHands, [{ text: 'a' }, call('run', 'x'), { text: 'a' }, { text: 'a' }])).toBeNull();
  });

  it('stops on A B A B A B with alternating observations, not on 5 actions or changing observations', () => {
    const pair = [call('open', 'f', 'content'), call('close', 'f', 'closed')];
    expect(stopIndex(openHands, cycle(pair, 3))).toBe(5);
    expect(stopIndex(openHands, cycle(pair, 3).slice(0, 5))).toBeNull();
    const drifting = [0, 1, 2].flatMap((i) => [call('open', 'f', `content ${String(i)}`), call('close', 'f', 'closed')]);
    expect(stopIndex(openHands, drifting)).toBeNull();
  });
});
