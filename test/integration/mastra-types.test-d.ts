/**
 * Compile-time proof against Mastra's own declarations (`@mastra/core` 1.71.0): vitest type-checks this file (it is
 * never run). Every `@ts-expect-error` must really be an error, so the checks cannot pass vacuously.
 */
import { Agent } from '@mastra/core/agent';
import type { AgentExecutionOptions, IterationCompleteContext, OnIterationCompleteHandler } from '@mastra/core/agent';
import type { ToolHookContext, ToolHooks } from '@mastra/core/tools';
import { describe, expectTypeOf, it } from 'vitest';
import { toMastraOptions, type CallRefusal, type MastraIterationLike, type MastraToolHookContextLike } from '../../src/adapters/mastra.js';
import { createGuard, toStopWhen } from '../../src/index.js';
import type { AiSdkStepLike, Guard, LoopWarning, StopVerdict } from '../../src/index.js';

declare const agent: Agent;
const loop = toMastraOptions({ maxSteps: 30 });

describe('toMastraOptions', () => {
  it('gives Mastra its own option types', () => {
    expectTypeOf(loop.stopWhen).toExtend<NonNullable<AgentExecutionOptions['stopWhen']>>();
    expectTypeOf(loop.hooks).toExtend<ToolHooks>();
    expectTypeOf(loop.onIterationComplete).toExtend<OnIterationCompleteHandler>();
    expectTypeOf(loop).toExtend<Pick<AgentExecutionOptions, 'stopWhen' | 'hooks' | 'onIterationComplete'>>();
  });

  it('spreads into generate() and stream(), and its stopWhen sits in an array next to others', async () => {
    await agent.generate('go', { ...loop, maxSteps: 20 });
    await agent.stream('go', { ...loop });
    const tenSteps = ({ steps }: { readonly steps: readonly unknown[] }) => steps.length >= 10;
    await agent.generate('go', { stopWhen: [loop.stopWhen, tenSteps], hooks: loop.hooks, onIterationComplete: loop.onIterationComplete });
  });

  it('reads Mastra’s hook contexts', () => {
    expectTypeOf<ToolHookContext>().toExtend<MastraToolHookContextLike>();
    expectTypeOf<IterationCompleteContext>().toExtend<MastraIterationLike>();
  });

  it('types its verdict, guard, callbacks and factory', () => {
    expectTypeOf(loop.verdict()).toEqualTypeOf<StopVerdict | undefined>();
    expectTypeOf(loop.guard).toEqualTypeOf<Guard>();
    toMastraOptions(() => createGuard(), {
      onStop: (verdict) => expectTypeOf(verdict).toEqualTypeOf<StopVerdict>(),
      onWarning: (warnings) => expectTypeOf(warnings).toEqualTypeOf<readonly LoopWarning[]>(),
      onBlock: (refusal, call) => {
        expectTypeOf(refusal).toEqualTypeOf<CallRefusal>();
        expectTypeOf(call.toolName).toEqualTypeOf<string | undefined>();
      },
    });
    // @ts-expect-error: the factory must return a guard
    toMastraOptions(() => ({ check: () => true }));
  });
});

describe('toStopWhen', () => {
  it('is a Mastra stopWhen as it is', async () => {
    expectTypeOf(toStopWhen()).toExtend<NonNullable<AgentExecutionOptions['stopWhen']>>();
    const stopWhen = toStopWhen({ maxSteps: 30 });
    await agent.generate('go', { stopWhen });
    // Written inside the options, Mastra's two StopCondition types (AI SDK 5 and 6) make TypeScript infer a step type
    // that is both at once: name the step type there.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-arguments -- the default, named so it is not inferred
    await agent.generate('go', { stopWhen: toStopWhen<AiSdkStepLike>({ maxSteps: 30 }) });
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-arguments -- the default, named so it is not inferred
    await agent.generate('go', { stopWhen: [toStopWhen<AiSdkStepLike>({ maxSteps: 30 }), loop.stopWhen] });
  });
});
