/** loopGuardForAgents on hand-made shapes of the OpenAI Agents SDK: what each hook reads, records and answers. */
import { describe, expect, it, vi } from 'vitest';
import { loopGuardForAgents, type AgentsRunContextLike, type AgentsToolResultLike } from '../../src/adapters/openai-agents.js';
import { createGuard } from '../../src/guard/create-guard.js';
import type { Guard } from '../../src/types.js';

/** A RunContext: the user's context object and the run's token counts so far. */
function runContext(context: unknown = {}, usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 }) {
  return { context, usage };
}

const call = (callId: string, query = 'loops', name = 'search') => ({ callId, name, arguments: JSON.stringify({ query }) });
const output = (callId: string, text = 'nothing', name = 'search'): AgentsToolResultLike => ({
  type: 'function_output',
  output: text,
  runItem: { rawItem: { type: 'function_call_result', name, callId }, executionStatus: 'executed' },
});

/** One turn: the guardrail for each call, then toolUseBehavior with their results. */
async function turn(loop: ReturnType<typeof loopGuardForAgents>, context: AgentsRunContextLike, ...ids: string[]) {
  const answers = [];
  for (const id of ids) answers.push(await loop.toolInputGuardrail.run({ context, toolCall: call(id) }));
  return { answers, decision: loop.toolUseBehavior(context, ids.map((id) => output(id))) };
}

describe('loopGuardForAgents: the three hooks', () => {
  it('refuses the third identical call, records it as refused, and stops when the model asks again', async () => {
    const onBlock = vi.fn();
    const onStop = vi.fn();
    const loop = loopGuardForAgents({ noProgress: false }, { onBlock, onStop });
    const context = runContext();

    expect((await turn(loop, context, 'a')).answers).toEqual([{ behavior: { type: 'allow' } }]);
    expect((await turn(loop, context, 'b')).decision).toEqual({ isFinalOutput: false, isInterrupted: undefined });
    const refused = await turn(loop, context, 'c');
    expect(refused.answers).toEqual([{ behavior: { type: 'rejectContent', message: expect.stringMatching(/^Not run: this would be call number 3/) as string } }]);
    expect(refused.decision).toEqual({ isFinalOutput: false, isInterrupted: undefined });
    expect(onBlock).toHaveBeenCalledWith(expect.objectContaining({ block: true, code: 'REPEATED_TOOL_CALL' }), call('c'), context);

    const stopped = await turn(loop, context, 'd');
    expect(stopped.decision).toEqual({ isFinalOutput: true, isInterrupted: undefined, finalOutput: expect.stringMatching(/^Stopped by agent-loopguard \[REPEATED_TOOL_CALL\]: /) as string });
    expect(onStop).toHaveBeenCalledOnce();
    expect(onStop).toHaveBeenCalledWith(loop.verdictOf(context), context);
    expect(loop.guardOf(context)?.history.map((step) => step.toolCalls)).toEqual([
      [{ name: 'search', args: { query: 'loops' }, result: 'nothing' }],
      [{ name: 'search', args: { query: 'loops' }, result: 'nothing' }],
      [{ name: 'search', args: { query: 'loops' }, blocked: true }],
      [{ name: 'search', args: { query: 'loops' }, blocked: true }],
    ]);
  });

  it('judges a call against the calls of its own turn that run before it', async () => {
    const loop = loopGuardForAgents({ repeatedToolCall: { threshold: 2 } });
    const { answers } = await turn(loop, runContext(), 'a', 'b');
    expect(answers.map((answer) => answer.behavior.type)).toEqual(['allow', 'rejectContent']);
  });

  it('answers the same call object the same way twice, counting it once', async () => {
    const loop = loopGuardForAgents({ repeatedToolCall: { threshold: 2 } });
    const context = runContext();
    const a = call('a');
    const first = await loop.toolInputGuardrail.run({ context, toolCall: a });
    const again = await loop.toolInputGuardrail.run({ context, toolCall: a });
    expect([first, again]).toEqual([{ behavior: { type: 'allow' } }, { behavior: { type: 'allow' } }]);
    const b = call('b');
    const refused = await loop.toolInputGuardrail.run({ context, toolCall: b });
    expect(refused.behavior.type).toBe('rejectContent');
    expect(await loop.toolInputGuardrail.run({ context, toolCall: b })).toEqual(refused);
  });

  it('tells parallel calls that share one id (or have none) apart, and records the refused one as refused', async () => {
    for (const id of ['same', '']) {
      const loop = loopGuardForAgents({ noProgress: false });
      const context = runContext();
      const answers = [];
      for (let index = 0; index < 3; index++) answers.push(await loop.toolInputGuardrail.run({ context, toolCall: call(id) }));
      expect(answers.map((answer) => answer.behavior.type)).toEqual(['allow', 'allow', 'rejectContent']);
      loop.toolUseBehavior(context, [output(id), output(id), output(id, 'refused')]);
      expect(loop.guardOf(context)?.history[0]?.toolCalls).toEqual([
        { name: 'search', args: { query: 'loops' }, result: 'nothing' },
        { name: 'search', args: { query: 'loops' }, result: 'nothing' },
        { name: 'search', args: { query: 'loops' }, blocked: true },
      ]);
    }
  });

  it('with throwOnBlock, stops at the first refusal and hands the stop verdict to the tripwire', async () => {
    const onStop = vi.fn();
    const loop = loopGuardForAgents({ repeatedToolCall: { threshold: 2 } }, { throwOnBlock: true, onStop });
    const context = runContext();
    await turn(loop, context, 'a');
    const b = call('b');
    const answer = await loop.toolInputGuardrail.run({ context, toolCall: b });
    const stop = loop.verdictOf(context);
    expect(stop).toMatchObject({ stop: true, reason: 'repeated-tool-call', code: 'REPEATED_TOOL_CALL', evidence: { count: 2 } });
    expect(answer).toEqual({ behavior: { type: 'throwException' }, outputInfo: stop });
    expect(await loop.toolInputGuardrail.run({ context, toolCall: b })).toEqual(answer);
    expect(onStop).toHaveBeenCalledOnce();
  });

  it('gives each turn the tokens spent since the last one', () => {
    const loop = loopGuardForAgents();
    const context = runContext({}, { inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    loop.toolUseBehavior(context, [output('a')]);
    context.usage = { inputTokens: 30, outputTokens: 7, totalTokens: 37 };
    loop.toolUseBehavior(context, [output('b', 'other')]);
    expect(loop.guardOf(context)?.history.map((step) => step.usage)).toEqual([
      { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      { inputTokens: 20, outputTokens: 2, totalTokens: 22 },
    ]);
    expect(loopGuardForAgents().toolUseBehavior({}, [])).toEqual({ isFinalOutput: false, isInterrupted: undefined });
  });

  it('stops a run whose token budget is spent, with its own final output', () => {
    const loop = loopGuardForAgents({ budget: { maxTotalTokens: 100 } }, { finalOutput: (verdict) => JSON.stringify({ stopped: verdict.code }) });
    const decision = loop.toolUseBehavior(runContext({}, { inputTokens: 90, outputTokens: 20, totalTokens: 110 }), [output('a')]);
    expect(decision).toEqual({ isFinalOutput: true, isInterrupted: undefined, finalOutput: '{"stopped":"BUDGET_TOTAL_TOKENS"}' });
  });

  it('reads only function outputs, and never takes unseen arguments for equal ones', () => {
    const loop = loopGuardForAgents({ repeatedToolCall: { threshold: 2 }, noProgress: false });
    const context = runContext();
    const approval = { type: 'function_approval', runItem: {} };
    // Three calls the guard never saw start: their arguments are unknown, so they are not a repeat.
    for (const id of ['a', 'b', 'c']) expect(loop.toolUseBehavior(context, [approval, output(id)]).isFinalOutput).toBe(false);
    const zero = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    expect(loop.guardOf(context)?.history).toStrictEqual(
      [0, 1, 2].map((unseen) => ({ toolCalls: [{ name: 'search', args: { '(arguments not seen)': unseen }, result: 'nothing' }], finishReason: 'tool-calls', usage: zero })),
    );
    expect(loop.guardOf(context)?.summary()).toMatchObject({ steps: 3, toolCalls: 3, lastVerdict: { stop: false } });
    expect(loop.guardOf(context)?.snapshot().warnedFields).toEqual([]);
  });

  it('takes arguments that are not JSON as they are', async () => {
    const loop = loopGuardForAgents();
    const context = runContext();
    await loop.toolInputGuardrail.run({ context, toolCall: { callId: 'a', name: 'run', arguments: 'ls -la' } });
    await loop.toolInputGuardrail.run({ context, toolCall: { callId: 'b', name: 'run' } });
    // Only text is parsed: arguments of another type are taken as they are, even when their text would be JSON.
    const asText = { toString: () => '{"query":"loops"}' };
    await loop.toolInputGuardrail.run({ context, toolCall: { callId: 'c', name: 'run', arguments: ['1'] as never } });
    await loop.toolInputGuardrail.run({ context, toolCall: { callId: 'd', name: 'run', arguments: asText as never } });
    loop.toolUseBehavior(context, [output('a', 'x', 'run'), output('b', 'y', 'run'), output('c', 'z', 'run'), output('d', 'w', 'run')]);
    expect(loop.guardOf(context)?.history[0]?.toolCalls?.map((entry) => entry.args)).toEqual(['ls -la', undefined, ['1'], asText]);
  });

  it('never throws on what is not a RunContext, and lets such calls run', async () => {
    const loop = loopGuardForAgents();
    expect(await loop.toolInputGuardrail.run({ context: null as unknown as AgentsRunContextLike, toolCall: call('a') })).toEqual({ behavior: { type: 'allow' } });
    expect(await loop.toolInputGuardrail.run(null as never)).toEqual({ behavior: { type: 'allow' } });
    expect(loop.toolUseBehavior(undefined as unknown as AgentsRunContextLike, null as never)).toEqual({ isFinalOutput: false, isInterrupted: undefined });
    const hostile = new Proxy({}, { get: () => { throw new Error('no'); } });
    expect(loop.toolUseBehavior(hostile, [hostile])).toEqual({ isFinalOutput: false, isInterrupted: undefined });
  });

  it('makes a new guard per run from the factory, given the run', () => {
    const factory = vi.fn<(run: AgentsRunContextLike) => Guard>(() => createGuard({ maxSteps: 1 }));
    const loop = loopGuardForAgents(factory);
    const first = runContext();
    const second = runContext();
    expect(loop.toolUseBehavior(first, [output('a')]).isFinalOutput).toBe(true);
    expect(loop.toolUseBehavior(second, [output('a')]).isFinalOutput).toBe(true);
    expect(factory.mock.calls.map(([run]) => run)).toEqual([first, second]);
    expect(factory.mock.calls[0]?.[0]).toBe(first);
  });

  it('throws a bad option where it is set up', () => {
    expect(() => loopGuardForAgents({ maxSteps: 0 })).toThrow(TypeError);
  });

  it('hands the SDK a tool input guardrail named agent-loopguard', () => {
    const { toolInputGuardrail } = loopGuardForAgents();
    expect(toolInputGuardrail.type).toBe('tool_input');
    expect(toolInputGuardrail.name).toBe('agent-loopguard');
  });
});

describe('loopGuardForAgents: callModelInputFilter', () => {
  const modelData = (...input: unknown[]) => ({ input, instructions: 'Be brief.' });

  it('adds the warning to the next model call of the same run, once', async () => {
    const onWarning = vi.fn();
    const loop = loopGuardForAgents({}, { onWarning });
    const user = { userId: 7 };
    const context = runContext(user);
    await turn(loop, context, 'a');
    expect(loop.callModelInputFilter({ modelData: modelData('x'), context: user })).toEqual(modelData('x'));
    await turn(loop, context, 'b');

    const filtered = loop.callModelInputFilter({ modelData: modelData('x'), context: user });
    expect(filtered.instructions).toBe('Be brief.');
    expect(filtered.input).toEqual(['x', { role: 'user', content: expect.stringContaining('2 times in a row') as string }]);
    expect(onWarning).toHaveBeenCalledWith([expect.objectContaining({ code: 'LOOP_WARNING', reason: 'repeated-tool-call' })], context);
    expect(loop.callModelInputFilter({ modelData: modelData('x'), context: user })).toEqual(modelData('x'));
    // Another run's context, or none, hears nothing.
    await turn(loop, context, 'c');
    expect(loop.callModelInputFilter({ modelData: modelData('x'), context: {} })).toEqual(modelData('x'));
    expect(loop.callModelInputFilter({ modelData: modelData('x') })).toEqual(modelData('x'));
  });

  it('warns through the filter without options, or with none of the callbacks', async () => {
    for (const options of [undefined, {}]) {
      const loop = loopGuardForAgents({}, options);
      const user = {};
      const context = runContext(user);
      await turn(loop, context, 'a');
      await turn(loop, context, 'b');
      expect(loop.callModelInputFilter({ modelData: modelData('x'), context: user }).input).toEqual(['x', { role: 'user', content: expect.stringContaining('2 times in a row') as string }]);
    }
  });

  it('passes through model input it cannot add to', async () => {
    const loop = loopGuardForAgents();
    const user = {};
    const context = runContext(user);
    await turn(loop, context, 'a');
    await turn(loop, context, 'b');
    const odd = { input: 'not a list' } as unknown as { input: unknown[] };
    expect(loop.callModelInputFilter({ modelData: odd, context: user })).toBe(odd);
  });
});

describe('loopGuardForAgents: finding a run', () => {
  it('finds the run from its RunContext, what run() returned, a RunState, the error run() threw, or the user context', () => {
    const loop = loopGuardForAgents({ maxSteps: 1 });
    const user = {};
    const context = runContext(user);
    loop.toolUseBehavior(context, [output('a')]);
    const stop = loop.verdictOf(context);
    expect(stop).toMatchObject({ code: 'MAX_STEPS' });
    expect(loop.verdictOf({ runContext: context })).toBe(stop);
    expect(loop.verdictOf({ _context: context })).toBe(stop);
    expect(loop.verdictOf({ state: { _context: context } })).toBe(stop);
    expect(loop.verdictOf(user)).toBe(stop);
    expect(loop.guardOf(user)).toBe(loop.guardOf(context));
    expect(loop.verdictOf({})).toBeUndefined();
    expect(loop.verdictOf('run')).toBeUndefined();
    expect(loop.guardOf(undefined)).toBeUndefined();
  });

  it('keeps runs apart even when they share a user context, except for the filter', () => {
    const loop = loopGuardForAgents({ maxSteps: 2 });
    const shared = { tenant: 'x' };
    const first = runContext(shared);
    const second = runContext(shared);
    loop.toolUseBehavior(first, [output('a')]);
    loop.toolUseBehavior(second, [output('a')]);
    expect(loop.guardOf(first)).not.toBe(loop.guardOf(second));
    expect(loop.guardOf(first)?.history).toHaveLength(1);
    // The user context leads to the latest run that had it.
    expect(loop.guardOf(shared)).toBe(loop.guardOf(second));
  });

  it('keeps a run whose user context is not an object, without the filter', () => {
    const loop = loopGuardForAgents({ maxSteps: 1 });
    const context = runContext('plain string');
    expect(loop.toolUseBehavior(context, [output('a')]).isFinalOutput).toBe(true);
    expect(loop.verdictOf(context)).toMatchObject({ code: 'MAX_STEPS' });
    expect(loop.verdictOf('plain string')).toBeUndefined();
  });
});

describe('loopGuardForAgents: guardAgent', () => {
  /** An agent with the parts guardAgent wires, and an event emitter's `on`. */
  function agent(fields: { tools?: unknown[]; handoffs?: unknown[]; toolUseBehavior?: unknown } = {}) {
    const listeners: ((...args: unknown[]) => void)[] = [];
    return {
      tools: [],
      handoffs: [],
      ...fields,
      listeners,
      on(event: string, listener: (...args: unknown[]) => void) {
        if (event === 'agent_tool_start') listeners.push(listener);
        return this;
      },
    };
  }
  const functionTool = (inputGuardrails?: unknown[]) => ({ type: 'function', name: 'search', ...(inputGuardrails === undefined ? {} : { inputGuardrails }) });

  it('sets toolUseBehavior, adds the guardrail to function tools only, and follows handoffs', () => {
    const loop = loopGuardForAgents();
    const other = { name: 'theirs', run: () => Promise.resolve({ behavior: { type: 'allow' } }) };
    const search = functionTool();
    const read = functionTool([other]);
    const hosted = { type: 'hosted_tool', name: 'web_search' };
    const specialist = agent({ tools: [read] });
    const writer = agent({ tools: [search] });
    const triage = agent({ tools: [search, hosted, null], handoffs: [specialist, { agent: writer }, null], toolUseBehavior: 'run_llm_again' });
    // A handoff back: wiring must not loop forever.
    specialist.handoffs = [triage];

    expect(loop.guardAgent(triage)).toBe(triage);
    for (const wired of [triage, specialist, writer]) expect(wired.toolUseBehavior).toBe(loop.toolUseBehavior);
    expect(search).toEqual({ type: 'function', name: 'search', inputGuardrails: [loop.toolInputGuardrail] });
    expect(read.inputGuardrails).toEqual([other, loop.toolInputGuardrail]);
    expect(hosted).toEqual({ type: 'hosted_tool', name: 'web_search' });
    expect(triage.listeners).toHaveLength(1);

    // Twice changes nothing; a second guard adds its own guardrail next to the first.
    loop.guardAgent(triage);
    loop.guardAgent(agent({ tools: [search] }));
    expect(search.inputGuardrails).toEqual([loop.toolInputGuardrail]);
    const second = loopGuardForAgents();
    second.guardAgent(triage);
    expect(search.inputGuardrails).toEqual([loop.toolInputGuardrail, second.toolInputGuardrail]);
  });

  it('runs an existing toolUseBehavior function after the guard, unless the guard stops', async () => {
    const loop = loopGuardForAgents({ maxSteps: 2 });
    const theirs = vi.fn(() => Promise.resolve({ isFinalOutput: false, isInterrupted: undefined }));
    const wired = loop.guardAgent(agent({ toolUseBehavior: theirs }));
    const combined = wired.toolUseBehavior as (context: AgentsRunContextLike, results: readonly AgentsToolResultLike[]) => unknown;
    const context = runContext();
    expect(await combined(context, [output('a')])).toEqual({ isFinalOutput: false, isInterrupted: undefined });
    expect(await combined(context, [output('b', 'other')])).toMatchObject({ isFinalOutput: true });
    expect(theirs).toHaveBeenCalledOnce();
    // Wiring the wired agent again keeps the combination.
    const again = agent({ toolUseBehavior: combined });
    loop.guardAgent(again);
    expect(again.toolUseBehavior).toBe(combined);
  });

  it('records the arguments the agent reports when a call starts, for tools without the guardrail', () => {
    const loop = loopGuardForAgents();
    const wired = loop.guardAgent(agent());
    const context = runContext();
    for (const listener of wired.listeners) {
      listener(context, {}, { toolCall: call('a', 'mcp') });
      listener('not a run', {}, { toolCall: call('z') });
    }
    loop.toolUseBehavior(context, [output('a')]);
    expect(loop.guardOf(context)?.history[0]?.toolCalls).toEqual([{ name: 'search', args: { query: 'mcp' }, result: 'nothing' }]);
  });

  it('wires an agent without an event emitter or lists', () => {
    const loop = loopGuardForAgents();
    const bare: { toolUseBehavior?: unknown } = {};
    loop.guardAgent(bare);
    expect(bare.toolUseBehavior).toBe(loop.toolUseBehavior);
  });

  it('refuses a toolUseBehavior it cannot stand in for', () => {
    const loop = loopGuardForAgents();
    expect(() => loop.guardAgent(agent({ toolUseBehavior: 'stop_on_first_tool' }))).toThrow(
      'agent-loopguard: guardAgent cannot wire an agent whose toolUseBehavior is "stop_on_first_tool"; pass a function that stops where you want and returns { isFinalOutput: false } otherwise.',
    );
    expect(() => loop.guardAgent(agent({ toolUseBehavior: { stopAtToolNames: ['x'] } }))).toThrow(/\{"stopAtToolNames":\["x"\]\}/);
  });
});
