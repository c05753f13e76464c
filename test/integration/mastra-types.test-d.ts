/**
 * Compile-time proof against Mastra's own declarations (`@mastra/core` 1.71.0): vitest type-checks this file (it is
 * never run). Every `@ts-expect-error` must really be an error, so the checks cannot pass vacuously.
 */
import { Agent } from '@mastra/core/agent';
import type { AgentExecutionOptions } from '@mastra/core/agent';
import type { ProcessInputStepArgs } from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import type { ToolHookContext, ToolHooks } from '@mastra/core/tools';
import { describe, expectTypeOf, it } from 'vitest';
import { toMastraOptions, type CallRefusal, type MastraPrepareStepLike, type MastraToolHookContextLike } from '../../src/adapters/mastra.js';
import { createGuard, toStopWhen } from '../../src/index.js';
import type { AiSdkStepLike, Guard, LoopWarning, StopVerdict } from '../../src/index.js';

declare const agent: Agent;
const loop = toMastraOptions({ maxSteps: 30 });

describe('toMastraOptions', () => {
  it('gives Mastra its own option types', () => {
    expectTypeOf(loop.stopWhen).toExtend<NonNullable<AgentExecutionOptions['stopWhen']>>();
    expectTypeOf(loop.prepareStep).toExtend<NonNullable<AgentExecutionOptions['prepareStep']>>();
    expectTypeOf(loop.hooks).toExtend<ToolHooks>();
    expectTypeOf(loop).toExtend<Pick<AgentExecutionOptions, 'stopWhen' | 'prepareStep' | 'hooks'>>();
  });

  it('spreads into generate() and stream(), and its parts sit next to options of your own', async () => {
    await agent.generate('go', { ...loop, maxSteps: 20 });
    await agent.stream('go', { ...loop });
    await agent.generate('go', { ...loop, requestContext: new RequestContext() });
    const tenSteps = ({ steps }: { readonly steps: readonly unknown[] }) => steps.length >= 10;
    await agent.generate('go', {
      stopWhen: [loop.stopWhen, tenSteps],
      hooks: loop.hooks,
      // A prepareStep of your own hands Mastra's arguments on as they are.
      prepareStep: (args) => {
        loop.prepareStep(args);
      },
    });
  });

  it('reads Mastra’s hook arguments', () => {
    expectTypeOf<ToolHookContext>().toExtend<MastraToolHookContextLike>();
    expectTypeOf<ProcessInputStepArgs>().toExtend<MastraPrepareStepLike>();
    expectTypeOf(loop.prepareStep).parameter(0).toEqualTypeOf<MastraPrepareStepLike>();
    expectTypeOf(loop.prepareStep).returns.toBeVoid();
    expectTypeOf(loop.stopWhen).returns.toEqualTypeOf<boolean>();
  });

  it('finds a verdict from the result or the requestContext, and a guard from the requestContext', async () => {
    const requestContext = new RequestContext();
    const result = await agent.generate('go', { ...loop, requestContext });
    expectTypeOf(loop.verdictOf(result)).toEqualTypeOf<StopVerdict | undefined>();
    expectTypeOf(loop.verdictOf(requestContext)).toEqualTypeOf<StopVerdict | undefined>();
    const output = await agent.stream('go', { ...loop, requestContext });
    expectTypeOf(loop.verdictOf(output)).toEqualTypeOf<StopVerdict | undefined>();
    expectTypeOf(loop.verdictOf(await output.getFullOutput())).toEqualTypeOf<StopVerdict | undefined>();
    expectTypeOf(loop.guardOf(requestContext)).toEqualTypeOf<Guard | undefined>();
    // The parts of the old shape are gone: one object now serves many runs.
    expectTypeOf(loop).not.toHaveProperty('verdict');
    expectTypeOf(loop).not.toHaveProperty('guard');
    expectTypeOf(loop).not.toHaveProperty('onIterationComplete');
  });

  it('types its callbacks, with the run’s requestContext, and its factory', () => {
    toMastraOptions(
      (requestContext) => {
        expectTypeOf(requestContext).toEqualTypeOf<unknown>();
        return createGuard();
      },
      {
        onStop: (verdict, requestContext) => {
          expectTypeOf(verdict).toEqualTypeOf<StopVerdict>();
          expectTypeOf(requestContext).toEqualTypeOf<unknown>();
        },
        onWarning: (warnings, requestContext) => {
          expectTypeOf(warnings).toEqualTypeOf<readonly LoopWarning[]>();
          expectTypeOf(requestContext).toEqualTypeOf<unknown>();
        },
        onBlock: (refusal, call) => {
          expectTypeOf(refusal).toEqualTypeOf<CallRefusal>();
          expectTypeOf(call).toEqualTypeOf<MastraToolHookContextLike>();
          expectTypeOf(call.toolName).toEqualTypeOf<string | undefined>();
        },
      },
    );
    // A guard restored per run, keyed by what the run's requestContext holds.
    toMastraOptions((requestContext) => createGuard({ maxSteps: requestContext instanceof RequestContext ? 30 : 10 }));
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
