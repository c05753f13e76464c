/**
 * A real AI SDK run, recorded once for the `toStopWhen` benchmark: `generateText` with the SDK's own mock model,
 * one `search` call per step (unique arguments, a 2 KB result) for a fixed number of steps. The steps are the SDK's
 * own `StepResult` objects, getters and all, exactly what a `stopWhen` condition receives.
 */
import { generateText, isStepCount, tool, type StepResult, type ToolSet } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { searchArgs, searchResult } from './fixtures.js';

/** The steps of a finished run, in order. */
export async function recordSdkRun(stepCount: number): Promise<readonly StepResult<ToolSet>[]> {
  let calls = 0;
  const model = new MockLanguageModelV4({
    doGenerate: () => {
      const stepNumber = calls++;
      return Promise.resolve({
        content: [
          { type: 'tool-call', toolCallId: `call-${String(stepNumber)}`, toolName: 'search', input: JSON.stringify(searchArgs(stepNumber)) },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage: {
          inputTokens: { total: 1200, noCache: 1200, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 40, text: 0, reasoning: 0 },
        },
        warnings: [],
      });
    },
  });
  const search = tool({
    inputSchema: z.object({ query: z.string(), limit: z.number(), filters: z.object({ lang: z.string(), after: z.string() }) }),
    execute: (input) => Promise.resolve(searchResult(Number(/\d+$/.exec(input.query)?.[0] ?? 0))),
  });
  const result = await generateText({ model, prompt: 'Find sources on runaway agent loops.', tools: { search }, stopWhen: isStepCount(stepCount) });
  if (result.steps.length !== stepCount) throw new Error(`the recorded run has ${String(result.steps.length)} steps, not ${String(stepCount)}`);
  return result.steps;
}
