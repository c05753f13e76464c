/**
 * The example of docs/integrations/openai-agents.md, word for word except the two import paths (here the sources,
 * there the package). `npm run typecheck` proves it compiles against the pinned `@openai/agents`; running it calls
 * OpenAI, so it needs OPENAI_API_KEY (`npx tsx examples/openai-agents.ts`). The offline runs are in
 * test/integration/openai-agents.test.ts.
 */
import { Agent, run, tool } from '@openai/agents';
import { z } from 'zod';
import { explain } from '../src/index.js';
import { loopGuardForAgents } from '../src/adapters/openai-agents.js';

const search = tool({
  name: 'search',
  description: 'Search the documentation.',
  parameters: z.object({ query: z.string() }),
  execute: ({ query }) => `No results for ${query}.`, // yours
});

// One per application is enough: every run gets its own guard.
const loop = loopGuardForAgents({ maxSteps: 30 }, {
  onStop: (verdict) => {
    console.log(explain(verdict));
  },
});

const writer = new Agent({ name: 'Writer', instructions: 'Write the answer up for the user.' });
const researcher = loop.guardAgent(
  new Agent({ name: 'Researcher', instructions: 'Find the answer, then hand off to the writer.', tools: [search], handoffs: [writer] }),
);

const result = await run(researcher, 'How do I cancel a run?', { callModelInputFilter: loop.callModelInputFilter });

const stopped = loop.verdictOf(result); // the stop verdict, or undefined if the agents finished by themselves
console.log(stopped === undefined ? result.finalOutput : `Stopped: ${stopped.code}`);
