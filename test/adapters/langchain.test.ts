/** loopGuardMiddleware on hand-made shapes of LangChain's agent state: what each hook reads, replays and answers. */
import { describe, expect, it, vi } from 'vitest';
import { loopGuardMiddleware, MAX_RUN_MESSAGES, type LangChainToolCallRequestLike, type LangChainToolMessageFields } from '../../src/adapters/langchain.js';
import { createGuard } from '../../src/guard/create-guard.js';
import type { GuardOptions, GuardStep } from '../../src/types.js';

/** Stands in for LangChain's ToolMessage: keeps the fields it was made with. */
class FakeToolMessage {
  constructor(readonly fields: LangChainToolMessageFields) {}
}

/** A tool call as a hand-made shape may have it: any id and name, not only strings. */
interface Call {
  readonly id?: unknown;
  readonly name?: unknown;
  readonly args?: unknown;
}

/** What wrapToolCall is given: a state with these messages and the call. */
const request = (messages: readonly unknown[], toolCall: Call) => ({ toolCall, state: { messages } }) as LangChainToolCallRequestLike;

const human = (id = 'h', content = 'Find it.') => ({ type: 'human', id, content });
const ai = (id: string, calls: readonly Call[], fields: Record<string, unknown> = {}) => ({ type: 'ai', id, content: `step ${id}`, tool_calls: calls, ...fields });
const answer = (callId: string, content: unknown = 'nothing', fields: Record<string, unknown> = {}) => ({
  type: 'tool',
  id: `tool-${callId}`,
  tool_call_id: callId,
  content,
  status: 'success',
  ...fields,
});
const search = (id: string, query = 'loops'): Call => ({ id, name: 'search', args: { query } });
/** The messages of `count` identical searches, each answered. */
const searches = (count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => {
    const id = `s${String(from + index)}`;
    return [ai(`m${String(from + index)}`, [search(id)]), answer(id)];
  }).flat();

/** The messages of `count` searches, each for something else, each answered. */
const distinctSearches = (count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => {
    const id = `s${String(from + index)}`;
    return [ai(`m${String(from + index)}`, [search(id, `query ${id}`)]), answer(id)];
  }).flat();
/** A tool message without an id of its own. */
const idless = (callId: string) => ({ type: 'tool', tool_call_id: callId, content: 'nothing', status: 'success' });
const warningOf = (id: string) => ({ messages: [{ role: 'user', content: expect.stringMatching(/^You have called search 2 times in a row/) as string, id }] });

function middlewareWith(options: GuardOptions | (() => ReturnType<typeof createGuard>) = {}, callbacks = {}) {
  return loopGuardMiddleware(options, { ToolMessage: FakeToolMessage, ...callbacks });
}

const handler = vi.fn((request: unknown) => ({ ran: request }));

describe('loopGuardMiddleware: set-up', () => {
  it('is a LangChain middleware object: a name, beforeModel that may jump to the end, wrapToolCall', () => {
    const middleware = middlewareWith();
    expect(middleware.name).toBe('agent-loopguard');
    expect(middleware.beforeModel.canJumpTo).toEqual(['end']);
    expect(typeof middleware.beforeModel.hook).toBe('function');
    expect(typeof middleware.wrapToolCall).toBe('function');
  });

  it('needs the ToolMessage class, and says so by name', () => {
    const message = /loopGuardMiddleware needs options\.ToolMessage/;
    expect(() => loopGuardMiddleware({}, {} as never)).toThrow(TypeError);
    expect(() => loopGuardMiddleware({}, {} as never)).toThrow(message);
    expect(() => loopGuardMiddleware({}, undefined as never)).toThrow(message);
    expect(() => loopGuardMiddleware({}, { ToolMessage: 'ToolMessage' } as never)).toThrow(message);
  });

  it('throws a bad guard option where it is set up', () => {
    expect(() => middlewareWith({ maxSteps: -1 })).toThrow(TypeError);
  });

  it('takes the defaults without options', () => {
    const middleware = loopGuardMiddleware(undefined, { ToolMessage: FakeToolMessage });
    expect(middleware.guardOf({ messages: [human(), ...searches(2)] }).history).toHaveLength(2);
  });
});

describe('loopGuardMiddleware: beforeModel', () => {
  it('says nothing before the first model message of a run, or without messages', () => {
    const { hook } = middlewareWith().beforeModel;
    expect(hook({ messages: [human()] })).toBeUndefined();
    expect(hook({ messages: [] })).toBeUndefined();
    expect(hook({})).toBeUndefined();
    expect(hook(undefined as never)).toBeUndefined();
  });

  it('warns the model once a loop is forming: a user message with the warning, after the message it follows', () => {
    const onWarning = vi.fn();
    const middleware = middlewareWith({}, { onWarning });
    const state = { messages: [human(), ...searches(2)] };
    const update = middleware.beforeModel.hook(state);
    expect(update).toEqual({
      messages: [{ role: 'user', content: expect.stringMatching(/^You have called search 2 times in a row/) as string, id: 'agent-loopguard:warning:tool-s1' }],
    });
    expect(onWarning).toHaveBeenCalledOnce();
    expect(onWarning).toHaveBeenCalledWith([expect.objectContaining({ code: 'LOOP_WARNING', reason: 'repeated-tool-call' })], state);
  });

  it('does not warn twice for the same step, nor when told to stay silent', () => {
    const warned = [human(), ...searches(2), { type: 'human', id: 'agent-loopguard:warning:tool-s1', content: 'warned' }];
    expect(middlewareWith().beforeModel.hook({ messages: warned })).toBeUndefined();
    const silent = loopGuardMiddleware({}, { ToolMessage: FakeToolMessage, nudge: false });
    expect(silent.beforeModel.hook({ messages: [human(), ...searches(2)] })).toBeUndefined();
  });

  it('gives the same warning to a hook run again on the same state, and none once the warning is in it', () => {
    const middleware = middlewareWith();
    const state = { messages: [human(), ...searches(2)] };
    expect(middleware.beforeModel.hook(state)).toEqual(warningOf('agent-loopguard:warning:tool-s1'));
    // Run again: nothing new to read, and the message it follows is the one the replay read last.
    expect(middleware.beforeModel.hook(state)).toEqual(warningOf('agent-loopguard:warning:tool-s1'));
    const warned = { messages: [...state.messages, { type: 'human', id: 'agent-loopguard:warning:tool-s1', content: 'warned' }] };
    expect(middleware.beforeModel.hook(warned)).toBeUndefined();
    expect(middleware.beforeModel.hook(warned)).toBeUndefined();
  });

  it('names a warning after its place in the thread when the message before it has no id', () => {
    const messages = [human(), ...searches(1), ai('m1', [search('s1')]), { type: 'tool', tool_call_id: 's1', content: 'nothing' }];
    const update = middlewareWith().beforeModel.hook({ messages }) as { messages: { id: string }[] };
    // Five messages before it: the place is counted in the whole thread, so a later run on it never reuses the id.
    expect(update.messages[0]?.id).toBe('agent-loopguard:warning:5');
  });

  it('ends the run on a stop verdict, and hands the verdict to onStop', () => {
    const onStop = vi.fn();
    const middleware = middlewareWith({ maxSteps: 2 }, { onStop });
    const state = { messages: [human(), ...searches(1), ai('m1', [search('s1', 'other')]), answer('s1')] };
    expect(middleware.beforeModel.hook(state)).toEqual({ jumpTo: 'end' });
    expect(onStop).toHaveBeenCalledWith(expect.objectContaining({ stop: true, reason: 'max-steps', code: 'MAX_STEPS' }), state);
  });

  it('judges only the run after the latest user message, its own warnings not counting as one', () => {
    const middleware = middlewareWith({ maxSteps: 3 });
    const warning = { type: 'human', id: 'agent-loopguard:warning:x', content: 'careful' };
    // Three steps of an earlier run, then a new request: the new run has one step.
    expect(middleware.beforeModel.hook({ messages: [human('h1'), ...searches(3), human('h2'), ...searches(1, 3)] })).toBeUndefined();
    // A warning in the middle of a run does not start a new one: three steps, the limit.
    expect(middleware.beforeModel.hook({ messages: [human(), ...searches(1), warning, ...searches(2, 1)] })).toEqual({ jumpTo: 'end' });
  });

  it('stops a model that asks again for a call the guard refused', () => {
    const refused = (id: string) => answer(id, 'Not run', { id: `agent-loopguard:refusal:${id}`, status: 'error' });
    const once = [human(), ...searches(2), ai('m2', [search('s2')]), refused('s2')];
    const middleware = middlewareWith({ noProgress: false });
    expect(middleware.beforeModel.hook({ messages: once })).toBeUndefined();
    expect(middleware.beforeModel.hook({ messages: [...once, ai('m3', [search('s3')]), refused('s3')] })).toEqual({ jumpTo: 'end' });
  });
});

describe('loopGuardMiddleware: wrapToolCall', () => {
  it('lets a call run that completes no loop, handing the request to the handler as it is', () => {
    const middleware = middlewareWith();
    const given = request([human(), ai('m0', [search('s0')])], search('s0'));
    expect(middleware.wrapToolCall(given, handler)).toEqual({ ran: given });
  });

  it('refuses the call that would complete a repeat with a ToolMessage, without calling the handler', () => {
    const onBlock = vi.fn();
    const middleware = middlewareWith({}, { onBlock });
    const given = request([human(), ...searches(2), ai('m2', [search('s2')])], search('s2'));
    const calls = handler.mock.calls.length;
    const refusal = middleware.wrapToolCall(given, handler) as FakeToolMessage;
    expect(handler.mock.calls).toHaveLength(calls);
    expect(refusal).toBeInstanceOf(FakeToolMessage);
    expect(refusal.fields).toEqual({
      content: expect.stringMatching(/^Not run: this would be call number 3 in a row to search/) as string,
      tool_call_id: 's2',
      name: 'search',
      status: 'error',
      // The AI message's id and the call's place in it: unique in the thread even when call ids are reused.
      id: 'agent-loopguard:refusal:m2:0',
    });
    expect(onBlock).toHaveBeenCalledWith(expect.objectContaining({ block: true, code: 'REPEATED_TOOL_CALL' }), search('s2'), given.state);
  });

  it('judges a call after the calls before it in its own message, whatever order they run in', () => {
    const middleware = middlewareWith();
    const messages = [human(), ai('m0', [search('a'), search('b'), search('c')])];
    expect(middleware.wrapToolCall(request(messages, search('c')), handler)).toBeInstanceOf(FakeToolMessage);
    expect(middleware.wrapToolCall(request(messages, search('b')), handler)).toEqual({ ran: request(messages, search('b')) });
    expect(middleware.wrapToolCall(request(messages, search('a')), handler)).toEqual({ ran: request(messages, search('a')) });
  });

  it('does not count an earlier call of the message that would itself be refused', () => {
    const middleware = middlewareWith({ repeatedToolCall: { threshold: 2 } });
    // a is allowed; b would be the second in a row, refused; so c follows a alone and is refused too.
    const messages = [human(), ai('m0', [search('a'), search('b'), search('c')])];
    expect(middleware.wrapToolCall(request(messages, search('c')), handler)).toBeInstanceOf(FakeToolMessage);
    const other = [human(), ai('m0', [search('a'), search('b', 'other'), search('c')])];
    expect(middleware.wrapToolCall(request(other, search('c')), handler)).toEqual({ ran: request(other, search('c')) });
  });

  it('judges a call it cannot find in the run after every step of the run, its refusal named after the thread\'s length', () => {
    const onBlock = vi.fn();
    const middleware = middlewareWith({}, { onBlock });
    const given = request([human(), ...searches(2)], search('elsewhere'));
    const refusal = middleware.wrapToolCall(given, handler) as FakeToolMessage;
    expect(refusal).toBeInstanceOf(FakeToolMessage);
    expect(refusal.fields).toEqual({
      content: expect.stringMatching(/^Not run: this would be call number 3 in a row to search/) as string,
      tool_call_id: 'elsewhere',
      name: 'search',
      status: 'error',
      id: 'agent-loopguard:refusal:5:call',
    });
    expect(onBlock).toHaveBeenCalledOnce();
    expect(onBlock).toHaveBeenCalledWith(expect.objectContaining({ block: true, code: 'REPEATED_TOOL_CALL' }), search('elsewhere'), given.state);
    expect(middleware.wrapToolCall(request([], search('x')), handler)).toEqual({ ran: request([], search('x')) });
  });

  it('names a refusal after the place of its message in the thread when the message has no id', () => {
    const messages = [human(), ...searches(2), { type: 'ai', tool_calls: [search('s2')] }];
    const refusal = middlewareWith().wrapToolCall(request(messages, search('s2')), handler) as FakeToolMessage;
    expect(refusal.fields.id).toBe('agent-loopguard:refusal:5:0');
  });

  it('tells onBlock of a refusal once, however often LangChain asks about the same call', () => {
    const onBlock = vi.fn();
    const middleware = middlewareWith({}, { onBlock });
    const call = search('s2');
    const given = request([human(), ...searches(2), ai('m2', [call])], call);
    const first = middleware.wrapToolCall(given, handler) as FakeToolMessage;
    const again = middleware.wrapToolCall(given, handler) as FakeToolMessage;
    expect(first.fields.id).toBe('agent-loopguard:refusal:m2:0');
    expect(again.fields).toEqual(first.fields);
    expect(onBlock).toHaveBeenCalledOnce();
  });

  it('finds a call\'s message behind the messages after it, and never takes a message of another type for it', () => {
    const middleware = middlewareWith();
    const behind = [human(), ...searches(2), ai('m2', [search('s2')]), { type: 'system', content: 'a note' }];
    expect((middleware.wrapToolCall(request(behind, search('s2')), handler) as FakeToolMessage).fields.id).toBe('agent-loopguard:refusal:m2:0');
    // Read up to here, so the run's new messages are the odd one alone: its calls are not the model's, and the call is
    // judged alone, after every step of the run.
    const run = [human(), ...searches(2)];
    middleware.beforeModel.hook({ messages: run });
    const odd = [...run, { type: 'odd', id: 'x', tool_calls: [search('s2')] }];
    expect((middleware.wrapToolCall(request(odd, search('s2')), handler) as FakeToolMessage).fields.id).toBe('agent-loopguard:refusal:6:call');
  });

  it('judges a call without an id by its place in its message, and lets a call without a name run', () => {
    const middleware = middlewareWith();
    const withoutId = { name: 'search', args: { query: 'loops' } };
    const messages = [human(), ...searches(2), ai('m2', [withoutId])];
    const refusal = middleware.wrapToolCall(request(messages, withoutId), handler) as FakeToolMessage;
    expect(refusal.fields).toMatchObject({ tool_call_id: '', name: 'search', status: 'error', id: 'agent-loopguard:refusal:m2:0' });
    const nameless = { id: 's2', args: { query: 'loops' } };
    expect(middleware.wrapToolCall(request(messages, nameless), handler)).toEqual({ ran: request(messages, nameless) });
    expect(middleware.wrapToolCall(undefined as never, handler)).toEqual({ ran: undefined });
  });

  it('tells apart calls of one message that share one id, or have none, by their place in it', () => {
    for (const id of ['same', undefined]) {
      const middleware = middlewareWith({ noProgress: false });
      const calls = [0, 1, 2].map(() => ({ id, name: 'search', args: { query: 'loops' } }));
      const messages = [human(), ai('m0', calls)];
      // LangChain hands each call's own object; a copy (a host that clones) is found as the next call with its id.
      const answers = calls.map((call, index) => (index === 1 ? { ...call } : call)).map((call) => middleware.wrapToolCall(request(messages, call), handler));
      expect(answers.map((answer) => (answer instanceof FakeToolMessage ? answer.fields.id : 'ran'))).toEqual(['ran', 'ran', 'agent-loopguard:refusal:m0:2']);
      const answered = [...messages, answer(id as never, 'nothing'), answer(id as never, 'nothing'), answer(id as never, 'Not run', { id: 'agent-loopguard:refusal:m0:2', status: 'error' })];
      expect(middleware.guardOf(answered).history[0]?.toolCalls).toEqual([
        { name: 'search', args: { query: 'loops' }, result: 'nothing' },
        { name: 'search', args: { query: 'loops' }, result: 'nothing' },
        { name: 'search', args: { query: 'loops' }, blocked: true },
      ]);
    }
  });
});

describe('loopGuardMiddleware: reading the messages', () => {
  const historyOf = (messages: readonly unknown[], options: GuardOptions = {}) => middlewareWith(options).guardOf({ messages }).history;

  it('records each AI message as a step: calls with their answers, text, finish reason and tokens', () => {
    const messages = [
      human(),
      ai('m0', [search('a'), search('b', 'other'), search('c', 'third'), search('d', 'fourth')], {
        content: [{ type: 'text', text: 'Looking ' }, { type: 'image', text: 'not text' }, { type: 'text', text: 'twice.' }, { type: 'text', text: 7 }],
        usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
        response_metadata: { finish_reason: 'stop' },
      }),
      answer('a', 'found'),
      answer('b', 'boom', { status: 'error' }),
      answer('c', 'Not run', { id: 'agent-loopguard:refusal:c', status: 'error' }),
      answer('a', 'a second answer to the same call'),
      ai('m1', [], { content: 'Done.', response_metadata: { stop_reason: 'end_turn' }, usage_metadata: { output_tokens: 3 } }),
    ];
    expect(historyOf(messages)).toStrictEqual([
      {
        toolCalls: [
          { name: 'search', args: { query: 'loops' }, result: 'found' },
          { name: 'search', args: { query: 'other' }, error: 'boom' },
          { name: 'search', args: { query: 'third' }, blocked: true },
          { name: 'search', args: { query: 'fourth' } },
        ],
        text: 'Looking twice.',
        finishReason: 'tool-calls',
        usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      },
      { toolCalls: [], text: 'Done.', finishReason: 'end_turn', usage: { outputTokens: 3 } },
    ]);
  });

  it('leaves out what a message does not say, and what is not of the right type', () => {
    const messages = [
      ai('m0', [{ id: 7, name: 'search', args: {} }, { id: 'x', name: 42, args: {} }], { content: undefined, usage_metadata: { input_tokens: '10' }, response_metadata: { finish_reason: 3 } }),
      { type: 'tool', tool_call_id: 7, content: 'matched by a number' },
      ai('m1', 'not an array' as never, { content: '' }),
      { type: 'system', content: 'ignored' },
      'not a message',
      null,
    ];
    // The call whose name is not a string is passed on, and the guard leaves it out. Ids are matched as they are.
    expect(historyOf(messages)).toStrictEqual([{ toolCalls: [{ name: 'search', args: {}, result: 'matched by a number' }], finishReason: 'tool-calls' }, { toolCalls: [] }]);
  });

  it('answers a call only with tool messages before the next AI message, an empty call id matching a call without one', () => {
    const messages = [
      human(),
      // Not answered: the answer with its id comes after the next AI message, which has a call with the same id.
      ai('m0', [search('x')]),
      ai('m1', [search('x')]),
      answer('x', 'found'),
      ai('m2', [{ name: 'search', args: { query: 'loops' } }]),
      { type: 'system', content: 'not an answer' },
      // What a refusal of a call without an id has.
      { type: 'tool', tool_call_id: '', content: 'found again' },
    ];
    expect(historyOf(messages)).toStrictEqual([
      { toolCalls: [{ name: 'search', args: { query: 'loops' } }], text: 'step m0', finishReason: 'tool-calls' },
      { toolCalls: [{ name: 'search', args: { query: 'loops' }, result: 'found' }], text: 'step m1', finishReason: 'tool-calls' },
      { toolCalls: [{ name: 'search', args: { query: 'loops' }, result: 'found again' }], text: 'step m2', finishReason: 'tool-calls' },
    ]);
  });

  it('keeps the finish reason of a message without calls: finish_reason, else stop_reason, a string only', () => {
    const stepOf = (metadata: unknown) => historyOf([ai('m0', [], { content: '', response_metadata: metadata })]);
    expect(stepOf({ finish_reason: 'length', stop_reason: 'max_tokens' })).toStrictEqual([{ toolCalls: [], finishReason: 'length' }]);
    expect(stepOf({ stop_reason: 'max_tokens' })).toStrictEqual([{ toolCalls: [], finishReason: 'max_tokens' }]);
    expect(stepOf({ finish_reason: 3, stop_reason: 'max_tokens' })).toStrictEqual([{ toolCalls: [] }]);
    expect(stepOf(undefined)).toStrictEqual([{ toolCalls: [] }]);
  });

  it('hands the guard only what a message says: no result for an unanswered call, no finish reason but a string', () => {
    const checked: GuardStep[] = [];
    const recording = () => {
      const guard = createGuard();
      const check = guard.check.bind(guard);
      return Object.assign(guard, {
        check: (step: GuardStep) => {
          checked.push(step);
          return check(step);
        },
      });
    };
    const messages = [ai('m0', [search('a')], { content: '' }), ai('m1', [], { content: '', response_metadata: { finish_reason: 3 } }), ai('m2', [], { content: '' })];
    loopGuardMiddleware(recording, { ToolMessage: FakeToolMessage }).guardOf(messages);
    expect(checked).toStrictEqual([{ toolCalls: [{ name: 'search', args: { query: 'loops' } }], finishReason: 'tool-calls' }, { toolCalls: [] }, { toolCalls: [] }]);
  });

  it('takes a messages array as well as a state', () => {
    expect(middlewareWith().guardOf([human(), ...searches(2)]).history).toHaveLength(2);
    expect(middlewareWith().guardOf(undefined).history).toEqual([]);
  });

  it(`reads at most ${String(MAX_RUN_MESSAGES)} messages back from the end`, () => {
    const messages: unknown[] = new Array<unknown>(MAX_RUN_MESSAGES + 2);
    messages[0] = ai('too-old', [search('old')]);
    messages[MAX_RUN_MESSAGES + 1] = ai('latest', [search('new')]);
    expect(historyOf(messages)).toEqual([{ toolCalls: [{ name: 'search', args: { query: 'loops' } }], text: 'step latest', finishReason: 'tool-calls' }]);
    const huge: unknown[] = [];
    huge.length = 2 ** 32 - 1;
    expect(historyOf(huge)).toEqual([]);
    // A proxy may claim any length: an endless one is read as the longest an array can be.
    for (const length of [Infinity, 2 ** 53 - 1, -1, Number.NaN]) {
      const claiming = new Proxy([ai('m0', [search('a')])], { get: (target, key, receiver) => (key === 'length' ? length : (Reflect.get(target, key, receiver) as unknown)) });
      expect(historyOf(claiming)).toEqual([]);
    }
  });

  it(`reads exactly ${String(MAX_RUN_MESSAGES)} messages back from the end, in order, from a thread without a user message`, () => {
    /** `length` messages: an older search first, then two repeated searches at the start and the end of the rest. */
    const thread = (length: number) => {
      const messages = new Array<unknown>(length);
      const start = [ai('old', [search('old', 'older')]), ai('m0', [search('s0')]), answer('s0')];
      const end = [ai('m1', [search('s1')]), idless('s1')];
      start.forEach((message, index) => (messages[index] = message));
      end.forEach((message, index) => (messages[length - end.length + index] = message));
      return messages;
    };
    const { hook } = middlewareWith({ maxSteps: 3 }).beforeModel;
    // Exactly the cap: the older search is read, a third step, the limit.
    expect(hook({ messages: thread(MAX_RUN_MESSAGES) })).toEqual({ jumpTo: 'end' });
    // One more: it is not; the warning follows the last message, which has no id, so it is named after the thread's length.
    expect(hook({ messages: thread(MAX_RUN_MESSAGES + 1) })).toEqual(warningOf(`agent-loopguard:warning:${String(MAX_RUN_MESSAGES + 1)}`));
  });

  it('reads a proxy claiming an endless length as the longest array, up to its last index', () => {
    const lastIndex = 2 ** 32 - 2;
    const items = new Map<string, unknown>([
      [String(lastIndex - 3), ai('m0', [search('s0')])],
      [String(lastIndex - 2), answer('s0')],
      [String(lastIndex - 1), ai('m1', [search('s1')])],
      [String(lastIndex), idless('s1')],
    ]);
    const endless = new Proxy([], { get: (_target, key) => (key === 'length' ? Infinity : items.get(String(key))) });
    expect(middlewareWith().beforeModel.hook({ messages: endless })).toEqual(warningOf(`agent-loopguard:warning:${String(2 ** 32 - 1)}`));
  });

  it('reads a length that is not a number as none: a call judged alone is named after place 0', () => {
    const refusal = createGuard({ repeatedToolCall: { threshold: 2 } });
    refusal.check({ toolCalls: [{ name: 'search', args: {} }] });
    const verdict = refusal.judgeCall({ name: 'search', args: {} });
    // A guard that refuses every call, as a factory may hand out.
    const middleware = middlewareWith(() => Object.assign(createGuard(), { screen: () => ({ judge: () => verdict }) }));
    const unreadable = new Proxy([human()], { get: (target, key, receiver) => (key === 'length' ? Number.NaN : (Reflect.get(target, key, receiver) as unknown)) });
    for (const messages of [unreadable, []]) {
      expect((middleware.wrapToolCall(request(messages, search('s0')), handler) as FakeToolMessage).fields.id).toBe('agent-loopguard:refusal:0:call');
    }
  });

  it('never throws on hostile messages, states and requests', () => {
    const throwing = new Proxy([], {
      get() {
        throw new Error('no');
      },
    });
    const revoked = Proxy.revocable([], {});
    revoked.revoke();
    const hostileMessage = new Proxy({}, {
      get() {
        throw new Error('no');
      },
    });
    const middleware = middlewareWith();
    const runs = () => 'ran';
    for (const messages of [throwing, revoked.proxy, [hostileMessage, ai('m0', [hostileMessage]), hostileMessage]]) {
      expect(middleware.beforeModel.hook({ messages })).toBeUndefined();
      expect(middleware.verdictOf({ messages })).toBeUndefined();
      expect(middleware.verdictOf(messages)).toBeUndefined();
      expect(middleware.guardOf(messages).history.length).toBeLessThanOrEqual(1);
      expect(middleware.wrapToolCall({ toolCall: search('a'), state: { messages } } as never, runs)).toBe('ran');
    }
    expect(middleware.wrapToolCall(hostileMessage as never, runs)).toBe('ran');
    expect(middleware.beforeModel.hook(hostileMessage as never)).toBeUndefined();
  });
});

describe('loopGuardMiddleware: verdictOf and guardOf', () => {
  it('gives the stop verdict of a state the guard stopped, the verdict beforeModel gave it', () => {
    const onStop = vi.fn();
    const middleware = middlewareWith({ maxSteps: 2 }, { onStop });
    const stopped = { messages: [human(), ...searches(1), ai('m1', [search('s1', 'other')]), answer('s1')] };
    middleware.beforeModel.hook(stopped);
    expect(middleware.verdictOf(stopped)).toEqual(onStop.mock.calls[0]?.[0]);
    expect(middleware.verdictOf(stopped)).toMatchObject({ code: 'MAX_STEPS', evidence: { steps: 2, limit: 2 } });
  });

  it('gives nothing for a run that goes on, one the model ended with its answer, or an empty one', () => {
    const middleware = middlewareWith({ maxSteps: 2 });
    expect(middleware.verdictOf({ messages: [human(), ...searches(1)] })).toBeUndefined();
    expect(middleware.verdictOf({ messages: [human(), ...searches(1), ai('m1', [], { content: 'Done.', response_metadata: { finish_reason: 'stop' } })] })).toBeUndefined();
    expect(middleware.verdictOf({ messages: [] })).toBeUndefined();
    expect(middleware.verdictOf({ messages: [answer('orphan')] })).toBeUndefined();
  });

  it('looks past its own warnings at the end of a state', () => {
    const middleware = middlewareWith({ maxSteps: 2 });
    const warning = { type: 'human', id: 'agent-loopguard:warning:x', content: 'careful' };
    expect(middleware.verdictOf({ messages: [human(), ...searches(2), warning] })?.code).toBe('MAX_STEPS');
  });

  it('gives the same verdict for a state ending with its warning, however often and after whichever hook', () => {
    const middleware = middlewareWith({ maxSteps: 2 });
    const state = { messages: [human(), ...searches(2), { type: 'human', id: 'agent-loopguard:warning:x', content: 'careful' }] };
    expect(middleware.beforeModel.hook(state)).toEqual({ jumpTo: 'end' });
    expect(middleware.verdictOf(state)?.code).toBe('MAX_STEPS');
    expect(middleware.verdictOf(state)?.code).toBe('MAX_STEPS');
  });

  it('gives nothing for a run the model ended after a hook read it, though its steps reach the limit', () => {
    const middleware = middlewareWith({ maxSteps: 3 });
    const run = [human(), ...searches(2)];
    expect(middleware.beforeModel.hook({ messages: run })).toHaveProperty('messages');
    expect(middleware.verdictOf({ messages: [...run, ai('m2', [], { content: 'Done.' })] })).toBeUndefined();
  });

  it('guardOf sees the whole run, whatever the hooks read before', () => {
    const middleware = middlewareWith();
    const state = { messages: [human(), ...searches(2)] };
    middleware.beforeModel.hook(state);
    expect(middleware.guardOf(state).history).toHaveLength(2);
  });

  it('hands out a new guard each time, so changing it changes nothing', () => {
    const middleware = middlewareWith();
    const state = { messages: [human(), ...searches(2)] };
    const guard = middleware.guardOf(state);
    guard.check({ toolCalls: [{ name: 'search', args: { query: 'loops' } }] });
    expect(middleware.guardOf(state).history).toHaveLength(2);
    expect(middleware.beforeModel.hook(state)).toHaveProperty('messages');
  });
});

describe('loopGuardMiddleware: replays', () => {
  function counting(options: GuardOptions = {}) {
    const counts = { guards: 0, checks: 0 };
    const factory = () => {
      counts.guards++;
      const guard = createGuard({ ...options, now: () => 0 });
      const check = guard.check.bind(guard);
      return Object.assign(guard, {
        check: (step: GuardStep) => {
          counts.checks++;
          return check(step);
        },
      });
    };
    return { counts, middleware: loopGuardMiddleware(factory, { ToolMessage: FakeToolMessage }) };
  }

  it('checks only new steps while the run is made of the same message objects', () => {
    const { counts, middleware } = counting();
    const messages: unknown[] = [human(), ...searches(1)];
    middleware.beforeModel.hook({ messages });
    messages.push(...searches(1, 1));
    middleware.beforeModel.hook({ messages: [...messages] });
    middleware.wrapToolCall(request([...messages, ai('m2', [search('s2')])], search('s2')), handler);
    expect(counts).toEqual({ guards: 1, checks: 2 });
  });

  it('starts over when a step is not the same object, and for an older state without losing the newer replay', () => {
    const { counts, middleware } = counting();
    const run = [human(), ...searches(3)];
    middleware.beforeModel.hook({ messages: run });
    expect(counts).toEqual({ guards: 1, checks: 3 });
    // The same first message, then other objects: a new replay.
    const [first, second] = run.slice(1);
    middleware.beforeModel.hook({ messages: [human(), first, second, ...searches(2, 1)] });
    expect(counts).toEqual({ guards: 2, checks: 6 });
    // An older state of that run: replayed apart, and the newer replay is kept.
    const newer = [human(), first, second, ...searches(2, 1)];
    middleware.beforeModel.hook({ messages: newer });
    const checks = counts.checks;
    middleware.verdictOf({ messages: [human(), first, second] });
    expect(counts).toEqual({ guards: 4, checks: checks + 1 });
    middleware.beforeModel.hook({ messages: newer });
    expect(counts).toEqual({ guards: 4, checks: checks + 1 });
  });

  it('does not go on from a replay that read on in another state for an older state', () => {
    const { counts, middleware } = counting({ maxSteps: 2 });
    const older = [human(), ...distinctSearches(1)];
    expect(middleware.beforeModel.hook({ messages: older })).toBeUndefined();
    expect(middleware.beforeModel.hook({ messages: [...older, ...distinctSearches(1, 1)] })).toEqual({ jumpTo: 'end' });
    // The replay kept by the older state's last message has read on: the older state is read from its start.
    expect(middleware.beforeModel.hook({ messages: older })).toBeUndefined();
    expect(counts).toEqual({ guards: 2, checks: 3 });
  });

  it('does not go on from a kept replay once a custom rule threw in it', () => {
    let fail = false;
    const custom = () => {
      if (fail) throw new Error('rule failed');
      return undefined;
    };
    const { counts, middleware } = counting({ custom: [custom] });
    const first = [human(), ...searches(1)];
    middleware.beforeModel.hook({ messages: first });
    const second = [...first, ...searches(1, 1)];
    fail = true;
    expect(() => middleware.beforeModel.hook({ messages: second })).toThrow('rule failed');
    fail = false;
    expect(middleware.beforeModel.hook({ messages: second })).toEqual(warningOf('agent-loopguard:warning:tool-s1'));
    expect(counts).toEqual({ guards: 2, checks: 4 });
  });

  it('moves a replay on past a message that is not an object, so no step is checked twice', () => {
    const { counts, middleware } = counting({ maxSteps: 4 });
    const first = [human(), ...distinctSearches(1)];
    const second = [...first, ...distinctSearches(1, 1), null];
    expect(middleware.beforeModel.hook({ messages: first })).toBeUndefined();
    expect(middleware.beforeModel.hook({ messages: second })).toBeUndefined();
    // Three steps, under the limit: the replay is not found again by the message before the one it could not keep.
    expect(middleware.beforeModel.hook({ messages: [...second, ...distinctSearches(1, 2)] })).toBeUndefined();
    expect(counts).toEqual({ guards: 2, checks: 5 });
  });

  it('goes on from the message before its warnings, which every hook reads again', () => {
    const { counts, middleware } = counting();
    const run = [human(), ...searches(2)];
    middleware.beforeModel.hook({ messages: run });
    const warned = [...run, { type: 'human', id: 'agent-loopguard:warning:tool-s1', content: 'careful' }, ai('m2', [search('s2', 'other')])];
    middleware.wrapToolCall(request(warned, search('s2', 'other')), handler);
    expect(middleware.beforeModel.hook({ messages: [...warned, answer('s2')] })).toBeUndefined();
    expect(counts).toEqual({ guards: 1, checks: 3 });
  });

  it('hands a call without a name on without reading the run', () => {
    const { counts, middleware } = counting();
    const nameless = { id: 's2', args: {} };
    const given = request([human(), ...searches(2), ai('m2', [nameless])], nameless);
    expect(middleware.wrapToolCall(given, handler)).toEqual({ ran: given });
    expect(counts).toEqual({ guards: 0, checks: 0 });
  });

  it('never reuses a replay a custom rule threw in, and lets the error through', () => {
    let fail = true;
    const custom = () => {
      if (fail) throw new Error('rule failed');
      return undefined;
    };
    const middleware = middlewareWith({ custom: [custom] });
    const state = { messages: [human(), ...searches(2)] };
    expect(() => middleware.beforeModel.hook(state)).toThrow('rule failed');
    fail = false;
    expect(middleware.guardOf(state).history).toHaveLength(2);
    expect(middleware.beforeModel.hook(state)).toHaveProperty('messages');
  });

  it('says its frozen clock in the snapshots of guardOf, so a restore on the wall clock never stops on time it did not take', () => {
    const middleware = middlewareWith({ budget: { maxDurationMs: 60_000 } });
    const snapshot = middleware.guardOf({ messages: [human(), ...searches(1)] }).snapshot();
    expect(snapshot.clock).toBe('custom');
    expect(snapshot.elapsedMs).toBe(0);
    const restored = createGuard({ budget: { maxDurationMs: 60_000 } }, { snapshot: JSON.parse(JSON.stringify(snapshot)) as typeof snapshot });
    expect(restored.check({ toolCalls: [{ name: 'read', args: { page: 1 }, result: 'text' }] }).stop).toBe(false);
  });

  it('resets the factory’s guard before a replay, and freezes the clock of guards made from options', () => {
    const used = createGuard();
    used.check({ toolCalls: [{ name: 'search', args: { query: 'loops' } }] });
    const middleware = loopGuardMiddleware(() => used, { ToolMessage: FakeToolMessage });
    expect(middleware.guardOf({ messages: [human(), ...searches(1)] }).history).toHaveLength(1);
    const timed = middlewareWith({ budget: { maxDurationMs: 1 } });
    expect(timed.verdictOf({ messages: [human(), ...searches(1, 5)] })).toBeUndefined();
  });
});
