/**
 * The LangChain guide's example (docs/integrations/langchain.md), word for word except the two import paths (here the
 * sources, there the package). `npm run typecheck` proves it compiles against the pinned `langchain`; it runs offline
 * (`npm run example:langchain`): LangChain's own `fakeModel()` stands in for a model that keeps making the same call.
 */
import { createAgent, fakeModel, tool, ToolMessage } from 'langchain';
import { z } from 'zod';
import { explain } from '../src/index.js';
import { loopGuardMiddleware } from '../src/adapters/langchain.js';

const search = tool(({ query }) => `No results for ${query}.`, {
  name: 'search',
  description: 'Search the documentation.',
  schema: z.object({ query: z.string() }),
});

// One per application is enough: every run is judged from its own messages.
const loopGuard = loopGuardMiddleware({ maxSteps: 30 }, {
  ToolMessage, // LangChain's class, to answer a refused call
  onWarning: (warnings) => {
    console.log(`Warned: ${warnings.map((warning) => warning.detail).join(' ')}`);
  },
  onBlock: (refusal) => {
    console.log(`Refused: ${refusal.detail}`);
  },
  onStop: (verdict) => {
    console.log(explain(verdict));
  },
});

// Your model goes here ('openai:gpt-4.1', new ChatAnthropic(...)); this one searches for the same thing every time.
const model = fakeModel();
for (let turn = 0; turn < 10; turn++) model.respondWithTools([{ name: 'search', args: { query: 'cancel a run' } }]);

const agent = createAgent({ model, tools: [search], middleware: [loopGuard] });
const result = await agent.invoke({ messages: [{ role: 'user', content: 'How do I cancel a run?' }] });

const stopped = loopGuard.verdictOf(result); // the stop verdict, or undefined if the agent finished by itself
console.log(stopped === undefined ? result.messages.at(-1)?.text : `Stopped: ${stopped.code}`);
