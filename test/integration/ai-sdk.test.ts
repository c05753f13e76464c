/**
 * The adapters inside the real Vercel AI SDK (the exact `ai` version in package.json), driven by its own offline
 * `MockLanguageModelV4`. No network, no API keys. CI runs this file on the machine's Node and on Node 22.
 */
import { generateText, isStepCount, streamText, tool, ToolLoopAgent } from 'ai';
import type { StepResult, ToolSet } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createGuard, toGuardStep, toStopWhen } from '../../src/index.js';
import type { Guard, GuardStep, StopVerdict } from '../../src/index.js';
import { scriptedModel } from './mock-model.js';

const tools = {
  search: tool({
    inputSchema: z.object({ query: z.string() }),
    execute: ({ query }) => Promise.resolve({ hits: 0, query }),
  }),
  read: tool({
    inputSchema: z.object({ page: z.number() }),
    execute: ({ page }) => Promise.resolve(`page ${String(page)}`),
  }),
  explode: tool({
    inputSchema: z.object({}),
    execute: () => Promise.reject<string>(new Error('disk on fire')),
  }),
};

/** A model that searches for the same thing on every call, forever. */
const stubbornModel = () =>
  scriptedModel([], (index) => ({
    text: 'Searching again.',
    calls: [{ id: `call-${String(index)}`, tool: 'search', input: { query: 'agent loops' } }],
  }));

describe('toStopWhen in generateText', () => {
  it('stops a repeating tool call after the third step and hands the verdict to onStop', async () => {
    const onStop = vi.fn<(verdict: StopVerdict) => void>();
    const model = stubbornModel();

    const result = await generateText({
      model,
      tools,
      prompt: 'Find something.',
      stopWhen: [toStopWhen(() => createGuard(), { onStop }), isStepCount(20)],
    });

    expect(result.steps).toHaveLength(3);
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(onStop).toHaveBeenCalledOnce();
    const verdict = onStop.mock.calls[0]?.[0];
    expect(verdict).toMatchObject({
      stop: true,
      reason: 'repeated-tool-call',
      code: 'REPEATED_TOOL_CALL',
      evidence: { tool: 'search', count: 3, threshold: 3, stepIndexes: [0, 1, 2], identicalResults: true },
    });
    expect(verdict?.detail).toEqual(expect.any(String));
  });

  it('leaves a healthy multi-step run alone: it ends by itself', async () => {
    const onStop = vi.fn();
    const condition = vi.fn(toStopWhen(() => createGuard(), { onStop }));
    const model = scriptedModel([
      { calls: [{ id: 'a', tool: 'search', input: { query: 'loop guards' } }] },
      { calls: [{ id: 'b', tool: 'read', input: { page: 1 } }] },
      { calls: [{ id: 'c', tool: 'read', input: { page: 2 } }] },
      { text: 'Here is the answer.' },
    ]);

    const result = await generateText({ model, tools, prompt: 'Research.', stopWhen: [condition, isStepCount(20)] });

    expect(result.steps).toHaveLength(4);
    expect(result.text).toBe('Here is the answer.');
    expect(result.finishReason).toBe('stop');
    // The SDK asks after each step with tool calls; the final text-only step ends the loop without asking.
    expect(condition).toHaveBeenCalledTimes(3);
    expect(condition.mock.results.map((answer) => answer.value as unknown)).toEqual([false, false, false]);
    expect(onStop).not.toHaveBeenCalled();
  });

  it('enforces a token budget from the usage the SDK reports', async () => {
    const onStop = vi.fn<(verdict: StopVerdict) => void>();
    const model = scriptedModel([], (index) => ({
      calls: [{ id: `call-${String(index)}`, tool: 'read', input: { page: index } }],
      inputTokens: 100,
      outputTokens: 50,
    }));

    const result = await generateText({
      model,
      tools,
      prompt: 'Read everything.',
      stopWhen: [toStopWhen({ budget: { maxTotalTokens: 400 } }, { onStop }), isStepCount(20)],
    });

    // 150 tokens a step: 300 after two steps continues, 450 after three reaches the limit.
    expect(result.steps).toHaveLength(3);
    expect(result.steps.map((step) => step.usage.totalTokens)).toEqual([150, 150, 150]);
    expect(onStop.mock.calls[0]?.[0]).toMatchObject({
      reason: 'budget',
      code: 'BUDGET_TOTAL_TOKENS',
      evidence: { metric: 'totalTokens', value: 450, limit: 400 },
    });
  });

  it('enforces a cost budget through the cost function, since the SDK reports no prices', async () => {
    const onStop = vi.fn<(verdict: StopVerdict) => void>();
    const model = scriptedModel([], (index) => ({
      calls: [{ id: `call-${String(index)}`, tool: 'read', input: { page: index } }],
      inputTokens: 1000,
      outputTokens: 1000,
    }));
    // $1 per million input tokens, $4 per million output tokens: $0.005 a step.
    const cost = (usage: { inputTokens?: number | undefined; outputTokens?: number | undefined }) =>
      ((usage.inputTokens ?? 0) * 1 + (usage.outputTokens ?? 0) * 4) / 1_000_000;

    const result = await generateText({
      model,
      tools,
      prompt: 'Read everything.',
      stopWhen: [toStopWhen({ budget: { maxCostUsd: 0.0125 } }, { onStop, cost }), isStepCount(20)],
    });

    expect(result.steps).toHaveLength(3);
    expect(onStop.mock.calls[0]?.[0]).toMatchObject({ reason: 'budget', code: 'BUDGET_COST_USD' });
    expect(onStop.mock.calls[0]?.[0].evidence).toMatchObject({ metric: 'costUsd', limit: 0.0125 });
  });

  it('counts the steps’ own stepTimeMs for maxDurationMs', async () => {
    const onStop = vi.fn<(verdict: StopVerdict) => void>();
    const slowTools = {
      wait: tool({
        inputSchema: z.object({ round: z.number() }),
        execute: async ({ round }) => {
          await new Promise((resolve) => setTimeout(resolve, 40));
          return round;
        },
      }),
    };
    const model = scriptedModel([], (index) => ({
      calls: [{ id: `call-${String(index)}`, tool: 'wait', input: { round: index } }],
    }));

    const result = await generateText({
      model,
      tools: slowTools,
      prompt: 'Wait.',
      stopWhen: [toStopWhen({ budget: { maxDurationMs: 100 } }, { onStop }), isStepCount(10)],
    });

    const times = result.steps.map((step) => step.performance.stepTimeMs);
    // Totals are rounded to 15 significant digits as each step is added, as the guard adds them.
    const total = times.reduce((sum, time) => Number((sum + time).toPrecision(15)), 0);
    expect(times.every((time) => time >= 39)).toBe(true);
    expect(total).toBeGreaterThanOrEqual(100);
    expect(total - (times.at(-1) ?? 0)).toBeLessThan(100);
    expect(onStop.mock.calls[0]?.[0]).toMatchObject({
      reason: 'budget',
      evidence: { metric: 'durationMs', value: total, limit: 100 },
    });
  });

  it('maps a tool that throws onto its call as error', async () => {
    let guard: Guard | undefined;
    const model = scriptedModel([{ calls: [{ id: 'x', tool: 'explode', input: {} }] }, { text: 'It failed.' }]);

    const result = await generateText({
      model,
      tools,
      prompt: 'Try it.',
      stopWhen: toStopWhen(() => (guard = createGuard())),
    });

    const [failed] = result.steps;
    expect(failed?.toolResults).toEqual([]);
    const mapped = toGuardStep(failed as StepResult<ToolSet>);
    expect(mapped.toolCalls).toHaveLength(1);
    expect(mapped.toolCalls?.[0]).toMatchObject({ name: 'explode', args: {} });
    expect(mapped.toolCalls?.[0]?.error).toBeInstanceOf(Error);
    expect((mapped.toolCalls?.[0]?.error as Error).message).toBe('disk on fire');
    expect(mapped.toolCalls?.[0]).not.toHaveProperty('result');
    // The guard that judged the run saw the same error on the call.
    const seen: GuardStep | undefined = guard?.history[0];
    expect((seen?.toolCalls?.[0]?.error as Error | undefined)?.message).toBe('disk on fire');
  });

  it('maps a real step completely: text, calls with input and output, usage, finish reason, duration, time', async () => {
    const model = scriptedModel([
      {
        text: 'Looking.',
        calls: [
          { id: 's', tool: 'search', input: { query: 'q' } },
          { id: 'r', tool: 'read', input: { page: 7 } },
        ],
        inputTokens: 12,
        outputTokens: 3,
      },
      { text: 'Done.' },
    ]);

    const result = await generateText({ model, tools, prompt: 'Go.', stopWhen: isStepCount(5) });
    const step = result.steps[0] as StepResult<ToolSet>;

    expect(toGuardStep(step)).toEqual({
      text: 'Looking.',
      finishReason: 'tool-calls',
      toolCalls: [
        { name: 'search', args: { query: 'q' }, result: { hits: 0, query: 'q' } },
        { name: 'read', args: { page: 7 }, result: 'page 7' },
      ],
      usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 },
      durationMs: step.performance.stepTimeMs,
      timestamp: step.response.timestamp.getTime(),
    });
  });

  it('answers the same when asked twice with the same steps, and like a fresh condition', async () => {
    const model = stubbornModel();
    const result = await generateText({ model, tools, prompt: 'Find.', stopWhen: isStepCount(4) });
    const steps = result.steps;
    expect(steps).toHaveLength(4);

    const condition = toStopWhen(() => createGuard());
    for (let length = 1; length <= steps.length; length++) {
      const prefix = { steps: steps.slice(0, length) };
      const first = condition(prefix);
      expect(condition(prefix)).toBe(first);
      expect(toStopWhen(() => createGuard())(prefix)).toBe(first);
    }
    expect(condition({ steps })).toBe(true);
    expect(condition({ steps: steps.slice(0, 2) })).toBe(false);
    expect(condition({ steps })).toBe(true);
  });
});

describe('toStopWhen in streamText and ToolLoopAgent', () => {
  it('stops streamText', async () => {
    const onStop = vi.fn<(verdict: StopVerdict) => void>();
    const model = stubbornModel();

    const result = streamText({
      model,
      tools,
      prompt: 'Find something.',
      stopWhen: [toStopWhen(() => createGuard(), { onStop }), isStepCount(20)],
    });
    const steps = await result.steps;

    expect(steps).toHaveLength(3);
    expect(model.doStreamCalls).toHaveLength(3);
    expect(onStop).toHaveBeenCalledOnce();
    expect(onStop.mock.calls[0]?.[0]).toMatchObject({ reason: 'repeated-tool-call', evidence: { count: 3 } });
  });

  it('stops a ToolLoopAgent', async () => {
    const onStop = vi.fn<(verdict: StopVerdict) => void>();
    const model = stubbornModel();
    const agent = new ToolLoopAgent({
      model,
      tools,
      stopWhen: [toStopWhen(() => createGuard(), { onStop }), isStepCount(20)],
    });

    const result = await agent.generate({ prompt: 'Find something.' });

    expect(result.steps).toHaveLength(3);
    expect(onStop).toHaveBeenCalledOnce();
    expect(onStop.mock.calls[0]?.[0]).toMatchObject({ reason: 'repeated-tool-call', evidence: { count: 3 } });
  });

  it('keeps runs of one shared ToolLoopAgent apart', async () => {
    const stops: StopVerdict[] = [];
    const condition = toStopWhen({ repeatedToolCall: { threshold: 4 } }, { onStop: (verdict) => stops.push(verdict) });
    const agent = new ToolLoopAgent({ model: stubbornModel(), tools, stopWhen: [condition, isStepCount(20)] });

    const first = await agent.generate({ prompt: 'One.' });
    const second = await agent.generate({ prompt: 'Two.' });

    expect(first.steps).toHaveLength(4);
    expect(second.steps).toHaveLength(4);
    expect(stops.map((verdict) => verdict.evidence)).toMatchObject([{ count: 4 }, { count: 4 }]);
  });
});
