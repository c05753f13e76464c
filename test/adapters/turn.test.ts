/**
 * One model response's calls as the adapters screen them (src/adapters/turn.ts, shared by every adapter): asked about
 * in any order, asked about twice, with one id for all of them, or handed as something that is not an object.
 */
import { describe, expect, it, vi } from 'vitest';
import { loopGuardMiddleware, type LangChainToolCallRequestLike, type LangChainToolMessageFields } from '../../src/adapters/langchain.js';
import { loopGuardForAgents } from '../../src/adapters/openai-agents.js';
import { toAgentSettings, type AiSdkApprovalToolCall } from '../../src/adapters/to-agent-settings.js';

class FakeToolMessage {
  constructor(readonly fields: LangChainToolMessageFields) {}
}

const search = (query: string) => ({ id: 'call', name: 'search', args: { query } });
const answered = (query: string, index: number) => [
  { type: 'ai', id: `m${String(index)}`, content: '', tool_calls: [search(query)] },
  { type: 'tool', id: `t${String(index)}`, tool_call_id: 'call', content: 'nothing', status: 'success' },
];

describe('the calls of one LangChain message that share one id', () => {
  // Two searches for "loops" ran; the new message asks for "loops" a third time (refused), then for another query.
  const other = search('other');
  const third = search('loops');
  const messages = [{ type: 'human', id: 'h', content: 'Find it.' }, ...answered('loops', 0), ...answered('loops', 1), { type: 'ai', id: 'm2', content: '', tool_calls: [third, other] }];
  const request = (toolCall: unknown) => ({ toolCall, state: { messages } }) as LangChainToolCallRequestLike;

  it('each get their own verdict when asked about out of order, found by the host object for the call', () => {
    const onBlock = vi.fn();
    const middleware = loopGuardMiddleware({}, { ToolMessage: FakeToolMessage, onBlock });
    const handler = vi.fn(() => 'ran');
    expect(middleware.wrapToolCall(request(other), handler)).toBe('ran');
    const refusal = middleware.wrapToolCall(request(third), handler);
    expect(refusal).toBeInstanceOf(FakeToolMessage);
    expect((refusal as FakeToolMessage).fields.id).toBe('agent-loopguard:refusal:m2:0');
    expect(handler).toHaveBeenCalledTimes(1);
    // Asked again about the refused call: the same answer, and its refusal is not told a second time.
    expect((middleware.wrapToolCall(request(third), handler) as FakeToolMessage).fields).toEqual((refusal as FakeToolMessage).fields);
    expect(onBlock).toHaveBeenCalledTimes(1);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('are found by id and name in message order when the host hands copies', () => {
    const middleware = loopGuardMiddleware({}, { ToolMessage: FakeToolMessage });
    const handler = vi.fn(() => 'ran');
    // A copy of the allowed call, asked about first, is taken for the first call of the message with its id and name.
    expect(middleware.wrapToolCall(request({ ...other }), handler)).toBeInstanceOf(FakeToolMessage);
    expect(middleware.wrapToolCall(request({ ...third }), handler)).toBe('ran');
  });
});

describe('a call the host hands as something that is not an object', () => {
  const odd: readonly unknown[] = [null, 'search', 42, undefined];

  it('is judged as a call without a name by the AI SDK settings: allowed, and the step goes on being screened', () => {
    const { prepareStep, toolApproval } = toAgentSettings();
    const messages: unknown[] = [{ role: 'user', content: 'Find it.' }];
    const ran = (toolCallId: string) => ({ toolCalls: [{ toolCallId, toolName: 'search', input: { query: 'loops' } }], toolResults: [{ toolCallId, output: 'nothing' }] });
    prepareStep?.({ steps: [ran('a'), ran('b')], messages });
    for (const toolCall of odd) expect(toolApproval?.({ toolCall: toolCall as AiSdkApprovalToolCall, messages })).toBeUndefined();
    expect(toolApproval?.({ toolCall: { toolCallId: 'c', toolName: 'search', input: { query: 'loops' } }, messages })).toMatchObject({ type: 'denied' });
  });

  it('is allowed by the OpenAI Agents guardrail, and the turn goes on being screened', async () => {
    const loop = loopGuardForAgents({ repeatedToolCall: { threshold: 2 } });
    const context = { context: {}, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 } };
    const searchCall = (callId: string) => ({ callId, name: 'search', arguments: '{"query":"loops"}' });
    expect(await loop.toolInputGuardrail.run({ context, toolCall: searchCall('a') })).toEqual({ behavior: { type: 'allow' } });
    for (const toolCall of odd) expect(await loop.toolInputGuardrail.run({ context, toolCall: toolCall as never })).toEqual({ behavior: { type: 'allow' } });
    expect(await loop.toolInputGuardrail.run({ context, toolCall: searchCall('b') })).toMatchObject({ behavior: { type: 'rejectContent' } });
  });
});
