import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { MastraLanguageModelV2Mock } from '@mastra/core/test-utils/llm-mock';
import { z } from 'zod';

let runs = 0;
const search = createTool({ id: 'search', description: 'Search.', inputSchema: z.object({ query: z.string() }), execute: async ({ query }) => { runs++; return `No results for ${query}.`; } });
const prompts: string[] = [];
let n = 0;
const model = new MastraLanguageModelV2Mock({
  doGenerate: async (options) => {
    prompts.push(JSON.stringify(options.prompt));
    const i = n++;
    const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
    if (i < 4) return { content: [{ type: 'tool-call', toolCallId: `call-${i}`, toolName: 'search', input: JSON.stringify({ query: 'a' }) }], finishReason: 'tool-calls', usage, warnings: [] } as any;
    return { content: [{ type: 'text', text: 'done' }], finishReason: 'stop', usage, warnings: [] } as any;
  },
});
const agent = new Agent({ id: 'a', name: 'a', instructions: 'Find it.', model, tools: { search } });
const result = await agent.generate('find a', {
  maxSteps: 10,
  hooks: { beforeToolCall: (ctx) => { console.log('before', ctx.toolName, JSON.stringify(ctx.input), Object.keys(ctx.context as object), (ctx.context as any).toolCallId); if ((ctx.context as any).toolCallId === 'call-2') return { proceed: false, output: 'REFUSED' }; } },
  stopWhen: ({ steps }) => { const s: any = steps.at(-1); console.log('stopWhen', steps.length, JSON.stringify({ toolCalls: s.toolCalls, toolResults: s.toolResults, content: s.content, finishReason: s.finishReason, usage: s.usage, text: s.text }).slice(0, 900)); return steps.length >= 4; },
  onIterationComplete: (ctx) => { console.log('iter', ctx.iteration, ctx.finishReason, JSON.stringify(ctx.toolCalls), JSON.stringify(ctx.toolResults), ctx.runId, ctx.isFinal); if (ctx.iteration === 2) return { feedback: 'WARNING-FEEDBACK' }; },
});
console.log('runs', runs, 'finish', result.finishReason, 'text', result.text, 'steps', result.steps.length);
console.log('prompt3 has feedback', prompts[2]?.includes('WARNING-FEEDBACK'), prompts[2]?.slice(-400));
console.log('prompt4', prompts[3]?.slice(-300));
