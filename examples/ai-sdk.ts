/**
 * The guard as a Vercel AI SDK stop condition, in a real `generateText` run, then all three of `toAgentSettings`'
 * hooks in one `ToolLoopAgent` reused for two requests. The model is the SDK's own offline mock, scripted to ask for
 * the same search on every step, so no API key or network is needed.
 * Run with `npm run example:ai-sdk`.
 */
import { generateText, isStepCount, tool, ToolLoopAgent } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { createGuard, explain, toAgentSettings, toStopWhen } from '../src/index.js';

/** Stands in for a real provider: every call answers with the same tool call. */
let modelCalls = 0;
const model = new MockLanguageModelV4({
  doGenerate: () => {
    modelCalls++;
    return Promise.resolve({
      content: [
        { type: 'text', text: 'Let me search for that.' },
        {
          type: 'tool-call',
          toolCallId: `call-${String(modelCalls)}`,
          toolName: 'search',
          input: JSON.stringify({ query: 'agent loop detection' }),
        },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      usage: {
        inputTokens: { total: 900, noCache: 900, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 30, text: 30, reasoning: 0 },
      },
      warnings: [],
    });
  },
});

const tools = {
  search: tool({
    description: 'Searches the web.',
    inputSchema: z.object({ query: z.string() }),
    execute: ({ query }) => Promise.resolve({ query, hits: [] }),
  }),
};

const result = await generateText({
  model,
  tools,
  prompt: 'How do agent frameworks detect loops?',
  stopWhen: [
    toStopWhen(() => createGuard({ budget: { maxTotalTokens: 50_000 } }), {
      onStop: (verdict) => {
        console.log(`${explain(verdict)}\n`);
      },
    }),
    isStepCount(20), // a hard cap of your own still applies
  ],
});

for (const step of result.steps) {
  const calls = step.toolCalls.map((call) => `${call.toolName}(${JSON.stringify(call.input)})`).join(', ');
  console.log(`step ${String(step.stepNumber)}: ${step.text} -> ${calls}`);
}
console.log(`\nThe SDK stopped after ${String(result.steps.length)} of at most 20 steps (${String(result.usage.totalTokens)} tokens in all).`);

// One agent, reused for two requests as the SDK documents: each request is its own run, warned, refused and stopped
// on its own steps; nothing of the first reaches the second.
let searches = 0;
const agent = new ToolLoopAgent({
  model,
  tools: {
    search: tool({
      inputSchema: z.object({ query: z.string() }),
      execute: ({ query }) => {
        searches++;
        return Promise.resolve({ query, hits: [] });
      },
    }),
  },
  ...toAgentSettings({ maxSteps: 20 }, {
    onWarning: (warnings) => {
      console.log(`told the model: ${warnings.map((warning) => warning.reason).join(', ')}`);
    },
    onBlock: (refusal) => {
      console.log(`refused a call: ${refusal.code}`);
    },
    onStop: (verdict) => {
      console.log(`stopped: ${verdict.code}`);
    },
  }),
});
for (const prompt of ['How do agent frameworks detect loops?', 'And how do they stop them?']) {
  const run = await agent.generate({ prompt });
  console.log(`${prompt} -> ${String(run.steps.length)} steps\n`);
}
// Per request: two searches ran; the third and the fourth were refused, and the fourth ended the run.
if (searches !== 4) throw new Error(`expected 4 searches over the two requests, got ${String(searches)}`);
