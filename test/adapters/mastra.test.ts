/** toMastraOptions on hand-made shapes of Mastra's steps and hook contexts: what each hook reads, records and answers. */
import { describe, expect, it, vi } from 'vitest';
import { toMastraOptions, type MastraToolHookContextLike } from '../../src/adapters/mastra.js';
import { createGuard } from '../../src/guard/create-guard.js';
import { MAX_REPLAY_STEPS } from '../../src/adapters/step-replayer.js';
import type { AiSdkStepLike } from '../../src/adapters/to-guard-step.js';

const context = (toolCallId: string, query = 'loops', toolName = 'search'): MastraToolHookContextLike => ({
  toolName,
  input: { query },
  context: { toolCallId },
});

/** A finished step as Mastra hands it to stopWhen: its calls and their results. */
const step = (...ids: string[]): AiSdkStepLike => ({
  text: `Searching (${ids.join(', ')}).`,
  finishReason: 'tool-calls',
  toolCalls: ids.map((toolCallId) => ({ toolCallId, toolName: 'search', args: { query: 'loops' } })),
  toolResults: ids.map((toolCallId) => ({ toolCallId, output: { type: 'text', value: 'nothing' } })),
  usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
});

/** One iteration as Mastra runs it: beforeToolCall for each call, then stopWhen, then onIterationComplete. */
function iterate(loop: ReturnType<typeof toMastraOptions>, steps: AiSdkStepLike[], ...ids: string[]) {
  const answers = ids.map((id) => loop.hooks.beforeToolCall(context(id)));
  steps.push(step(...ids));
  const stopped = loop.stopWhen({ steps });
  return { answers, stopped, feedback: loop.onIterationComplete({ iteration: steps.length }) };
}

describe('toMastraOptions', () => {
  it('spreads as three Mastra options; verdict() and guard are not enumerable', () => {
    const loop = toMastraOptions();
    expect(Object.keys(loop)).toEqual(['stopWhen', 'hooks', 'onIterationComplete']);
    expect(Object.keys({ ...loop })).toEqual(['stopWhen', 'hooks', 'onIterationComplete']);
    expect(Object.keys(loop.hooks)).toEqual(['beforeToolCall']);
    expect(loop.verdict()).toBeUndefined();
    expect(loop.guard.history).toEqual([]);
  });

  it('warns, then refuses the third identical call, records it as refused, and stops when the model asks again', () => {
    const onStop = vi.fn();
    const onWarning = vi.fn();
    const onBlock = vi.fn();
    const loop = toMastraOptions({}, { onStop, onWarning, onBlock });
    const steps: AiSdkStepLike[] = [];

    expect(iterate(loop, steps, 'a')).toEqual({ answers: [undefined], stopped: false, feedback: undefined });
    const warned = iterate(loop, steps, 'b');
    expect(warned.stopped).toBe(false);
    expect(warned.feedback).toEqual({ feedback: expect.stringMatching(/^You have called search 2 times in a row/) as string });
    expect(onWarning).toHaveBeenCalledWith([expect.objectContaining({ code: 'LOOP_WARNING', reason: 'repeated-tool-call' })]);

    const refused = iterate(loop, steps, 'c');
    expect(refused.answers).toEqual([{ proceed: false, output: expect.stringMatching(/^Not run: this would be call number 3 in a row to search/) as string }]);
    expect(refused.stopped).toBe(false);
    expect(onBlock).toHaveBeenCalledWith(expect.objectContaining({ block: true, code: 'REPEATED_TOOL_CALL' }), context('c'));

    const stopped = iterate(loop, steps, 'd');
    expect(stopped.stopped).toBe(true);
    expect(stopped.feedback).toBeUndefined();
    expect(onStop).toHaveBeenCalledOnce();
    expect(onStop).toHaveBeenCalledWith(loop.verdict());
    expect(loop.verdict()).toMatchObject({ stop: true, reason: 'repeated-tool-call', code: 'REPEATED_TOOL_CALL', evidence: { count: 3 } });
    expect(loop.guard.history.map((recorded) => recorded.toolCalls)).toEqual([
      [{ name: 'search', args: { query: 'loops' }, result: { type: 'text', value: 'nothing' } }],
      [{ name: 'search', args: { query: 'loops' }, result: { type: 'text', value: 'nothing' } }],
      [{ name: 'search', args: { query: 'loops' }, blocked: true }],
      [{ name: 'search', args: { query: 'loops' }, blocked: true }],
    ]);
    expect(loop.guard.history[0]).toMatchObject({ finishReason: 'tool-calls', usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } });
    // Asked again after the stop, the condition still says stop, and onStop is not called twice.
    expect(loop.stopWhen({ steps })).toBe(true);
    expect(onStop).toHaveBeenCalledOnce();
  });

  it('judges a call against the calls of its own step that run before it', () => {
    const loop = toMastraOptions({ repeatedToolCall: { threshold: 2 } });
    expect(loop.hooks.beforeToolCall(context('a'))).toBeUndefined();
    expect(loop.hooks.beforeToolCall(context('b'))).toHaveProperty('proceed', false);
    expect(loop.hooks.beforeToolCall(context('c', 'other'))).toBeUndefined();
  });

  it('records each step once, however often it is asked, and lines refusals up with calls past nameless ones', () => {
    const loop = toMastraOptions({ noProgress: false });
    loop.hooks.beforeToolCall(context('a'));
    loop.hooks.beforeToolCall(context('b'));
    expect(loop.hooks.beforeToolCall(context('c'))).toHaveProperty('proceed', false);
    const mixed: AiSdkStepLike = {
      toolCalls: [
        { toolCallId: 'x', toolName: undefined, args: {} },
        { toolCallId: 'a', toolName: 'search', args: { query: 'loops' } },
        { toolCallId: 'b', toolName: 'search', args: { query: 'loops' } },
        { toolCallId: 'c', toolName: 'search', args: { query: 'loops' } },
      ],
    };
    const steps = [mixed];
    loop.stopWhen({ steps });
    loop.stopWhen({ steps });
    expect(loop.guard.history).toHaveLength(1);
    expect(loop.guard.history[0]?.toolCalls?.map((call) => call.blocked === true)).toEqual([false, false, true]);
  });

  it('gives feedback only for the step stopWhen recorded last', () => {
    const loop = toMastraOptions();
    expect(loop.onIterationComplete({ iteration: 1 })).toBeUndefined();
    const steps = [step('a'), step('b')];
    loop.stopWhen({ steps });
    expect(loop.onIterationComplete({ iteration: 1 })).toBeUndefined();
    expect(loop.onIterationComplete({ iteration: 3 })).toBeUndefined();
    expect(loop.onIterationComplete({ iteration: 2 })).toHaveProperty('feedback');
    expect(loop.onIterationComplete({})).toBeUndefined();
  });

  it('starts over with a fresh guard when handed the steps of another run', () => {
    const loop = toMastraOptions({ maxSteps: 3 });
    loop.stopWhen({ steps: [step('a'), step('b'), step('c')] });
    expect(loop.verdict()?.code).toBe('MAX_STEPS');
    const first = loop.guard;
    expect(loop.stopWhen({ steps: [step('d')] })).toBe(false);
    expect(loop.guard).not.toBe(first);
    expect(loop.guard.history).toHaveLength(1);
    expect(loop.verdict()).toBeUndefined();
  });

  it('makes its guard from a factory, and throws a bad option where it is set up', () => {
    const guard = createGuard({ maxSteps: 1 });
    const loop = toMastraOptions(() => guard);
    expect(loop.stopWhen({ steps: [step('a')] })).toBe(true);
    expect(loop.guard).toBe(guard);
    expect(() => toMastraOptions({ maxSteps: 0 })).toThrow(TypeError);
  });

  it(`refuses more than ${String(MAX_REPLAY_STEPS)} steps it has not seen in one call, as toStopWhen does`, () => {
    const endless = new Proxy([step('a')], {
      get: (target, key, receiver) => (key === 'length' ? Infinity : (Reflect.get(target, key, receiver) as unknown)),
    });
    const message = `agent-loopguard: the stopWhen of toMastraOptions was given Infinity steps it had not seen; it checks at most ${String(MAX_REPLAY_STEPS)} new steps per call.`;
    expect(() => toMastraOptions().stopWhen({ steps: endless })).toThrow(new TypeError(message));
    const sparse: AiSdkStepLike[] = [step('a')];
    sparse.length = MAX_REPLAY_STEPS + 1;
    expect(() => toMastraOptions().stopWhen({ steps: sparse })).toThrow(/given 100001 steps it had not seen/);
    const negative = new Proxy([step('a')], { get: (target, key, receiver) => (key === 'length' ? -1 : (Reflect.get(target, key, receiver) as unknown)) });
    expect(toMastraOptions().stopWhen({ steps: negative })).toBe(false);
  });

  it('never throws on odd input, and lets a call without a name run', () => {
    const hostile = new Proxy({}, {
      get() {
        throw new Error('no');
      },
    });
    const loop = toMastraOptions();
    expect(loop.hooks.beforeToolCall({ input: {} })).toBeUndefined();
    expect(loop.hooks.beforeToolCall(hostile)).toBeUndefined();
    expect(loop.hooks.beforeToolCall(undefined as never)).toBeUndefined();
    for (const input of [undefined, {}, { steps: 'no' }, { steps: [] }, hostile]) expect(loop.stopWhen(input as never)).toBe(false);
    expect(loop.stopWhen({ steps: [hostile] })).toBe(false);
    expect(loop.onIterationComplete(hostile)).toBeUndefined();
    expect(loop.onIterationComplete(undefined as never)).toBeUndefined();
  });
});

describe('toMastraOptions across runs and ids', () => {
  const read = (id: unknown, requestContext: object) => ({ toolName: 'read', input: { path: 'a' }, context: { toolCallId: id, requestContext } });

  it('starts a run with a new requestContext afresh at its first call, before judging it', () => {
    const loop = toMastraOptions();
    const first = {};
    loop.hooks.beforeToolCall(read('1', first));
    loop.hooks.beforeToolCall(read('2', first));
    expect(loop.hooks.beforeToolCall(read('3', first))).toHaveProperty('proceed', false);
    const firstGuard = loop.guard;
    // The next run of the same object: its first identical call is its own first.
    const second = {};
    expect(loop.hooks.beforeToolCall(read('1', second))).toBeUndefined();
    expect(loop.guard).not.toBe(firstGuard);
    expect(loop.stopWhen({ steps: [{ toolCalls: [{ toolCallId: '1', toolName: 'read', input: { path: 'a' } }], toolResults: [{ toolCallId: '1', output: 'text' }] }] })).toBe(false);
    expect(loop.guard.history).toHaveLength(1);
    expect(loop.guard.history[0]?.toolCalls?.[0]).toEqual({ name: 'read', args: { path: 'a' }, result: 'text' });
  });

  for (const [policy, id] of [['one id reused', 'same'], ['no id', undefined]] as const) {
    it(`with ${policy} for three parallel calls: refuses the third alone and records exactly it as refused`, () => {
      const loop = toMastraOptions({ noProgress: false });
      const run = {};
      const answers = [0, 1, 2].map(() => loop.hooks.beforeToolCall(read(id, run)));
      expect(answers.map((answer) => answer?.proceed)).toEqual([undefined, undefined, false]);
      const refusal = answers[2]?.output;
      const call = { toolCallId: id, toolName: 'read', input: { path: 'a' } };
      loop.stopWhen({
        steps: [{ toolCalls: [call, call, call], toolResults: [{ toolCallId: id, output: 'text' }, { toolCallId: id, output: 'text' }, { toolCallId: id, output: refusal }] }],
      });
      expect(loop.guard.history[0]?.toolCalls?.map((recorded) => recorded.blocked === true)).toEqual([false, false, true]);
      expect(loop.verdict()).toBeUndefined();
    });
  }
});
