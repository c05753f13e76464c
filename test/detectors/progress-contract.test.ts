/**
 * Repetition that knows progress, through the detector contract: `check(state, facts, options)` on frozen states, with
 * facts of calls that ran and of calls that have not (`pending`, as `judgeCall` builds them).
 */
import { describe, expect, it } from 'vitest';
import { keyedHash } from '../../src/canonical/hash.js';
import type { Detector, StepFacts } from '../../src/detectors/detector.js';
import { noProgress } from '../../src/detectors/no-progress.js';
import { oscillation } from '../../src/detectors/oscillation.js';
import { repeatedToolCall } from '../../src/detectors/repeated-tool-call.js';
import { stagnation } from '../../src/detectors/stagnation.js';
import { readStep } from '../../src/guard/read-step.js';
import { RunMemory } from '../../src/guard/run-memory.js';
import { Facts } from '../../src/guard/step-facts.js';
import { resolveTools } from '../../src/guard/tools.js';
import type { GuardStep, GuardToolCall } from '../../src/index.js';
import { call, TEST_HASH_KEY } from '../support/step-builder.js';

const hash = keyedHash(TEST_HASH_KEY);

/** Facts of one step with these calls, as run (`pending: false`) or as asked about before running. */
function factsOf(toolCalls: GuardToolCall[], index: number, pending = false, tools?: unknown): StepFacts {
  const read = readStep({ toolCalls } satisfies GuardStep, hash, index, resolveTools(tools));
  return new Facts(read, index, { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0, durationMs: 0 }, {
    hash,
    history: () => [read.step],
    elapsedMs: () => 0,
    outcomes: new RunMemory(undefined),
    answers: new RunMemory(undefined),
  }, pending);
}

/** Runs a detector over steps, freezing every state it is handed, and returns each judgement. */
function judge<Options, State>(detector: Detector<never, Options, State> | Detector, options: unknown, steps: readonly StepFacts[]) {
  const typed = detector as Detector;
  let state = typed.start(options);
  return steps.map((facts) => {
    const judgement = typed.check(Object.freeze(state), facts, options);
    state = judgement.state;
    return { judgement, state };
  });
}

const build = (output: string): GuardToolCall => call('bash', { command: 'make' }, { result: output });

describe('repeatedToolCall through the contract', () => {
  const options = repeatedToolCall.resolve({});

  it('counts only answers that repeat (N - 1 continue, N stop) and never changes the state it is given', () => {
    const steps = ['ok (1 s)', 'ok (2 s)', 'ok (3 s)'].map((output, index) => factsOf([build(output)], index));
    const judged = judge(repeatedToolCall, options, steps);
    expect(judged.map(({ judgement }) => judgement.stop?.code)).toEqual([undefined, undefined, 'REPEATED_TOOL_CALL']);
    expect(judged.map(({ state }) => (state as { run: { count: number } }).run.count)).toEqual([1, 2, 3]);
    const changed = judge(repeatedToolCall, options, ['ok', 'ok', 'failed: no rule'].map((output, index) => factsOf([build(output)], index)));
    expect(changed.map(({ state }) => (state as { run: { count: number } }).run.count)).toEqual([1, 2, 1]);
  });

  it('predicts that a call not yet run gets the answer the same call got last, and a new call gets none', () => {
    const ran = judge(repeatedToolCall, options, [factsOf([build('ok')], 0), factsOf([build('ok')], 1)]);
    const state = Object.freeze(ran[1]?.state);
    const asked = repeatedToolCall.check(state as never, factsOf([call('bash', { command: 'make' })], 2, true), options as never);
    expect(asked.stop).toMatchObject({ evidence: { count: 3, identicalResults: true } });
    const other = repeatedToolCall.check(state as never, factsOf([call('bash', { command: 'ls' })], 2, true), options as never);
    expect(other.stop).toBeUndefined();
    expect((other.state as { run: { answer: string } }).run.answer).toBe('');
    // Two calls asked about in one step: the second carries the predicted answer on.
    const twice = repeatedToolCall.check(
      (ran[0]?.state ?? null) as never,
      factsOf([call('bash', { command: 'make' }), call('bash', { command: 'make' })], 1, true),
      options as never,
    );
    expect(twice.stop).toMatchObject({ evidence: { count: 3 } });
  });

  it('leaves the calls of exempt tools out, keyed calls compared by their key', () => {
    const tools = { poll: { exempt: true }, bash: { keyFields: ['command'] } };
    const steps = [
      factsOf([build('ok')], 0, false, tools),
      factsOf([call('poll', {}, { result: 'x' }), call('bash', { command: 'make', cwd: '/a' }, { result: 'ok' })], 1, false, tools),
      factsOf([call('poll', {}, { result: 'y' })], 2, false, tools),
      factsOf([call('bash', { command: 'make', cwd: '/b' }, { result: 'ok' })], 3, false, tools),
    ];
    const judged = judge(repeatedToolCall, options, steps);
    expect(judged.map(({ judgement }) => judgement.stop?.code)).toEqual([undefined, undefined, undefined, 'REPEATED_TOOL_CALL']);
    // The step of only an exempt call neither warns nor moves the run.
    expect(judged[2]?.judgement.warnings).toBeUndefined();
    expect(judged.map(({ state }) => (state as { run: { count: number } }).run.count)).toEqual([1, 2, 2, 3]);
  });
});

describe('oscillation, noProgress and stagnation through the contract', () => {
  it('oscillation counts a cycle while answers repeat, predicts them for calls not yet run', () => {
    const options = oscillation.resolve({ repeats: 2 });
    const edit = call('edit', { file: 'a' }, { result: 'ok' });
    const test = (output: string): GuardToolCall => call('test', {}, { result: output });
    const moving = judge(oscillation, options, [edit, test('parser failed'), edit, test('linker failed')].map((item, index) => factsOf([item], index)));
    expect(moving.map(({ judgement }) => judgement.stop?.code)).toEqual([undefined, undefined, undefined, undefined]);
    const stuck = judge(oscillation, options, [edit, test('linker failed'), edit].map((item, index) => factsOf([item], index)));
    const asked = oscillation.check(Object.freeze(stuck[2]?.state) as never, factsOf([call('test', {})], 3, true), options as never);
    expect(asked.stop).toMatchObject({ code: 'OSCILLATION', evidence: { period: 2, repeats: 2 } });
  });

  it('noProgress and stagnation skip a step of only exempt calls, state and all', () => {
    const tools = { poll: { exempt: true } };
    const facts = factsOf([call('poll', {}, { result: 'x' })], 0, false, tools);
    for (const detector of [noProgress, stagnation] as Detector[]) {
      const options = detector.resolve({});
      const state = Object.freeze(detector.start(options));
      const judgement = detector.check(state, facts, options);
      expect(judgement.stop).toBeUndefined();
      expect(judgement.warnings).toBeUndefined();
      expect(JSON.stringify(judgement.state)).toBe(JSON.stringify(state));
    }
  });
});
