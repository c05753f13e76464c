/**
 * The example of docs/integrations/openai-agents.md, word for word except the import paths (here the sources, there
 * the package) and the offline model. Without OPENAI_API_KEY (`npm run example:openai-agents`, and in CI) the
 * researcher is `LoopingModel`, a model that searches for the same thing every turn: the guard warns it, refuses its
 * third search, and stops it at the fourth. With the key set, it calls OpenAI.
 */
import { Agent, run, setTracingDisabled, tool, Usage } from '@openai/agents';
import type { Model, ModelResponse } from '@openai/agents';
import { z } from 'zod';
import { explain } from '../src/index.js';
import { loopGuardForAgents } from '../src/adapters/openai-agents.js';

// Offline (no OPENAI_API_KEY), a model that searches for the same thing on every turn: the loop the guard stops.
class LoopingModel implements Model {
  #turn = 0;

  getResponse(): Promise<ModelResponse> {
    const turn = this.#turn++;
    return Promise.resolve({
      usage: new Usage({ requests: 1, inputTokens: 50, outputTokens: 10, totalTokens: 60 }),
      output: [{ type: 'function_call', id: `item-${String(turn)}`, callId: `call-${String(turn)}`, name: 'search', arguments: '{"query":"cancel a run"}', status: 'completed' }],
      responseId: `response-${String(turn)}`,
    });
  }

  // eslint-disable-next-line require-yield -- the example never streams
  async *getStreamedResponse(): AsyncIterable<never> {
    await Promise.resolve();
    throw new Error('LoopingModel does not stream');
  }
}

const offline = process.env.OPENAI_API_KEY === undefined;
// Offline there is nowhere to send traces.
if (offline) setTracingDisabled(true);

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
  new Agent({
    name: 'Researcher',
    instructions: 'Find the answer, then hand off to the writer.',
    tools: [search],
    handoffs: [writer],
    ...(offline ? { model: new LoopingModel() } : {}),
  }),
);

const result = await run(researcher, 'How do I cancel a run?', { callModelInputFilter: loop.callModelInputFilter });

const stopped = loop.verdictOf(result); // the stop verdict, or undefined if the agents finished by themselves
console.log(stopped === undefined ? result.finalOutput : `Stopped: ${stopped.code}`);
