/**
 * The Mastra guide's example (docs/integrations/mastra.md), word for word except the two import paths (here the
 * sources, there the package). `npm run typecheck` proves it compiles against the pinned `@mastra/core`; running it
 * calls OpenAI through Mastra's model router, so it needs OPENAI_API_KEY (`npx tsx examples/mastra.ts`, Node 22.13+).
 * The offline runs, with Mastra's `MastraLanguageModelV2Mock`, are in test/integration/mastra.test.ts.
 */
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import { explain } from '../src/index.js';
import { toMastraOptions } from '../src/adapters/mastra.js';

const search = createTool({
  id: 'search',
  description: 'Search the documentation.',
  inputSchema: z.object({ query: z.string() }),
  execute: ({ query }) => Promise.resolve(`No results for ${query}.`), // yours
});

const agent = new Agent({ id: 'researcher', name: 'Researcher', instructions: 'Find the answer.', model: 'openai/gpt-4.1-mini', tools: { search } });

// One per run: the guard's state lives in it.
const loop = toMastraOptions({ maxSteps: 30 }, {
  onStop: (verdict) => {
    console.log(explain(verdict));
  },
});

const result = await agent.generate('How do I cancel a run?', { ...loop, maxSteps: 40 });

const stopped = loop.verdict(); // the stop verdict, or undefined if the agent finished by itself
console.log(stopped === undefined ? result.text : `Stopped: ${stopped.code}`);
