/**
 * toMastraOptions on hand-made shapes of Mastra's hook arguments: what each hook reads, records and answers. Mastra
 * calls, for each step of a run: `prepareStep` (with the steps finished so far), `beforeToolCall` for each call, then
 * `stopWhen` (with its own record of the steps).
 */
import { describe, expect, it, vi } from 'vitest';
import { toMastraOptions, type MastraLoopGuard, type MastraToolHookContextLike } from '../../src/adapters/mastra.js';
import { MAX_REPLAY_STEPS } from '../../src/adapters/step-replayer.js';
import { createGuard } from '../../src/guard/create-guard.js';
import type { StopVerdict } from '../../src/index.js';

const context = (requestContext: object, toolCallId: unknown, query = 'loops', toolName = 'search'): MastraToolHookContextLike => ({
  toolName,
  input: { query },
  context: { toolCallId, requestContext },
});

/** A finished step as Mastra records it: its calls and their results, with `usage` and `request` objects of its own. */
const step = (ids: readonly unknown[], results: readonly unknown[] = ids.map(() => ({ type: 'text', value: 'nothing' })), query = 'loops') => ({
  text: `Searching (${ids.join(', ')}).`,
  finishReason: 'tool-calls',
  toolCalls: ids.map((toolCallId) => ({ toolCallId, toolName: 'search', args: { query } })),
  toolResults: ids.map((toolCallId, index) => ({ toolCallId, output: results[index] })),
  usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
  request: {},
});

/** The view of a step prepareStep is handed: rebuilt from the conversation, sharing only `usage` and `request`. */
const rebuilt = (recorded: { readonly usage: unknown; readonly request: unknown }) => ({ usage: recorded.usage, request: recorded.request, toolCalls: [], text: '' });

/** A run as Mastra drives it through one shared object, with its own requestContext. */
class Run {
  readonly requestContext = {};
  readonly steps: ReturnType<typeof step>[] = [];
  readonly messages: string[] = [];
  tripwire: { reason: string; metadata: unknown } | undefined;

  constructor(readonly loop: MastraLoopGuard) {}

  /** prepareStep before a model call; `false` when it ended the run. */
  prepare(): boolean {
    try {
      this.loop.prepareStep({
        steps: this.steps.map(rebuilt),
        requestContext: this.requestContext,
        messageList: { addSystem: (message: { content: string }) => this.messages.push(message.content) },
        abort: (reason: string, options: { metadata: unknown }) => {
          this.tripwire = { reason, metadata: options.metadata };
          throw new Error('tripwire');
        },
      });
      return true;
    } catch (error) {
      if (this.tripwire === undefined) throw error;
      return false;
    }
  }

  /** One step: prepareStep, the calls (each through beforeToolCall), then stopWhen with Mastra's record of it. */
  step(ids: readonly unknown[], query = 'loops') {
    if (!this.prepare()) return { ended: true, answers: [] };
    const answers = ids.map((id) => this.loop.hooks.beforeToolCall(context(this.requestContext, id, query)));
    this.steps.push(step(ids, answers.map((answer) => answer?.output ?? { type: 'text', value: 'nothing' }), query));
    expect(this.loop.stopWhen({ steps: this.steps })).toBe(false);
    return { ended: false, answers };
  }
}

describe('toMastraOptions', () => {
  it('spreads as three Mastra options; verdictOf and guardOf are not enumerable', () => {
    const loop = toMastraOptions();
    expect(Object.keys(loop)).toEqual(['stopWhen', 'prepareStep', 'hooks']);
    expect(Object.keys({ ...loop })).toEqual(['stopWhen', 'prepareStep', 'hooks']);
    expect(Object.keys(loop.hooks)).toEqual(['beforeToolCall']);
    expect(loop.verdictOf({})).toBeUndefined();
    expect(loop.guardOf({})).toBeUndefined();
  });

  it('warns, refuses the third identical call, records it as refused, and ends the run with a tripwire when asked again', () => {
    const onStop = vi.fn();
    const onWarning = vi.fn();
    const onBlock = vi.fn();
    const loop = toMastraOptions({}, { onStop, onWarning, onBlock });
    const run = new Run(loop);

    expect(run.step(['a']).answers).toEqual([undefined]);
    expect(run.step(['b']).answers).toEqual([undefined]);
    const refused = run.step(['c']);
    // The warning after the second search reached the model before the third model call.
    expect(run.messages).toEqual([expect.stringMatching(/^You have called search 2 times in a row/)]);
    expect(onWarning).toHaveBeenCalledWith([expect.objectContaining({ code: 'LOOP_WARNING', reason: 'repeated-tool-call' })], run.requestContext);
    expect(refused.answers).toEqual([{ proceed: false, output: expect.stringMatching(/^Not run: this would be call number 3 in a row to search/) as string }]);
    expect(onBlock).toHaveBeenCalledWith(expect.objectContaining({ block: true, code: 'REPEATED_TOOL_CALL' }), context(run.requestContext, 'c'));

    expect(run.step(['d']).ended).toBe(false);
    expect(run.step(['e']).ended).toBe(true);
    const verdict = loop.verdictOf(run.requestContext);
    expect(verdict).toMatchObject({ stop: true, reason: 'repeated-tool-call', code: 'REPEATED_TOOL_CALL', evidence: { count: 3 } });
    expect(run.tripwire).toEqual({ reason: `Stopped by agent-loopguard [REPEATED_TOOL_CALL]: ${String(verdict?.detail)}`, metadata: verdict });
    expect(loop.verdictOf({ tripwire: run.tripwire })).toBe(verdict);
    expect(onStop).toHaveBeenCalledOnce();
    expect(onStop).toHaveBeenCalledWith(verdict, run.requestContext);
    // Mastra's own record of each step, not the rebuilt one: results, text, finish reason and tokens.
    const guard = loop.guardOf(run.requestContext);
    expect(guard?.history.map((recorded) => recorded.toolCalls)).toEqual([
      [{ name: 'search', args: { query: 'loops' }, result: { type: 'text', value: 'nothing' } }],
      [{ name: 'search', args: { query: 'loops' }, result: { type: 'text', value: 'nothing' } }],
      [{ name: 'search', args: { query: 'loops' }, blocked: true }],
      [{ name: 'search', args: { query: 'loops' }, blocked: true }],
    ]);
    expect(guard?.history[0]).toMatchObject({ text: 'Searching (a).', finishReason: 'tool-calls', usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } });
    // Asked again after the stop, prepareStep ends the run again; onStop is not called twice.
    expect(run.prepare()).toBe(false);
    expect(onStop).toHaveBeenCalledOnce();
  });

  it('judges a call against the calls of its own step that run before it', () => {
    const loop = toMastraOptions({ repeatedToolCall: { threshold: 2 } });
    const run = new Run(loop);
    run.prepare();
    expect(loop.hooks.beforeToolCall(context(run.requestContext, 'a'))).toBeUndefined();
    expect(loop.hooks.beforeToolCall(context(run.requestContext, 'b'))).toHaveProperty('proceed', false);
    expect(loop.hooks.beforeToolCall(context(run.requestContext, 'c', 'other'))).toBeUndefined();
  });

  it('records each step once, however often it is asked, and lines refusals up with calls past nameless ones', () => {
    const loop = toMastraOptions({ noProgress: false });
    const run = new Run(loop);
    run.prepare();
    for (const id of ['a', 'b']) loop.hooks.beforeToolCall(context(run.requestContext, id));
    expect(loop.hooks.beforeToolCall(context(run.requestContext, 'c'))).toHaveProperty('proceed', false);
    const mixed = { ...step(['a', 'b', 'c']), toolCalls: [{ toolCallId: 'x', toolName: undefined, args: {} }, ...step(['a', 'b', 'c']).toolCalls] };
    const steps = [mixed];
    loop.stopWhen({ steps });
    loop.stopWhen({ steps });
    for (let ask = 0; ask < 2; ask++) loop.prepareStep({ steps: steps.map(rebuilt), requestContext: run.requestContext });
    const guard = loop.guardOf(run.requestContext);
    expect(guard?.history).toHaveLength(1);
    expect(guard?.history[0]?.toolCalls?.map((call) => call.blocked === true)).toEqual([false, false, true]);
  });

  it('keeps runs at once apart by their requestContext, with one object', () => {
    const loop = toMastraOptions();
    const looping = new Run(loop);
    const healthy = new Run(loop);
    // Interleaved step by step: the looping run's repeats never reach the healthy run, which searches the same thing once.
    for (let index = 0; index < 4; index++) {
      looping.step([`l${String(index)}`]);
      if (index < 2) healthy.step([`h${String(index)}`], `topic ${String(index)}`);
    }
    expect(looping.step(['l4']).ended).toBe(true);
    expect(loop.verdictOf(looping.requestContext)?.code).toBe('REPEATED_TOOL_CALL');
    expect(healthy.step(['h2'], 'loops').answers).toEqual([undefined]);
    expect(healthy.prepare()).toBe(true);
    expect(loop.verdictOf(healthy.requestContext)).toBeUndefined();
    expect(healthy.messages).toEqual([]);
    expect(loop.guardOf(healthy.requestContext)?.history).toHaveLength(3);
  });

  it('starts a run afresh at its first model call, even on a requestContext an earlier run was given', () => {
    const loop = toMastraOptions({ maxSteps: 3 });
    const first = new Run(loop);
    for (const id of ['a', 'b', 'c', 'd']) first.step([id], id);
    expect(loop.verdictOf(first.requestContext)?.code).toBe('MAX_STEPS');
    const earlier = loop.guardOf(first.requestContext);
    // The next run on the same requestContext: its first model call comes with no steps.
    const second = Object.assign(new Run(loop), { requestContext: first.requestContext });
    expect(second.step(['a'], 'a')).toEqual({ ended: false, answers: [undefined] });
    expect(loop.guardOf(first.requestContext)).not.toBe(earlier);
    expect(loop.verdictOf(first.requestContext)).toBeUndefined();
  });

  it('makes each run its guard from a factory given the requestContext, and throws a bad option where it is set up', () => {
    const factory = vi.fn(() => createGuard({ maxSteps: 1 }));
    const loop = toMastraOptions(factory);
    const run = new Run(loop);
    run.step(['a']);
    expect(run.prepare()).toBe(false);
    expect(factory).toHaveBeenCalledWith(run.requestContext);
    expect(loop.verdictOf(run.requestContext)?.code).toBe('MAX_STEPS');
    // A host without Mastra's abort cannot be stopped: prepareStep adds no warning and returns; the verdict stays.
    const messages: unknown[] = [];
    const hostWithoutAbort = { steps: run.steps.map(rebuilt), requestContext: run.requestContext, messageList: { addSystem: (message: unknown) => messages.push(message) } };
    expect(() => { loop.prepareStep(hostWithoutAbort); }).not.toThrow();
    expect(messages).toEqual([]);
    expect(loop.verdictOf(run.requestContext)?.code).toBe('MAX_STEPS');
    expect(() => toMastraOptions({ maxSteps: 0 })).toThrow(TypeError);
  });

  it('throws, naming the fix, when only part of the object reaches Mastra or two runs at once share a requestContext', () => {
    const calls = toMastraOptions();
    expect(() => calls.hooks.beforeToolCall(context({}, 'a'))).toThrow(
      new TypeError(
        'agent-loopguard: the beforeToolCall of toMastraOptions was called in a run its prepareStep never saw. Spread the whole object into generate() or stream() ({ ...loop }), or call loop.prepareStep from a prepareStep of your own.',
      ),
    );
    const unlent = toMastraOptions();
    const requestContext = {};
    unlent.prepareStep({ steps: [], requestContext });
    expect(() => { unlent.prepareStep({ steps: [step(['a'])], requestContext }); }).toThrow(/its stopWhen was never asked\. Spread the whole object/);

    // Two runs at once on one requestContext: however their steps interleave, the first step that is not the shared
    // run's own gives them away.
    const sharedContext = {};
    const interleavings: [string, (first: Run, second: Run) => void][] = [
      ['the second starts after the first recorded two steps', (first, second) => { first.step(['a']); first.step(['b']); second.step(['x']); first.step(['c']); second.step(['y']); }],
      ['the two take their steps in turn', (first, second) => { for (let round = 0; round < 3; round++) { first.prepare(); second.prepare(); first.step(['a']); second.step(['x']); } }],
    ];
    for (const [name, interleave] of interleavings) {
      const shared = toMastraOptions();
      const first = Object.assign(new Run(shared), { requestContext: sharedContext });
      const second = Object.assign(new Run(shared), { requestContext: sharedContext });
      expect(() => { interleave(first, second); }, name).toThrow(new TypeError('agent-loopguard: toMastraOptions was handed, under one requestContext, steps that are not those of the run it recorded there: two runs at once share one requestContext. Give each generate() or stream() its own (Mastra makes one per run when none is passed).'));
    }
  });

  it(`refuses more than ${String(MAX_REPLAY_STEPS)} steps it has not seen in one call`, () => {
    const loop = toMastraOptions();
    loop.stopWhen({ steps: [] });
    const requestContext = {};
    const endless = new Proxy([step(['a'])], {
      get: (target, name, receiver) => (name === 'length' ? Infinity : (Reflect.get(target, name, receiver) as unknown)),
    });
    const message = `agent-loopguard: the prepareStep of toMastraOptions was given ${String(2 ** 32 - 1)} steps it had not seen; it checks at most ${String(MAX_REPLAY_STEPS)} new steps per call.`;
    expect(() => { loop.prepareStep({ steps: endless, requestContext }); }).toThrow(new TypeError(message));
    const sparse: unknown[] = [step(['a'])];
    sparse.length = MAX_REPLAY_STEPS + 1;
    expect(() => { loop.prepareStep({ steps: sparse, requestContext }); }).toThrow(/given 100001 steps it had not seen/);
    const negative = new Proxy([step(['a'])], { get: (target, name, receiver) => (name === 'length' ? -1 : (Reflect.get(target, name, receiver) as unknown)) });
    expect(() => { loop.prepareStep({ steps: negative, requestContext }); }).not.toThrow();
    expect(loop.guardOf(requestContext)?.history).toEqual([]);
  });

  it('never throws on odd input from the host, and lets a call without a name run', () => {
    const hostile = new Proxy({}, {
      get() {
        throw new Error('no');
      },
    });
    const loop = toMastraOptions();
    expect(loop.hooks.beforeToolCall({ input: {} })).toBeUndefined();
    expect(loop.hooks.beforeToolCall(hostile)).toBeUndefined();
    expect(loop.hooks.beforeToolCall(undefined as never)).toBeUndefined();
    for (const input of [undefined, {}, { steps: 'no' }, { steps: [] }, { steps: [hostile] }, hostile]) expect(loop.stopWhen(input as never)).toBe(false);
    for (const input of [undefined, {}, { steps: 'no' }, hostile]) expect(() => { loop.prepareStep(input as never); }).not.toThrow();
    // Without a requestContext (Mastra always hands one), the hooks share one run, started by prepareStep.
    expect(() => { loop.prepareStep({ steps: [hostile] }); }).not.toThrow();
    expect(loop.hooks.beforeToolCall({ toolName: 'search', input: {}, context: {} })).toBeUndefined();
    expect(loop.verdictOf(hostile)).toBeUndefined();
    expect(loop.verdictOf({ tripwire: { metadata: { stop: true } } })).toBeUndefined();
    expect(loop.guardOf(undefined)).toBeUndefined();
  });
});

describe('toMastraOptions with reused and missing call ids', () => {
  for (const [policy, id] of [['one id reused', 'same'], ['no id', undefined]] as const) {
    it(`with ${policy} for three parallel calls: refuses the third alone and records exactly it as refused`, () => {
      const loop = toMastraOptions({ noProgress: false });
      const run = new Run(loop);
      const { answers } = run.step([id, id, id]);
      expect(answers.map((answer) => answer?.proceed)).toEqual([undefined, undefined, false]);
      run.prepare();
      expect(loop.guardOf(run.requestContext)?.history[0]?.toolCalls?.map((recorded) => recorded.blocked === true)).toEqual([false, false, true]);
      expect(loop.verdictOf(run.requestContext) satisfies StopVerdict | undefined).toBeUndefined();
    });
  }
});

describe('toMastraOptions, what each hook hands on', () => {
  it('adds a warning to the run’s messageList as a tagged system message, and calls no callback it was not given', () => {
    const calls: { readonly self: unknown; readonly args: unknown[] }[] = [];
    const messageList = {
      addSystem(this: unknown, ...args: unknown[]) {
        calls.push({ self: this, args });
      },
    };
    for (const loop of [toMastraOptions({ maxSteps: 3 }), toMastraOptions({ maxSteps: 3 }, {})]) {
      calls.length = 0;
      const requestContext = {};
      const steps: ReturnType<typeof step>[] = [];
      let tripwire: unknown;
      const prepare = () => {
        loop.prepareStep({ steps: steps.map(rebuilt), requestContext, messageList, abort: (reason: string) => { tripwire = reason; } });
      };
      for (const id of ['a', 'b', 'c']) {
        prepare();
        const answer = loop.hooks.beforeToolCall(context(requestContext, id));
        steps.push(step([id], [answer?.output ?? 'nothing']));
        loop.stopWhen({ steps });
      }
      prepare();
      expect(calls).toEqual([{ self: messageList, args: [{ role: 'system', content: expect.stringMatching(/^You have called search 2 times in a row/) as string }, 'agent-loopguard'] }]);
      expect(tripwire).toMatch(/^Stopped by agent-loopguard \[MAX_STEPS\]/);
      expect(loop.guardOf(requestContext)?.history[2]?.toolCalls).toEqual([{ name: 'search', args: { query: 'loops' }, blocked: true }]);
    }
  });

  it('records several new steps at once, each from Mastra’s own record, and the calls beforeToolCall judged as the newest step’s', () => {
    const loop = toMastraOptions({ repeatedToolCall: { threshold: 2 }, noProgress: false });
    const requestContext = {};
    loop.prepareStep({ steps: [], requestContext });
    // Two calls judged for the step in progress: the second is refused.
    expect(loop.hooks.beforeToolCall(context(requestContext, 'b1'))).toBeUndefined();
    expect(loop.hooks.beforeToolCall(context(requestContext, 'b2'))).toHaveProperty('proceed', false);
    const steps = [step(['a1'], undefined, 'other'), step(['b1', 'b2'])];
    loop.stopWhen({ steps });
    loop.prepareStep({ steps: steps.map(rebuilt), requestContext });
    const guard = loop.guardOf(requestContext);
    expect(guard?.history.map((recorded) => recorded.toolCalls?.map((call) => call.blocked === true))).toEqual([[false], [false, true]]);
    expect(guard?.history.map((recorded) => recorded.text)).toEqual(['Searching (a1).', 'Searching (b1, b2).']);
  });

  it('knows Mastra’s record of a step by its usage object, or by its request object when it has no usage', () => {
    const loop = toMastraOptions();
    const requestContext = {};
    loop.prepareStep({ steps: [], requestContext });
    const onlyUsage = { ...step(['a']), request: undefined };
    const onlyRequest = { ...step(['b']), usage: undefined };
    const steps = [onlyUsage, onlyRequest];
    loop.stopWhen({ steps });
    loop.prepareStep({ steps: steps.map(rebuilt), requestContext });
    expect(loop.guardOf(requestContext)?.history.map((recorded) => recorded.text)).toEqual(['Searching (a).', 'Searching (b).']);
  });

  it('reads each of Mastra’s steps once, however often stopWhen is asked', () => {
    const loop = toMastraOptions();
    const reads: string[] = [];
    const records = [step(['a']), step(['b'])];
    const steps = new Proxy(records, {
      get(target, name, receiver) {
        if (typeof name === 'string' && /^\d+$/.test(name)) reads.push(name);
        return Reflect.get(target, name, receiver) as unknown;
      },
    });
    loop.stopWhen({ steps });
    loop.stopWhen({ steps });
    records.push(step(['c']));
    loop.stopWhen({ steps });
    expect(reads).toEqual(['0', '1', '2']);
  });

  it('keeps the first stop of a run a host without abort goes on with, and tells onStop of it once', () => {
    const onStop = vi.fn();
    const loop = toMastraOptions({ maxSteps: 1 }, { onStop });
    const requestContext = {};
    const steps: ReturnType<typeof step>[] = [];
    loop.prepareStep({ steps: [], requestContext });
    for (const id of ['a', 'b', 'c']) {
      steps.push(step([id], undefined, id));
      loop.stopWhen({ steps });
      loop.prepareStep({ steps: steps.map(rebuilt), requestContext });
    }
    const verdict = loop.verdictOf(requestContext);
    expect(verdict).toMatchObject({ code: 'MAX_STEPS', evidence: { steps: 1, limit: 1 } });
    expect(onStop).toHaveBeenCalledOnce();
    expect(onStop).toHaveBeenCalledWith(verdict, requestContext);
    expect(loop.guardOf(requestContext)?.history).toHaveLength(3);
  });

  it('keeps a run without a requestContext to itself: verdictOf and guardOf do not answer for undefined', () => {
    const loop = toMastraOptions({ maxSteps: 1 });
    loop.stopWhen({ steps: [] });
    let stopped: unknown;
    loop.prepareStep({ steps: [] });
    loop.prepareStep({ steps: [step(['a'])], abort: (_reason: string, options: { metadata: unknown }) => { stopped = options.metadata; } });
    expect(stopped).toMatchObject({ code: 'MAX_STEPS' });
    expect(loop.verdictOf({ tripwire: { metadata: stopped } })).toBe(stopped);
    expect(loop.verdictOf(undefined)).toBeUndefined();
    expect(loop.guardOf(undefined)).toBeUndefined();
  });

  it('judges each step’s calls from the steps recorded before it, not as more calls of the step before', () => {
    // Each search got a new answer: with requireIdenticalResults (the default) no repeat forms, however often it is asked.
    const loop = toMastraOptions({ noProgress: false });
    const requestContext = {};
    const steps: ReturnType<typeof step>[] = [];
    const answers = [];
    for (const id of ['a', 'b', 'c', 'd']) {
      loop.prepareStep({ steps: steps.map(rebuilt), requestContext });
      answers.push(loop.hooks.beforeToolCall(context(requestContext, id)));
      steps.push(step([id], [`answer ${id}`]));
      loop.stopWhen({ steps });
    }
    expect(answers).toEqual([undefined, undefined, undefined, undefined]);
    loop.prepareStep({ steps: steps.map(rebuilt), requestContext });
    expect(loop.guardOf(requestContext)?.history.map((recorded) => recorded.toolCalls)).toEqual(
      ['a', 'b', 'c', 'd'].map((id) => [{ name: 'search', args: { query: 'loops' }, result: `answer ${id}` }]),
    );
  });

  it('tells a run apart from another only by steps known by their usage or request: a step known by neither never throws', () => {
    const loop = toMastraOptions();
    loop.stopWhen({ steps: [] });
    const unknown = (recorded: ReturnType<typeof step>) => ({ ...recorded, usage: undefined, request: undefined });
    const [first, second, third] = [step(['a'], undefined, 'one'), step(['b'], undefined, 'two'), step(['c'], undefined, 'three')];
    // First handed without usage and request, then with them; and the other way round.
    for (const [before, after] of [[unknown(first), first], [first, unknown(first)]]) {
      const requestContext = {};
      loop.prepareStep({ steps: [], requestContext });
      loop.prepareStep({ steps: [before], requestContext });
      expect(() => { loop.prepareStep({ steps: [after, second], requestContext }); }).not.toThrow();
      expect(() => { loop.prepareStep({ steps: [after, second, third], requestContext }); }).not.toThrow();
      expect(loop.guardOf(requestContext)?.history.map((recorded) => recorded.text)).toEqual(['Searching (a).', 'Searching (b).', 'Searching (c).']);
    }
  });

  it('reads a null requestContext, steps or usage as none', () => {
    const loop = toMastraOptions({ maxSteps: 1 });
    expect(loop.stopWhen({ steps: null as never })).toBe(false);
    const nullUsage = { ...step(['a']), usage: null, request: null };
    expect(loop.stopWhen({ steps: [nullUsage] })).toBe(false);
    loop.prepareStep({ steps: [], requestContext: null });
    expect(loop.hooks.beforeToolCall(context(null as never, 'a'))).toBeUndefined();
    let stopped: unknown;
    loop.prepareStep({ steps: [nullUsage], requestContext: null, abort: (_reason: string, options: { metadata: unknown }) => { stopped = options.metadata; } });
    expect(stopped).toMatchObject({ code: 'MAX_STEPS' });
    expect(loop.guardOf(null)).toBeUndefined();
    expect(loop.verdictOf(null)).toBeUndefined();
  });

  it(`checks up to ${String(MAX_REPLAY_STEPS)} new steps in one call after those it recorded, and counts only new ones when refusing more`, () => {
    const loop = toMastraOptions({ maxSteps: false, noProgress: false, repeatedToolCall: false, oscillation: false });
    loop.stopWhen({ steps: [] });
    const requestContext = {};
    loop.prepareStep({ steps: [], requestContext });
    const first = step(['a']);
    loop.prepareStep({ steps: [first], requestContext });
    const steps: unknown[] = [first];
    steps.length = MAX_REPLAY_STEPS + 2;
    expect(() => { loop.prepareStep({ steps, requestContext }); }).toThrow(`was given ${String(MAX_REPLAY_STEPS + 1)} steps it had not seen`);
    steps.length = MAX_REPLAY_STEPS + 1;
    loop.prepareStep({ steps, requestContext });
    expect(loop.guardOf(requestContext)?.history).toHaveLength(MAX_REPLAY_STEPS + 1);
  });
});
