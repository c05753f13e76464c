/**
 * Compile-time proof against the OpenAI Agents SDK's own declarations: vitest type-checks this file (it is never run).
 * Every `@ts-expect-error` must really be an error, so the checks cannot pass vacuously.
 */
import { Agent, run, Runner, tool } from '@openai/agents';
import type {
  CallModelInputFilter,
  FunctionToolResult,
  RunContext,
  ToolInputGuardrailDefinition,
  ToolToFinalOutputFunction,
  ToolUseBehavior,
} from '@openai/agents';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { loopGuardForAgents, type AgentsRunContextLike, type CallRefusal } from '../../src/adapters/openai-agents.js';
import { createGuard } from '../../src/index.js';
import type { LoopWarning, StopVerdict } from '../../src/index.js';

interface Session {
  readonly userId: string;
}

const loop = loopGuardForAgents({ maxSteps: 30 });
declare const runContext: RunContext<Session>;
declare const toolResults: FunctionToolResult[];
const search = tool({ name: 'search', description: 'Search.', parameters: z.object({ query: z.string() }), execute: ({ query }) => query });

describe('loopGuardForAgents', () => {
  it('gives the SDK its own hook types', () => {
    expectTypeOf(loop.toolUseBehavior).toExtend<ToolToFinalOutputFunction>();
    expectTypeOf(loop.toolUseBehavior).toExtend<ToolUseBehavior>();
    expectTypeOf(loop.toolInputGuardrail).toExtend<ToolInputGuardrailDefinition>();
    expectTypeOf(loop.toolInputGuardrail).toExtend<ToolInputGuardrailDefinition<Session>>();
    expectTypeOf(loop.callModelInputFilter).toExtend<CallModelInputFilter>();
    expectTypeOf(loop.callModelInputFilter).toExtend<CallModelInputFilter<Session>>();
  });

  it('fits where the SDK takes them: Agent, tool and run options', async () => {
    const agent = new Agent<Session>({ name: 'a', tools: [search], toolUseBehavior: loop.toolUseBehavior });
    tool({ name: 'read', description: 'Read.', parameters: z.object({ page: z.number() }), execute: ({ page }) => String(page), inputGuardrails: [loop.toolInputGuardrail] });
    const result = await run(agent, 'go', { context: { userId: 'u' }, callModelInputFilter: loop.callModelInputFilter });
    await new Runner().run(agent, 'go', { context: { userId: 'u' }, callModelInputFilter: loop.callModelInputFilter });
    expectTypeOf(loop.verdictOf(result)).toEqualTypeOf<StopVerdict | undefined>();
  });

  it('wires an agent and gives it back with its own type', () => {
    const structured = new Agent({ name: 's', outputType: z.object({ answer: z.string() }), tools: [search] });
    expectTypeOf(loop.guardAgent(structured)).toEqualTypeOf<typeof structured>();
    const withHandoff = Agent.create({ name: 'triage', handoffs: [structured] });
    expectTypeOf(loop.guardAgent(withHandoff)).toEqualTypeOf<typeof withHandoff>();
    // @ts-expect-error: not an agent
    loop.guardAgent('agent');
  });

  it('reads the SDK’s run context and tool results', () => {
    expectTypeOf<RunContext<Session>>().toExtend<AgentsRunContextLike>();
    expectTypeOf(loop.toolUseBehavior).toBeCallableWith(runContext, toolResults);
  });

  it('types its callbacks and factory', () => {
    loopGuardForAgents(() => createGuard(), {
      onStop: (verdict, runContext) => {
        expectTypeOf(verdict).toEqualTypeOf<StopVerdict>();
        expectTypeOf(runContext).toEqualTypeOf<AgentsRunContextLike>();
      },
      onWarning: (warnings) => expectTypeOf(warnings).toEqualTypeOf<readonly LoopWarning[]>(),
      onBlock: (refusal, toolCall) => {
        expectTypeOf(refusal).toEqualTypeOf<CallRefusal>();
        expectTypeOf(toolCall.arguments).toEqualTypeOf<string | undefined>();
      },
      finalOutput: (verdict) => verdict.detail,
      throwOnBlock: true,
    });
    // @ts-expect-error: the factory must return a guard
    loopGuardForAgents(() => ({ check: () => true }));
    // @ts-expect-error: finalOutput is text, as the SDK requires
    loopGuardForAgents({}, { finalOutput: () => ({ answer: 'x' }) });
  });
});
