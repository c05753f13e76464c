import { describe, expect, it, vi } from 'vitest';
import { runAgentLoop } from '../../src/adapters/run-agent-loop.js';
import type { AgentLoopStep } from '../../src/adapters/run-agent-loop.js';
import { createGuard } from '../../src/guard/create-guard.js';
import type { Verdict } from '../../src/types.js';

const search = (query: string): AgentLoopStep => ({
  finishReason: 'tool-calls',
  toolCalls: [{ name: 'search', args: { query }, result: `results for ${query}` }],
});

/** A `step` function that plays `script` in order. */
function scripted(script: readonly AgentLoopStep[]): (index: number) => Promise<AgentLoopStep> {
  return (index) => {
    const step = script[index];
    return step === undefined ? Promise.reject(new Error(`no step ${String(index)}`)) : Promise.resolve(step);
  };
}

describe('runAgentLoop', () => {
  it('completes when a step without tool calls ends the run and the guard lets it through', async () => {
    const script = [search('a'), search('b'), { text: 'Here you go.' }];
    const step = vi.fn(scripted(script));
    const result = await runAgentLoop({ step });

    expect(result).toEqual({ steps: script, verdict: { stop: false }, completed: true, aborted: false });
    expect(step.mock.calls.map(([index]) => index)).toEqual([0, 1, 2]);
  });

  it('completes on a normal stop finish, which the guard reports as a non-fault stop', async () => {
    const result = await runAgentLoop({ step: scripted([search('a'), { text: 'Done.', finishReason: 'stop' }]) });

    expect(result.completed).toBe(true);
    expect(result.aborted).toBe(false);
    expect(result.steps).toHaveLength(2);
    expect(result.verdict).toMatchObject({ stop: true, reason: 'finish-reason', code: 'FINISH_TERMINAL' });
  });

  it('is cut short when the guard stops a loop', async () => {
    const result = await runAgentLoop({ step: () => search('same') });

    expect(result.completed).toBe(false);
    expect(result.aborted).toBe(false);
    expect(result.steps).toHaveLength(3);
    expect(result.verdict).toMatchObject({ stop: true, reason: 'repeated-tool-call', evidence: { count: 3 } });
  });

  it('does not complete when the last step was truncated (finish reason length)', async () => {
    const result = await runAgentLoop({ step: scripted([search('a'), { text: 'The answer is', finishReason: 'length' }]) });

    expect(result.completed).toBe(false);
    expect(result.steps).toHaveLength(2);
    expect(result.verdict).toMatchObject({ stop: true, reason: 'finish-reason', evidence: { normalized: 'length' } });
  });

  it('follows done when the step sets it, whatever the tool calls say', async () => {
    const doneWithCalls = await runAgentLoop({ step: scripted([{ ...search('a'), done: true }]) });
    expect(doneWithCalls).toMatchObject({ completed: true, verdict: { stop: false } });
    expect(doneWithCalls.steps).toHaveLength(1);

    const notDoneWithoutCalls = await runAgentLoop({
      step: scripted([{ text: 'thinking', done: false }, { text: 'still thinking', done: false }, { text: 'done' }]),
    });
    expect(notDoneWithoutCalls.completed).toBe(true);
    expect(notDoneWithoutCalls.steps).toHaveLength(3);
  });

  it('treats an empty or unreadable toolCalls as no tool calls and a non-boolean done as unset, and refuses a step that is not an object', async () => {
    expect((await runAgentLoop({ step: scripted([{ toolCalls: [] }]) })).steps).toHaveLength(1);
    const odd = { toolCalls: 'search', done: 'yes' } as unknown as AgentLoopStep;
    expect(await runAgentLoop({ step: scripted([odd]) })).toMatchObject({ completed: true });
    // A step function that returns no step object is the caller's mistake: a TypeError that says what to return.
    for (const returned of [null, undefined, 'done', 42, [{ text: 'a' }]]) {
      await expect(runAgentLoop({ step: () => returned as unknown as AgentLoopStep })).rejects.toThrow(
        new TypeError(`agent-loopguard: runAgentLoop's step must return (or resolve to) a step object such as { toolCalls, text, finishReason }; step(0) returned something else, got ${returned === null ? 'null' : returned === undefined ? 'undefined' : typeof returned === 'string' ? '"done"' : typeof returned === 'number' ? '42' : 'an array'}.`),
      );
    }
  });

  it('uses the guard it is given, and creates one with the defaults otherwise', async () => {
    const guard = createGuard({ maxSteps: 2 });
    const given = await runAgentLoop({ guard, step: (index) => search(String(index)) });
    expect(given.steps).toHaveLength(2);
    expect(given.verdict).toMatchObject({ reason: 'max-steps' });
    expect(guard.history).toHaveLength(2);

    // Queries, and so answers, that differ in words, not only in numbers: the default stagnation detector sees progress.
    const defaults = await runAgentLoop({ step: (index) => search(`q${'x'.repeat(index)}`) });
    expect(defaults.steps).toHaveLength(50);
    expect(defaults.verdict).toMatchObject({ reason: 'max-steps', evidence: { steps: 50, limit: 50 } });
  });

  it('reports every verdict with its step and index', async () => {
    const seen: [Verdict, AgentLoopStep, number][] = [];
    const script = [search('a'), search('b'), { text: 'ok' }];
    await runAgentLoop({ step: scripted(script), onVerdict: (...args) => seen.push(args) });
    expect(seen).toEqual([
      [{ stop: false }, script[0], 0],
      [{ stop: false }, script[1], 1],
      [{ stop: false }, script[2], 2],
    ]);
  });

  it('runs no step at all when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const step = vi.fn(() => search('a'));
    const result = await runAgentLoop({ step, signal: controller.signal });

    expect(step).not.toHaveBeenCalled();
    expect(result).toEqual({ steps: [], verdict: { stop: false }, completed: false, aborted: true });
  });

  it('starts no further step once the signal aborts between steps; the running step finishes', async () => {
    const controller = new AbortController();
    const step = vi.fn((index: number) => {
      if (index === 1) controller.abort();
      return Promise.resolve(search(String(index)));
    });
    const result = await runAgentLoop({ step, signal: controller.signal });

    expect(step).toHaveBeenCalledTimes(2);
    expect(result.aborted).toBe(true);
    expect(result.completed).toBe(false);
    expect(result.steps).toEqual([search('0'), search('1')]);
    expect(result.verdict).toEqual({ stop: false });
  });

  it('lets the guard have the last word on a step during which the signal aborted', async () => {
    const controller = new AbortController();
    const result = await runAgentLoop({
      signal: controller.signal,
      step: () => {
        controller.abort();
        return { text: 'final' };
      },
    });
    expect(result).toMatchObject({ completed: true, aborted: false });
  });

  it('propagates errors from step, sync or async, and from onVerdict', async () => {
    await expect(runAgentLoop({ step: () => Promise.reject(new Error('model down')) })).rejects.toThrow('model down');
    await expect(
      runAgentLoop({
        step: () => {
          throw new Error('sync failure');
        },
      }),
    ).rejects.toThrow('sync failure');
    await expect(
      runAgentLoop({
        step: () => search('a'),
        onVerdict: () => {
          throw new Error('observer failure');
        },
      }),
    ).rejects.toThrow('observer failure');
  });
});

describe('runAgentLoop with a restored guard', () => {
  it('numbers steps on from the step count of a guard restored from a snapshot, and stops where it would have', async () => {
    const same = { finishReason: 'tool-calls', toolCalls: [{ name: 'search', args: { q: 'x' } }] };
    const first = createGuard();
    await runAgentLoop({ guard: first, step: (index) => (index < 2 ? same : { text: 'pause', finishReason: 'stop', toolCalls: [] }) });
    const indexes: number[] = [];
    const resumed = await runAgentLoop({
      guard: createGuard({}, { snapshot: JSON.parse(JSON.stringify(first.snapshot())) as unknown }),
      step: (index) => {
        indexes.push(index);
        return same;
      },
    });
    expect(indexes).toEqual([3]);
    expect(resumed.verdict).toMatchObject({ stop: true, code: 'REPEATED_TOOL_CALL', evidence: { count: 3, stepIndexes: [0, 1, 3] } });
  });
});

describe('runAgentLoop steering', () => {
  it('hands each step the previous verdict, the message for the model, and a way to screen calls', async () => {
    const contexts: { previous: unknown; nudge: string | undefined; refused: boolean }[] = [];
    const search = { name: 'search', args: { q: 'x' }, result: 'nothing' };
    const result = await runAgentLoop({
      guard: createGuard({ maxSteps: false }),
      step: (index, context) => {
        const refusal = context.judgeCall(search);
        contexts.push({ previous: context.previous, nudge: context.nudge, refused: refusal.block });
        if (refusal.block) return { text: 'Stopping the search.', finishReason: 'stop', toolCalls: [{ ...search, blocked: true }], done: index > 3 };
        return { text: `Searching ${String(index)}.`, finishReason: 'tool-calls', toolCalls: [search] };
      },
    });
    expect(contexts[0]).toEqual({ previous: undefined, nudge: undefined, refused: false });
    expect(contexts[1]).toMatchObject({ previous: { stop: false }, nudge: undefined, refused: false });
    expect(contexts[2]?.nudge).toContain('You have called search 2 times in a row');
    expect(contexts[2]?.refused).toBe(true);
    expect(result.verdict).toMatchObject({ stop: true });
  });
});
