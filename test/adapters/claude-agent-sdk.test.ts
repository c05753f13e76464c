/** toClaudeHooks on hand-made hook inputs: what each hook reads, records and answers, per session and subagent. */
import { describe, expect, it, vi } from 'vitest';
import { toClaudeHooks, type ClaudeHookInputLike, type ClaudeLoopGuardHooks, type ClaudeSessionKey } from '../../src/adapters/claude-agent-sdk.js';
import { createGuard } from '../../src/guard/create-guard.js';
import type { Guard } from '../../src/types.js';

const hook = (hooks: ClaudeLoopGuardHooks, event: 'PreToolUse' | 'PostToolUseFailure' | 'PostToolBatch') => (input: ClaudeHookInputLike) => {
  const callback = hooks[event][0]?.hooks[0];
  if (callback === undefined) throw new Error(`no ${event} hook`);
  return callback(input);
};

/** One batch of calls in a session: PreToolUse for each, then PostToolBatch with their responses. */
async function batch(hooks: ClaudeLoopGuardHooks, session: { session_id: string; agent_id?: string }, ...calls: { id: string; query?: string; response?: unknown }[]) {
  const denials = [];
  for (const { id, query = 'loops' } of calls) {
    denials.push(await hook(hooks, 'PreToolUse')({ ...session, hook_event_name: 'PreToolUse', tool_name: 'search', tool_input: { query }, tool_use_id: id }));
  }
  const toolCalls = calls.map(({ id, query = 'loops', response = 'nothing' }) => ({ tool_name: 'search', tool_input: { query }, tool_use_id: id, tool_response: response }));
  const answer = await hook(hooks, 'PostToolBatch')({ ...session, hook_event_name: 'PostToolBatch', tool_calls: toolCalls });
  return { denials, answer };
}

const main = { session_id: 's1' };

describe('toClaudeHooks', () => {
  it('warns, denies the third identical call, records it as refused, and stops when the model persists', async () => {
    const onWarning = vi.fn();
    const onBlock = vi.fn();
    const onStop = vi.fn();
    const hooks = toClaudeHooks({ noProgress: false }, { onWarning, onBlock, onStop });

    expect(await batch(hooks, main, { id: 't1' })).toEqual({ denials: [{}], answer: {} });
    const warned = await batch(hooks, main, { id: 't2' });
    expect(warned.answer).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolBatch', additionalContext: expect.stringContaining('2 times in a row') as string } });
    expect(onWarning).toHaveBeenCalledWith([expect.objectContaining({ code: 'LOOP_WARNING' })], { sessionId: 's1' });

    const refused = await batch(hooks, main, { id: 't3', response: 'PreToolUse:search hook error: Not run' });
    expect(refused.denials).toEqual([
      { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/^Not run: this would be call number 3/) as string } },
    ]);
    expect(onBlock).toHaveBeenCalledWith(expect.objectContaining({ block: true }), expect.objectContaining({ tool_use_id: 't3' }), { sessionId: 's1' });

    const stopped = await batch(hooks, main, { id: 't4', response: 'PreToolUse:search hook error: Not run' });
    expect(stopped.answer).toEqual({ continue: false, stopReason: expect.stringMatching(/^Stopped by agent-loopguard \[REPEATED_TOOL_CALL\]: /) as string });
    expect(onStop).toHaveBeenCalledWith(hooks.verdictFor('s1'), { sessionId: 's1' });
    expect(hooks.guardFor('s1')?.history.map((step) => step.toolCalls)).toEqual([
      [{ name: 'search', args: { query: 'loops' }, result: 'nothing' }],
      [{ name: 'search', args: { query: 'loops' }, result: 'nothing' }],
      [{ name: 'search', args: { query: 'loops' }, blocked: true }],
      [{ name: 'search', args: { query: 'loops' }, blocked: true }],
    ]);
  });

  it('judges a call against the calls of its own batch, and records errors PostToolUseFailure reported', async () => {
    const hooks = toClaudeHooks({ repeatedToolCall: { threshold: 2 } });
    await hook(hooks, 'PostToolUseFailure')({ ...main, hook_event_name: 'PostToolUseFailure', tool_use_id: 'a', error: 'backend down' });
    const { denials } = await batch(hooks, main, { id: 'a', response: 'backend down' }, { id: 'b' });
    expect(denials.map((answer) => ('hookSpecificOutput' in answer ? answer.hookSpecificOutput.hookEventName : 'allow'))).toEqual(['allow', 'PreToolUse']);
    expect(hooks.guardFor('s1')?.history[0]?.toolCalls).toEqual([
      { name: 'search', args: { query: 'loops' }, error: 'backend down' },
      { name: 'search', args: { query: 'loops' }, blocked: true },
    ]);
  });

  it('keeps sessions, and the subagents within one, apart', async () => {
    const factory = vi.fn<(session: ClaudeSessionKey) => Guard>(() => createGuard({ maxSteps: 2 }));
    const hooks = toClaudeHooks(factory, { stopReason: (verdict) => verdict.code });
    const subagent = { session_id: 's1', agent_id: 'agent-7' };
    await batch(hooks, main, { id: 'a' });
    await batch(hooks, subagent, { id: 'b' });
    await batch(hooks, { session_id: 's2' }, { id: 'c' });
    expect(factory.mock.calls.map(([key]) => key)).toEqual([{ sessionId: 's1' }, { sessionId: 's1', agentId: 'agent-7' }, { sessionId: 's2' }]);
    expect(hooks.guardFor('s1')).not.toBe(hooks.guardFor('s1', 'agent-7'));
    expect(hooks.guardFor('s1', 'agent-7')?.history).toHaveLength(1);

    // The subagent's stop is the session's verdict; the first stop in a session stays its verdict.
    expect((await batch(hooks, subagent, { id: 'd', query: 'other' })).answer).toEqual({ continue: false, stopReason: 'MAX_STEPS' });
    const first = hooks.verdictFor('s1');
    expect(first).toMatchObject({ code: 'MAX_STEPS' });
    await batch(hooks, main, { id: 'e', query: 'other' });
    expect(hooks.verdictFor('s1')).toBe(first);
    expect(hooks.verdictFor('s2')).toBeUndefined();

    hooks.forget('s1');
    expect(hooks.verdictFor('s1')).toBeUndefined();
    expect(hooks.guardFor('s1')).toBeUndefined();
    expect(hooks.guardFor('s2')).toBeDefined();
  });

  it('shows the SDK only the three hook events', () => {
    const hooks = toClaudeHooks();
    expect(Object.keys(hooks)).toEqual(['PreToolUse', 'PostToolUseFailure', 'PostToolBatch']);
    expect(Object.keys({ ...hooks })).toEqual(['PreToolUse', 'PostToolUseFailure', 'PostToolBatch']);
    expect(typeof hooks.verdictFor).toBe('function');
  });

  it('tells parallel calls that share one tool_use_id (or have none) apart, and records the refused one as refused', async () => {
    for (const id of ['toolu_same', undefined]) {
      const hooks = toClaudeHooks({ noProgress: false });
      const denials = [];
      for (let index = 0; index < 3; index++) {
        denials.push(await hook(hooks, 'PreToolUse')({ ...main, hook_event_name: 'PreToolUse', tool_name: 'search', tool_input: { query: 'loops' }, tool_use_id: id }));
      }
      expect(denials.map((answer) => ('hookSpecificOutput' in answer ? answer.hookSpecificOutput.hookEventName : 'allow'))).toEqual(['allow', 'allow', 'PreToolUse']);
      const entry = { tool_name: 'search', tool_input: { query: 'loops' }, tool_use_id: id, tool_response: 'nothing' };
      await hook(hooks, 'PostToolBatch')({ ...main, hook_event_name: 'PostToolBatch', tool_calls: [entry, entry, { ...entry, tool_response: 'denied' }] });
      expect(hooks.guardFor('s1')?.history[0]?.toolCalls).toEqual([
        { name: 'search', args: { query: 'loops' }, result: 'nothing' },
        { name: 'search', args: { query: 'loops' }, result: 'nothing' },
        { name: 'search', args: { query: 'loops' }, blocked: true },
      ]);
    }
  });

  it('never throws on odd input', async () => {
    const hooks = toClaudeHooks();
    const hostile = new Proxy({}, { get: () => { throw new Error('no'); } });
    expect(await hook(hooks, 'PreToolUse')(hostile)).toEqual({});
    expect(await hook(hooks, 'PostToolUseFailure')(hostile)).toEqual({});
    expect(await hook(hooks, 'PostToolBatch')(hostile)).toEqual({});
    expect(await hook(hooks, 'PostToolBatch')({ session_id: 'x', tool_calls: [null, hostile, { tool_name: 7 }] as never })).toEqual({});
    // Calls without a name are left out by the guard; a session id that cannot be read is never converted (that could
    // throw into the host): such hooks share the guard of the session without an id, ''.
    expect(hooks.guardFor('x')?.history[0]?.toolCalls).toEqual([]);
    expect(hooks.guardFor('')?.history).toHaveLength(1);
    expect(hooks.guardFor('undefined')).toBeUndefined();
    const throwing = { toString: () => { throw new Error('no'); } };
    expect(await hook(hooks, 'PreToolUse')({ session_id: throwing as never, tool_name: 'search', tool_input: {} })).toEqual({});
    expect(hooks.guardFor('')?.history).toHaveLength(1);
  });

  it('calls no callback it was not given: warns, denies and stops without options, or with none of the callbacks', async () => {
    for (const options of [undefined, {}]) {
      const hooks = toClaudeHooks({ noProgress: false }, options);
      await batch(hooks, main, { id: 't1' });
      expect((await batch(hooks, main, { id: 't2' })).answer).toHaveProperty('hookSpecificOutput.hookEventName', 'PostToolBatch');
      expect((await batch(hooks, main, { id: 't3' })).denials).toEqual([{ hookSpecificOutput: expect.objectContaining({ permissionDecision: 'deny' }) as unknown }]);
      expect((await batch(hooks, main, { id: 't4' })).answer).toEqual({ continue: false, stopReason: expect.stringMatching(/^Stopped by agent-loopguard \[REPEATED_TOOL_CALL\]: /) as string });
      expect(hooks.verdictFor('s1')).toMatchObject({ code: 'REPEATED_TOOL_CALL' });
    }
  });

  it('keys the main thread by its session alone, and a subagent by its agent_id when that is a string', async () => {
    const factory = vi.fn<(session: ClaudeSessionKey) => Guard>(() => createGuard());
    const hooks = toClaudeHooks(factory);
    await batch(hooks, main, { id: 'a' });
    await batch(hooks, { session_id: 's1', agent_id: 7 as never }, { id: 'b' });
    await batch(hooks, { session_id: 's1', agent_id: 'agent-7' }, { id: 'c' });
    expect(factory.mock.calls.map(([key]) => key)).toStrictEqual([{ sessionId: 's1' }, { sessionId: 's1', agentId: 'agent-7' }]);
    expect(Object.keys(factory.mock.calls[0]?.[0] ?? {})).toEqual(['sessionId']);
    expect(hooks.guardFor('s1')?.history).toHaveLength(2);
    expect(hooks.guardFor('s1', 'agent-7')?.history).toHaveLength(1);
    expect(hooks.guardFor('s1', 'agent-8')).toBeUndefined();
    expect(hooks.guardFor('s2', 'agent-7')).toBeUndefined();
  });

  it('records a batch as reported, with the error PostToolUseFailure noted for a call whose response is text or missing', async () => {
    const hooks = toClaudeHooks();
    const fail = hook(hooks, 'PostToolUseFailure');
    for (const [id, error] of [['missing', 'timed out'], ['text', 'backend down'], ['object', 'never read']]) {
      await fail({ ...main, hook_event_name: 'PostToolUseFailure', tool_use_id: id, error });
    }
    const tool_calls = [
      { tool_name: 'fetch', tool_input: { url: 'a' }, tool_use_id: 'missing', tool_response: undefined },
      { tool_name: 'fetch', tool_input: { url: 'b' }, tool_use_id: 'text', tool_response: 'Error: backend down' },
      { tool_name: 'fetch', tool_input: { url: 'c' }, tool_use_id: 'object', tool_response: { content: 'ok' } },
      { tool_name: 'fetch', tool_input: { url: 'd' }, tool_use_id: 'ran', tool_response: 'fine' },
      { tool_name: 'fetch', tool_input: { url: 'e' }, tool_use_id: 'silent' },
    ];
    expect(await hook(hooks, 'PostToolBatch')({ ...main, hook_event_name: 'PostToolBatch', tool_calls })).toEqual({});
    expect(hooks.guardFor('s1')?.history).toStrictEqual([
      {
        toolCalls: [
          { name: 'fetch', args: { url: 'a' }, error: 'timed out' },
          { name: 'fetch', args: { url: 'b' }, error: 'backend down' },
          { name: 'fetch', args: { url: 'c' }, result: { content: 'ok' } },
          { name: 'fetch', args: { url: 'd' }, result: 'fine' },
          { name: 'fetch', args: { url: 'e' } },
        ],
        finishReason: 'tool-calls',
      },
    ]);
  });

  it('throws a bad option where it is set up', () => {
    expect(() => toClaudeHooks({ repeatedToolCall: { threshold: 1 } })).toThrow(TypeError);
  });
});
