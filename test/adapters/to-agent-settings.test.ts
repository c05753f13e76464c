import { describe, expect, it } from 'vitest';
import { toAgentSettings, type AiSdkStepLike } from '../../src/index.js';

const searchStep = (query: string): AiSdkStepLike => ({
  toolCalls: [{ toolCallId: query, toolName: 'search', input: { query } }],
  toolResults: [{ toolCallId: query, output: 'nothing' }],
  finishReason: 'tool-calls',
});

describe('toAgentSettings on what the SDK did not send', () => {
  it('has nothing to say before it has seen a step, or when the steps are not an array', () => {
    const { prepareStep, toolApproval } = toAgentSettings({ repeatedToolCall: { threshold: 3 } });
    const toolCall = { toolCallId: 'a', toolName: 'search', input: { query: 'x' } };
    expect(toolApproval?.({ toolCall, messages: [] })).toBeUndefined();
    expect(prepareStep?.({ steps: 'not steps' as unknown as AiSdkStepLike[], messages: [] })).toBeUndefined();
    expect(toolApproval?.({ toolCall, messages: [] })).toBeUndefined();
  });

  it('judges a call from the latest steps when the prompt is not one prepareStep saw, and a call without an id each time', () => {
    const { prepareStep, toolApproval } = toAgentSettings({ repeatedToolCall: { threshold: 3 } });
    const steps = [searchStep('x'), searchStep('x')];
    const next = prepareStep?.({ steps, messages: 'not a list' as unknown as unknown[] });
    expect(next).toBeUndefined();
    const toolCall = { toolName: 'search', input: { query: 'x' } };
    expect(toolApproval?.({ toolCall, messages: null as unknown as unknown[] })).toMatchObject({ type: 'denied' });
    expect(toolApproval?.({ toolCall, messages: [] })).toMatchObject({ type: 'denied' });
  });
});
