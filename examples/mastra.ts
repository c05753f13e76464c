/**
 * The Mastra guide's example (docs/integrations/mastra.md), word for word except the two import paths (here the
 * sources, there the package). It runs offline, with Mastra's own `MastraLanguageModelV2Mock` standing in for a
 * provider: `npm run example:mastra` (`@mastra/core` declares Node 22.13+; it runs on Node 20 too).
 */
import { Agent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';
import { RequestContext } from '@mastra/core/request-context';
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

// One object for every run, made once. It tells runs apart by their requestContext: Mastra makes a new one for each
// generate() and stream(), or takes yours, as here, where it carries the question the callbacks print.
const asked = (requestContext: unknown) => String((requestContext as RequestContext).get('question'));
const loop = toMastraOptions({ maxSteps: 30 }, {
  onWarning: (warnings, requestContext) => {
    console.log(`${asked(requestContext)} Told the model: ${warnings.map((warning) => warning.reason).join(', ')}`);
  },
  onBlock: (refusal, call) => {
    const { requestContext } = call.context as { requestContext: RequestContext };
    console.log(`${asked(requestContext)} Refused a call: ${refusal.code}`);
  },
  onStop: (verdict, requestContext) => {
    console.log(`${asked(requestContext)} ${explain(verdict)}`);
  },
});

async function ask(question: string): Promise<void> {
  const requestContext = new RequestContext([['question', question]]);
  const result = await agent.generate(question, { ...loop, maxSteps: 40, requestContext });
  const stopped = loop.verdictOf(result); // the stop verdict, or undefined if the agent finished by itself
  console.log(`${question} ${stopped === undefined ? result.text : `Stopped: ${stopped.code}`}`);
}

// Two questions one after another, then two at the same time, all through the one object.
await ask('How do I cancel a run?');
await ask('How do I resume one?');
await Promise.all([ask('How do I pause a run?'), ask('How do I list runs?')]);
// In each run two searches ran, the third and fourth were refused before they ran, and the run stopped before a
// fifth model call.
console.log(`The search tool ran ${String(searches)} times in ${String(modelCalls)} model calls.`);
