/**
 * The Mastra guide's example (docs/integrations/mastra.md), word for word except the two import paths (here the
 * sources, there the package). It runs offline, with Mastra's own `MastraLanguageModelV2Mock` standing in for a
 * provider: `npm run example:mastra` (`@mastra/core` declares Node 22.13+; it runs on Node 20 too).
 */
import { Agent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';
import { MastraLanguageModelV2Mock } from '@mastra/core/test-utils/llm-mock';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import { explain } from '../src/index.js';
import { toMastraOptions } from '../src/adapters/mastra.js';

// A model stuck in a loop: it asks for the same search on every step. Put your own model here.
let modelCalls = 0;
const stuckModel = new MastraLanguageModelV2Mock({
  doGenerate: () => {
    modelCalls++;
    const input = JSON.stringify({ query: 'cancel a run' });
    return Promise.resolve({
      content: [{ type: 'tool-call', toolCallId: `call-${String(modelCalls)}`, toolName: 'search', input }],
      finishReason: 'tool-calls',
      usage: { inputTokens: 900, outputTokens: 30, totalTokens: 930 },
      warnings: [],
    });
  },
});

let searches = 0;
const search = createTool({
  id: 'search',
  description: 'Search the documentation.',
  inputSchema: z.object({ query: z.string() }),
  execute: ({ query }) => {
    searches++;
    return Promise.resolve(`No results for ${query}.`); // yours
  },
});

// The cast only bridges two of Mastra's own declarations under `exactOptionalPropertyTypes`.
const model = stuckModel as unknown as MastraModelConfig;
const agent = new Agent({ id: 'researcher', name: 'Researcher', instructions: 'Find the answer.', model, tools: { search } });

// One object serves runs one after another; runs at the same time need one each.
const loop = toMastraOptions({ maxSteps: 30 }, {
  onWarning: (warnings) => {
    console.log(`Told the model: ${warnings.map((warning) => warning.reason).join(', ')}`);
  },
  onBlock: (refusal) => {
    console.log(`Refused a call: ${refusal.code}`);
  },
  onStop: (verdict) => {
    console.log(explain(verdict));
  },
});

for (const question of ['How do I cancel a run?', 'How do I resume one?']) {
  const result = await agent.generate(question, { ...loop, maxSteps: 40 });
  const stopped = loop.verdict(); // the stop verdict, or undefined if the agent finished by itself
  console.log(stopped === undefined ? result.text : `Stopped: ${stopped.code}`);
}
// Two searches ran in each run; the third and fourth were refused before they ran.
console.log(`The search tool ran ${String(searches)} times in ${String(modelCalls)} model calls.`);
