/**
 * Compile-time proof against LangChain's own declarations (`langchain` 1.5.14 with `@langchain/core` 1.4.0): vitest
 * type-checks this file (it is never run). Every `@ts-expect-error` must really be an error, so the checks cannot pass
 * vacuously.
 */
import type { ToolCall } from '@langchain/core/messages/tool';
import { AIMessage, createAgent, fakeModel, HumanMessage, ToolMessage } from 'langchain';
import type { AgentMiddleware, BaseMessage, ToolCallRequest } from 'langchain';
import { describe, expectTypeOf, it } from 'vitest';
import {
  loopGuardMiddleware,
  type CallRefusal,
  type LangChainLoopGuardMiddleware,
  type LangChainMessageLike,
  type LangChainStateLike,
  type LangChainToolCallLike,
  type LangChainToolCallRequestLike,
} from '../../src/adapters/langchain.js';
import { createGuard } from '../../src/index.js';
import type { Guard, LoopWarning, StopVerdict } from '../../src/index.js';

const middleware = loopGuardMiddleware({ maxSteps: 30 }, { ToolMessage });

describe('loopGuardMiddleware', () => {
  it('is an AgentMiddleware, with hooks of LangChain’s own types', () => {
    expectTypeOf(middleware).toExtend<AgentMiddleware>();
    expectTypeOf(middleware.beforeModel).toExtend<NonNullable<AgentMiddleware['beforeModel']>>();
    expectTypeOf(middleware.wrapToolCall).toExtend<NonNullable<AgentMiddleware['wrapToolCall']>>();
    expectTypeOf(middleware).toEqualTypeOf<LangChainLoopGuardMiddleware<ToolMessage>>();
  });

  it('fits where createAgent takes middleware, next to LangChain’s own', () => {
    const agent = createAgent({ model: fakeModel(), tools: [], middleware: [middleware] });
    void agent.invoke({ messages: [new HumanMessage('go')] });
  });

  it('reads LangChain’s state, messages and tool call requests', () => {
    expectTypeOf<{ messages: BaseMessage[] }>().toExtend<LangChainStateLike>();
    expectTypeOf<AIMessage>().toExtend<LangChainMessageLike>();
    expectTypeOf<ToolMessage>().toExtend<LangChainMessageLike>();
    expectTypeOf<ToolCall>().toExtend<LangChainToolCallLike>();
    expectTypeOf<ToolCallRequest>().toExtend<LangChainToolCallRequestLike>();
  });

  it('reads verdicts and guards back from what invoke() returns', async () => {
    const agent = createAgent({ model: fakeModel(), tools: [], middleware: [middleware] });
    const result = await agent.invoke({ messages: [new HumanMessage('go')] });
    expectTypeOf(middleware.verdictOf(result)).toEqualTypeOf<StopVerdict | undefined>();
    expectTypeOf(middleware.guardOf(result.messages)).toEqualTypeOf<Guard>();
  });

  it('types its callbacks and factory', () => {
    loopGuardMiddleware(() => createGuard(), {
      ToolMessage,
      onStop: (verdict, state) => {
        expectTypeOf(verdict).toEqualTypeOf<StopVerdict>();
        expectTypeOf(state).toEqualTypeOf<LangChainStateLike>();
      },
      onWarning: (warnings) => expectTypeOf(warnings).toEqualTypeOf<readonly LoopWarning[]>(),
      onBlock: (refusal, toolCall) => {
        expectTypeOf(refusal).toEqualTypeOf<CallRefusal>();
        expectTypeOf(toolCall.id).toEqualTypeOf<string | undefined>();
      },
      nudge: false,
    });
    // @ts-expect-error: the ToolMessage class is required, to answer refused calls
    loopGuardMiddleware({}, {});
    // @ts-expect-error: the factory must return a guard
    loopGuardMiddleware(() => ({ check: () => true }), { ToolMessage });
  });

  it('answers refused calls with the class it is given, so another message class does not fit an agent', () => {
    const withAiMessages = loopGuardMiddleware({}, { ToolMessage: AIMessage });
    // @ts-expect-error: wrapToolCall must answer with a ToolMessage or a Command, not an AIMessage
    expectTypeOf(withAiMessages).toExtend<AgentMiddleware>();
  });
});
