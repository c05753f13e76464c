/**
 * Compile-time proof against the AI SDK's own declarations: vitest type-checks this file (it is never run).
 * Every `@ts-expect-error` must really be an error, so the checks cannot pass vacuously.
 */
import { generateText, isStepCount, streamText, tool, ToolLoopAgent } from 'ai';
import type { LanguageModel, PrepareStepFunction, StepResult, StopCondition, ToolApprovalConfiguration, ToolSet } from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createGuard, toAgentSettings, toGuardStep, toStopWhen } from '../../src/index.js';
import type { GuardStep, StopVerdict } from '../../src/index.js';

const tools = {
  search: tool({ inputSchema: z.object({ query: z.string() }), execute: ({ query }) => Promise.resolve([query]) }),
  read: tool({ inputSchema: z.object({ page: z.number() }), execute: ({ page }) => Promise.resolve(String(page)) }),
};
type Tools = typeof tools;
declare const model: LanguageModel;

describe('toStopWhen', () => {
  it('is a StopCondition for any tool set', () => {
    const fromFactory = toStopWhen(() => createGuard());
    const fromOptions = toStopWhen({ maxSteps: 10 }, { onStop: (verdict) => expectTypeOf(verdict).toEqualTypeOf<StopVerdict>() });
    expectTypeOf(fromFactory).toExtend<StopCondition<ToolSet>>();
    expectTypeOf(fromFactory).toExtend<StopCondition<Tools>>();
    expectTypeOf(fromOptions).toExtend<StopCondition<Tools>>();
    expectTypeOf(fromFactory).returns.toEqualTypeOf<boolean>();
  });

  it('fits stopWhen of generateText, streamText and ToolLoopAgent, alone or next to isStepCount', () => {
    const condition = toStopWhen(() => createGuard());
    void generateText({ model, tools, prompt: 'p', stopWhen: condition });
    void generateText({ model, tools, prompt: 'p', stopWhen: [condition, isStepCount(20)] });
    streamText({ model, tools, prompt: 'p', stopWhen: [isStepCount(20), condition] });
    new ToolLoopAgent({ model, tools, stopWhen: [condition, isStepCount(20)] });
  });

  it('types onStop steps and cost after the SDK step when asked to', () => {
    toStopWhen<StepResult<Tools>>(() => createGuard(), {
      onStop: (_verdict, steps) => expectTypeOf(steps).toEqualTypeOf<readonly StepResult<Tools>[]>(),
      cost: (usage, step) => {
        expectTypeOf(usage).toEqualTypeOf<StepResult<Tools>['usage']>();
        expectTypeOf(step).toEqualTypeOf<StepResult<Tools>>();
        return (usage.inputTokens ?? 0) * 1e-6 + step.stepNumber * 0;
      },
    });
  });

  it("takes the SDK's own step type from a typed variable, as the AI SDK guide shows", () => {
    // Inline in generateText({ stopWhen: ... }) TypeScript cannot infer it (the call's own TOOLS are still being
    // inferred): there, pass the type, as above.
    const condition: StopCondition<Tools> = toStopWhen(
      {},
      {
        onStop: (_verdict, steps) => expectTypeOf(steps).toEqualTypeOf<readonly StepResult<Tools>[]>(),
        cost: (usage, step) => {
          expectTypeOf(usage).toEqualTypeOf<StepResult<Tools>['usage']>();
          expectTypeOf(step).toEqualTypeOf<StepResult<Tools>>();
          return (usage.inputTokens ?? 0) * 1e-6;
        },
      },
    );
    void generateText({ model, tools, prompt: 'p', stopWhen: condition });
  });

  it('rejects what is not options or a guard factory', () => {
    // @ts-expect-error: a threshold is a number
    toStopWhen({ repeatedToolCall: { threshold: '3' } });
    // @ts-expect-error: the factory must return a guard
    toStopWhen(() => ({ check: () => true }));
    // @ts-expect-error: onStop receives a verdict, not a string
    toStopWhen({}, { onStop: (verdict: string) => verdict });
  });
});

describe('toGuardStep', () => {
  it('accepts the SDK’s StepResult and returns a GuardStep', () => {
    expectTypeOf(toGuardStep).toBeCallableWith({} as StepResult<Tools>);
    expectTypeOf(toGuardStep).toBeCallableWith({} as StepResult<ToolSet>);
    expectTypeOf(toGuardStep({} as StepResult<Tools>)).toEqualTypeOf<GuardStep>();
    void generateText({ model, tools, prompt: 'p' }).then((result) => result.steps.map((step) => toGuardStep(step)));
  });

  it('rejects a step whose fields have the wrong types', () => {
    // @ts-expect-error: text is a string
    toGuardStep({ text: 5 });
    // @ts-expect-error: tool calls are an array
    toGuardStep({ toolCalls: { toolName: 'search' } });
  });
});

describe('toAgentSettings', () => {
  it('gives a StopCondition, a PrepareStepFunction and a ToolApprovalConfiguration of the SDK', () => {
    const settings = toAgentSettings();
    expectTypeOf(settings.stopWhen).toExtend<StopCondition<Tools> | undefined>();
    expectTypeOf(settings.prepareStep).toExtend<PrepareStepFunction<Tools> | undefined>();
    expectTypeOf(settings.toolApproval).toExtend<ToolApprovalConfiguration<Tools, unknown> | undefined>();
  });

  it('spreads into generateText, streamText and ToolLoopAgent, and composes with a prepareStep of your own', () => {
    const settings = toAgentSettings<StepResult<Tools>>({ maxSteps: 30 }, { onStop: (_verdict, steps) => expectTypeOf(steps).toEqualTypeOf<readonly StepResult<Tools>[]>() });
    void generateText({ model, tools, prompt: 'p', ...settings });
    streamText({ model, tools, prompt: 'p', ...settings });
    new ToolLoopAgent({ model, tools, ...settings });
    const guardPrepareStep = settings.prepareStep;
    void generateText({
      model,
      tools,
      prompt: 'p',
      ...settings,
      prepareStep: (input) => {
        const mine = { messages: input.messages.slice(-10) };
        return { ...mine, ...guardPrepareStep?.({ ...input, messages: mine.messages }) };
      },
    });
  });

  it('rejects what its callbacks cannot take', () => {
    // @ts-expect-error: onBlock receives a refusal, not a string
    toAgentSettings({}, { onBlock: (refusal: string) => refusal });
    // @ts-expect-error: block is on or off
    toAgentSettings({}, { block: 'yes' });
  });
});
