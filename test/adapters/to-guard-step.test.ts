import { describe, expect, it, vi } from 'vitest';
import { toGuardStep } from '../../src/adapters/to-guard-step.js';
import type { AiSdkStepLike, AiSdkUsageLike } from '../../src/adapters/to-guard-step.js';

/** Mimics the SDK's step class: everything derived from `content` lives in getters on the prototype. */
class FakeStepResult {
  constructor(
    readonly content: readonly { readonly type: string; readonly [key: string]: unknown }[],
    readonly finishReason: string,
    readonly usage: { inputTokens: number | undefined; outputTokens: number | undefined; totalTokens: number | undefined },
  ) {}
  get text(): string {
    return this.content
      .filter((part) => part.type === 'text')
      .map((part) => part.text as string)
      .join('');
  }
  get toolCalls() {
    return this.content.filter((part) => part.type === 'tool-call');
  }
  get toolResults() {
    return this.content.filter((part) => part.type === 'tool-result');
  }
}

describe('toGuardStep', () => {
  it('reads fields kept in getters, as the SDK keeps them', () => {
    const step = new FakeStepResult(
      [
        { type: 'text', text: 'Let me ' },
        { type: 'text', text: 'look.' },
        { type: 'tool-call', toolCallId: '1', toolName: 'search', input: { query: 'x' } },
        { type: 'tool-result', toolCallId: '1', toolName: 'search', input: { query: 'x' }, output: ['hit'] },
      ],
      'tool-calls',
      { inputTokens: 7, outputTokens: 2, totalTokens: 9 },
    );
    expect(Object.keys(step)).not.toContain('toolCalls');

    expect(toGuardStep(step as AiSdkStepLike)).toEqual({
      text: 'Let me look.',
      finishReason: 'tool-calls',
      toolCalls: [{ name: 'search', args: { query: 'x' }, result: ['hit'] }],
      usage: { inputTokens: 7, outputTokens: 2, totalTokens: 9 },
    });
  });

  it('matches results and tool-error parts to their call by toolCallId, whatever the order', () => {
    const failure = new Error('timeout');
    const mapped = toGuardStep({
      toolCalls: [
        { toolCallId: 'a', toolName: 'fetch', input: { url: 'a' } },
        { toolCallId: 'b', toolName: 'fetch', input: { url: 'b' } },
        { toolCallId: 'c', toolName: 'fetch', input: { url: 'c' } },
      ],
      toolResults: [
        { toolCallId: 'c', output: 'C' },
        { toolCallId: 'a', output: 'A' },
        { toolCallId: 'elsewhere', output: 'no call of this step' },
      ],
      content: [
        { type: 'text' },
        { type: 'tool-error', toolCallId: 'b', error: failure },
        { type: 'tool-error', toolCallId: 'elsewhere', error: 'ignored' },
      ],
    });

    expect(mapped.toolCalls).toEqual([
      { name: 'fetch', args: { url: 'a' }, result: 'A' },
      { name: 'fetch', args: { url: 'b' }, error: failure },
      { name: 'fetch', args: { url: 'c' }, result: 'C' },
    ]);
    expect(mapped.toolCalls?.[1]?.error).toBe(failure);
  });

  it('keeps a result that is undefined or null as a result', () => {
    const mapped = toGuardStep({
      toolCalls: [
        { toolCallId: 'u', toolName: 'noop', input: {} },
        { toolCallId: 'n', toolName: 'noop', input: {} },
      ],
      toolResults: [
        { toolCallId: 'u', output: undefined },
        { toolCallId: 'n', output: null },
      ],
    });
    expect(mapped.toolCalls?.[0]).toHaveProperty('result', undefined);
    expect(mapped.toolCalls?.[1]).toHaveProperty('result', null);
  });

  it('accepts the older args and result names', () => {
    expect(
      toGuardStep({
        toolCalls: [{ toolCallId: '1', toolName: 'search', args: { query: 'old' } }],
        toolResults: [{ toolCallId: '1', result: { hits: 2 } }],
      }).toolCalls,
    ).toEqual([{ name: 'search', args: { query: 'old' }, result: { hits: 2 } }]);
  });

  it('prefers input and output when both names are present', () => {
    expect(
      toGuardStep({
        toolCalls: [{ toolCallId: '1', toolName: 'search', input: 'new', args: 'old' }],
        toolResults: [{ toolCallId: '1', output: 'new', result: 'old' }],
      }).toolCalls,
    ).toEqual([{ name: 'search', args: 'new', result: 'new' }]);
  });

  it('skips preliminary results; the last final result wins', () => {
    expect(
      toGuardStep({
        toolCalls: [{ toolCallId: '1', toolName: 'build', input: {} }],
        toolResults: [
          { toolCallId: '1', output: 'final', preliminary: false },
          { toolCallId: '1', output: '50%', preliminary: true },
        ],
      }).toolCalls,
    ).toEqual([{ name: 'build', args: {}, result: 'final' }]);
    expect(
      toGuardStep({
        toolCalls: [{ toolCallId: '1', toolName: 'build', input: {} }],
        toolResults: [
          { toolCallId: '1', output: '50%', preliminary: true },
          { toolCallId: '1', output: 'final' },
        ],
      }).toolCalls,
    ).toEqual([{ name: 'build', args: {}, result: 'final' }]);
  });

  it('gives the last answer of an id again to the calls of that id that outnumber its answers', () => {
    const calls = [1, 2, 3].map((input) => ({ toolCallId: 'same', toolName: 'read', input }));
    expect(
      toGuardStep({ toolCalls: calls, toolResults: [{ toolCallId: 'same', output: 'one' }], content: [{ type: 'tool-error', toolCallId: 'same', error: 'late' }] }).toolCalls,
    ).toEqual([
      { name: 'read', args: 1, result: 'one', error: 'late' },
      { name: 'read', args: 2, result: 'one', error: 'late' },
      { name: 'read', args: 3, result: 'one', error: 'late' },
    ]);
  });

  it('takes the error of an invalid call, unless a tool-error part reports it', () => {
    const parseError = new Error('bad JSON');
    const mapped = toGuardStep({
      toolCalls: [
        { toolCallId: '1', toolName: 'nope', input: '{', invalid: true, error: parseError },
        { toolCallId: '2', toolName: 'nope', input: '{', invalid: true, error: parseError },
        { toolCallId: '3', toolName: 'fine', input: {}, error: 'not invalid, so not an error' },
      ],
      content: [{ type: 'tool-error', toolCallId: '2', error: 'bad JSON (as the model saw it)' }],
    });
    expect(mapped.toolCalls).toEqual([
      { name: 'nope', args: '{', error: parseError },
      { name: 'nope', args: '{', error: 'bad JSON (as the model saw it)' },
      { name: 'fine', args: {} },
    ]);
  });

  it('matches results and errors to calls without toolCallId, or sharing one, by order', () => {
    expect(
      toGuardStep({
        toolCalls: [{ toolName: 'anonymous', input: 1 }],
        toolResults: [{ output: 'found' }],
        content: [{ type: 'tool-error', error: 'failed' }],
      }).toolCalls,
    ).toEqual([{ name: 'anonymous', args: 1, result: 'found', error: 'failed' }]);
    expect(
      toGuardStep({
        toolCalls: [
          { toolCallId: 'same', toolName: 'read', input: 1 },
          { toolCallId: 'same', toolName: 'read', input: 2 },
        ],
        toolResults: [
          { toolCallId: 'same', output: 'one' },
          { toolCallId: 'same', output: 'two' },
        ],
      }).toolCalls,
    ).toEqual([
      { name: 'read', args: 1, result: 'one' },
      { name: 'read', args: 2, result: 'two' },
    ]);
  });

  it('marks as refused exactly the call a denial names, with reused ids: by the SDK\'s object for it (streamText)', () => {
    const calls = [0, 1, 2].map(() => ({ toolCallId: 'same', toolName: 'read', input: { path: 'a' } }));
    const step = {
      toolCalls: calls,
      toolResults: [
        { toolCallId: 'same', output: 'text' },
        { toolCallId: 'same', output: 'text' },
      ],
      content: [{ type: 'tool-approval-response', approved: false, toolCall: calls[1] }],
    };
    expect(toGuardStep(step).toolCalls).toEqual([
      { name: 'read', args: { path: 'a' }, result: 'text' },
      { name: 'read', args: { path: 'a' }, blocked: true },
      { name: 'read', args: { path: 'a' }, result: 'text' },
    ]);
  });

  it('without the object, refuses every call of a denied id that has no answer (generateText skips them all), else the last ones', () => {
    const calls = [0, 1, 2].map(() => ({ toolCallId: 'same', toolName: 'read', input: { path: 'a' } }));
    const denial = { type: 'tool-approval-response', approved: false, toolCall: { toolCallId: 'same' } };
    expect(toGuardStep({ toolCalls: calls, content: [denial] }).toolCalls?.map((call) => call.blocked)).toEqual([true, true, true]);
    const answered = { toolCalls: calls, toolResults: [{ toolCallId: 'same', output: 'x' }, { toolCallId: 'same', output: 'y' }], content: [denial] };
    expect(toGuardStep(answered).toolCalls).toEqual([
      { name: 'read', args: { path: 'a' }, result: 'x' },
      { name: 'read', args: { path: 'a' }, result: 'y' },
      { name: 'read', args: { path: 'a' }, blocked: true },
    ]);
  });

  it('reads as denials only approval responses that say approved: false', () => {
    const calls = [0, 1].map((input) => ({ toolCallId: `call-${String(input)}`, toolName: 'read', input }));
    const content = [
      { type: 'tool-approval-response', approved: true, toolCall: calls[0] },
      { type: 'tool-approval-request', approved: false, toolCall: calls[1] },
      { type: 'tool-approval-response', approved: 'no' as unknown as boolean, toolCall: calls[1] },
    ];
    const results = calls.map(({ toolCallId }) => ({ toolCallId, output: 'ran' }));
    expect(toGuardStep({ toolCalls: calls, toolResults: results, content }).toolCalls).toEqual([
      { name: 'read', args: 0, result: 'ran' },
      { name: 'read', args: 1, result: 'ran' },
    ]);
  });

  it('without the object, counts each denial of an id, and passes over calls already refused by their object', () => {
    const calls = [1, 2, 3, 4].map((input) => ({ toolCallId: 'same', toolName: 'read', input }));
    const byId = { type: 'tool-approval-response', approved: false, toolCall: { toolCallId: 'same' } };
    const step = {
      toolCalls: calls,
      toolResults: [{ toolCallId: 'same', output: 'x' }],
      content: [{ type: 'tool-approval-response', approved: false, toolCall: calls[3] }, byId, byId],
    };
    expect(toGuardStep(step).toolCalls).toEqual([
      { name: 'read', args: 1, result: 'x' },
      { name: 'read', args: 2, blocked: true },
      { name: 'read', args: 3, blocked: true },
      { name: 'read', args: 4, blocked: true },
    ]);
  });

  it('without the object or an id, refuses the last calls without an id that were answered', () => {
    const calls = [1, 2, 3].map((input) => ({ toolName: 'read', input }));
    const denial = { type: 'tool-approval-response', approved: false, toolCall: {} };
    expect(toGuardStep({ toolCalls: calls, toolResults: [{ output: 'x' }, { output: 'y' }], content: [denial] }).toolCalls).toEqual([
      { name: 'read', args: 1, result: 'x' },
      { name: 'read', args: 2, result: 'y' },
      { name: 'read', args: 3, blocked: true },
    ]);
  });

  it('without the object, refuses only calls of the denied id, passing over those of other ids', () => {
    const calls = [
      { toolCallId: 'a', toolName: 'read', input: { path: 'a' } },
      { toolCallId: 'b', toolName: 'read', input: { path: 'b' } },
      { toolCallId: 'a', toolName: 'read', input: { path: 'a' } },
      { toolCallId: 'c', toolName: 'read', input: { path: 'c' } },
    ];
    const denial = { type: 'tool-approval-response', approved: false, toolCall: { toolCallId: 'a' } };
    const step = { toolCalls: calls, toolResults: [{ toolCallId: 'a', output: 'x' }, { toolCallId: 'b', output: 'y' }, { toolCallId: 'c', output: 'z' }], content: [denial] };
    expect(toGuardStep(step).toolCalls).toEqual([
      { name: 'read', args: { path: 'a' }, result: 'x' },
      { name: 'read', args: { path: 'b' }, result: 'y' },
      { name: 'read', args: { path: 'a' }, blocked: true },
      { name: 'read', args: { path: 'c' }, result: 'z' },
    ]);
  });

  it('drops calls without a string tool name and leaves out toolCalls when there are none', () => {
    const odd = [null, 7, { toolCallId: '1' }, { toolName: 42 }] as unknown as AiSdkStepLike['toolCalls'];
    expect(toGuardStep({ toolCalls: odd })).toEqual({ toolCalls: [] });
    expect(toGuardStep({ toolCalls: [] })).toEqual({});
    expect(toGuardStep({ text: 'hi' })).toEqual({ text: 'hi' });
  });

  it('maps usage figures as given and leaves out usage without any', () => {
    expect(toGuardStep({ usage: { inputTokens: 3, outputTokens: undefined, totalTokens: undefined } })).toEqual({
      usage: { inputTokens: 3 },
    });
    expect(toGuardStep({ usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined } })).toEqual(
      {},
    );
    expect(toGuardStep({ usage: { totalTokens: Number.NaN } }).usage).toEqual({ totalTokens: Number.NaN });
  });

  it('asks cost for costUsd with the usage and the step', () => {
    const step = { usage: { inputTokens: 1000, outputTokens: 500 }, finishReason: 'stop' };
    const cost = vi.fn(() => 0.25);
    expect(toGuardStep(step, { cost })).toEqual({
      finishReason: 'stop',
      usage: { inputTokens: 1000, outputTokens: 500, costUsd: 0.25 },
    });
    expect(cost).toHaveBeenCalledWith(step.usage, step);
  });

  it('gives cost an empty usage when the step has none', () => {
    const cost = vi.fn(() => 0);
    expect(toGuardStep({}, { cost })).toEqual({ usage: { costUsd: 0 } });
    expect(cost).toHaveBeenCalledWith({}, {});
  });

  it('lets an error thrown by cost propagate', () => {
    expect(() =>
      toGuardStep(
        {},
        {
          cost: () => {
            throw new Error('no price list');
          },
        },
      ),
    ).toThrow('no price list');
  });

  it('takes durationMs from performance.stepTimeMs and timestamp from response.timestamp', () => {
    const timestamp = new Date('2026-10-14T12:00:00.000Z');
    expect(toGuardStep({ performance: { stepTimeMs: 812.5 }, response: { timestamp } })).toEqual({
      durationMs: 812.5,
      timestamp: timestamp.getTime(),
    });
    expect(toGuardStep({ response: { timestamp: new Date(Number.NaN) } })).toEqual({});
    expect(toGuardStep({ response: { timestamp: 5 as unknown as Date } })).toEqual({});
    expect(toGuardStep({ response: { timestamp: new Proxy(timestamp, {}) } })).toEqual({});
  });

  it('ignores fields of the wrong type', () => {
    const step = { text: 5, finishReason: { unified: 'stop' }, toolCalls: 'search', performance: { stepTimeMs: '9' } };
    expect(toGuardStep(step as unknown as AiSdkStepLike)).toEqual({});
  });

  it('never throws on hostile input: throwing getters, revoked proxies, null', () => {
    const hostile = {
      get text(): string {
        throw new Error('text');
      },
      get toolCalls(): never {
        throw new Error('toolCalls');
      },
      usage: {
        get inputTokens(): number {
          throw new Error('usage');
        },
        outputTokens: 4,
      },
    };
    expect(toGuardStep(hostile)).toEqual({ usage: { outputTokens: 4 } });

    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(toGuardStep(proxy)).toEqual({});
    expect(toGuardStep(null as unknown as AiSdkStepLike)).toEqual({});

    const sneakyCall = new Proxy(
      { toolCallId: '1', toolName: 'search', input: 'x' },
      {
        has() {
          throw new Error('has');
        },
      },
    );
    expect(toGuardStep({ toolCalls: [sneakyCall] }).toolCalls).toEqual([{ name: 'search', args: undefined }]);
  });
});

describe('toGuardStep keeps only what the step had', () => {
  it('maps an empty step to an empty one, without keys holding undefined', () => {
    expect(Object.keys(toGuardStep({}))).toEqual([]);
    expect(Object.keys(toGuardStep({ toolCalls: [], usage: {}, response: { timestamp: new Date(Number.NaN) } }))).toEqual([]);
  });

  it('gives a call without a result or error neither key', () => {
    const step = toGuardStep({ toolCalls: [{ toolCallId: 'c1', toolName: 'search', input: { q: 1 } }] });
    expect(step.toolCalls).toStrictEqual([{ name: 'search', args: { q: 1 } }]);
  });

  it('keeps the SDK error of an invalid call when no tool-error part names it', () => {
    const step = toGuardStep({
      toolCalls: [{ toolCallId: 'c1', toolName: 'search', input: 'not json', invalid: true, error: 'unparsable input' }],
      content: [{ type: 'tool-call', toolCallId: 'c1' }],
    });
    expect(step.toolCalls).toStrictEqual([{ name: 'search', args: 'not json', error: 'unparsable input' }]);
  });

  it('reads only tool-error parts as errors', () => {
    const step = toGuardStep({
      toolCalls: [{ toolCallId: 'c1', toolName: 'search', input: {} }],
      content: [
        { type: 'tool-result', toolCallId: 'c1', error: 'not an error part' },
        { type: 'text', toolCallId: 'c1', error: 'nor this' },
      ],
    });
    expect(step.toolCalls).toStrictEqual([{ name: 'search', args: {} }]);
  });

  it('hands cost an empty object when the step has no usable usage', () => {
    const seen: AiSdkUsageLike[] = [];
    const cost = (usage: AiSdkUsageLike): number => {
      seen.push(usage);
      return 0.5;
    };
    expect(toGuardStep({}, { cost }).usage).toStrictEqual({ costUsd: 0.5 });
    expect(toGuardStep({ usage: 'lots' } as unknown as AiSdkStepLike, { cost }).usage).toStrictEqual({ costUsd: 0.5 });
    expect(seen).toStrictEqual([{}, {}]);
  });

  it('reads no timestamp from a value that is not a Date', () => {
    expect(Object.keys(toGuardStep({ response: { timestamp: 1_700_000_000_000 as unknown as Date } }))).toEqual([]);
    expect(toGuardStep({ response: { timestamp: new Date(5) } }).timestamp).toBe(5);
  });

  it('reads input or args from primitives without throwing, as no field', () => {
    const step = toGuardStep({ toolCalls: ['search' as never, { toolName: 'read', args: 1 }] });
    expect(step.toolCalls).toStrictEqual([{ name: 'read', args: 1 }]);
  });
});
