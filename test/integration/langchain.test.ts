/**
 * loopGuardMiddleware inside the real LangChain `createAgent` (the exact `langchain`, `@langchain/core` and
 * `@langchain/langgraph` versions in package.json) with its offline `fakeModel()`: the warning reaches the model's next
 * prompt, the call that would complete a loop never runs, a model that persists is stopped with the verdict available
 * to the caller, a healthy run is left alone, and threads, checkpoints and concurrent runs keep their own guard state.
 * CI runs this file on the machine's Node and on Node 22.
 */
import { MemorySaver } from '@langchain/langgraph';
import type { StandardMessageStructure } from '@langchain/core/messages';
import { AIMessage, createAgent, fakeModel, tool, ToolMessage, type BaseMessage } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loopGuardMiddleware, type CallRefusal } from '../../src/adapters/langchain.js';
import { createGuard } from '../../src/index.js';
import type { GuardOptions, GuardStep, LoopWarning, StopVerdict } from '../../src/index.js';

const WARNING = 'Calling it again will not tell you anything new';
const REFUSAL = 'Not run: this would be call number 3 in a row to search';

/** Tools that count how often their body really ran. */
function countedTools() {
  const runs = { search: 0, read: 0 };
  const search = tool(
    ({ query }) => {
      runs.search++;
      return `No results for ${query}.`;
    },
    { name: 'search', description: 'Search the web.', schema: z.object({ query: z.string() }) },
  );
  const read = tool(
    ({ page }) => {
      runs.read++;
      return `Page ${String(page)}: the answer is 42.`;
    },
    { name: 'read', description: 'Read a page.', schema: z.object({ page: z.number() }) },
  );
  return { runs, tools: [search, read] };
}

/** Everything a prompt held, as text, to look for what the guard said. */
function promptText(messages: readonly BaseMessage[]): string {
  return messages.map((message) => `${message.type}: ${JSON.stringify(message.content)}`).join('\n');
}

/**
 * A fake model that searches for the same thing every time; with `listens`, it reads a page and answers once the
 * guard has spoken up (a warning or a refusal is in its prompt).
 */
function searcher(listens: boolean, turns = 12) {
  const model = fakeModel();
  let call = 0;
  for (let turn = 0; turn < turns; turn++) {
    model.respond((messages) => {
      const seen = promptText(messages);
      const index = call++;
      if (listens && (seen.includes(WARNING) || seen.includes('Not run:'))) {
        if (seen.includes('Page 1')) return new AIMessage('The answer is 42.');
        return new AIMessage({ content: 'Reading instead.', tool_calls: [{ id: `read-${String(index)}`, name: 'read', args: { page: 1 }, type: 'tool_call' }] });
      }
      // With the default MessageStructure, AIMessage's field types take no usage_metadata; the standard one does.
      return new AIMessage<StandardMessageStructure>({
        content: `Attempt ${String(index)}: searching.`,
        tool_calls: [{ id: `search-${String(index)}`, name: 'search', args: { query: 'agent loops' }, type: 'tool_call' }],
        usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
      });
    });
  }
  return model;
}

interface Observed {
  readonly stops: StopVerdict[];
  readonly warnings: LoopWarning[][];
  readonly blocks: CallRefusal[];
}

function observedMiddleware(options: GuardOptions = {}) {
  const observed: Observed = { stops: [], warnings: [], blocks: [] };
  const middleware = loopGuardMiddleware(options, {
    ToolMessage,
    onStop: (verdict) => observed.stops.push(verdict),
    onWarning: (warnings) => observed.warnings.push([...warnings]),
    onBlock: (refusal) => observed.blocks.push(refusal),
  });
  return { observed, middleware };
}

const ask = (content: string) => ({ messages: [{ role: 'user', content }] });

describe('loopGuardMiddleware in createAgent', () => {
  it('warns the model, refuses the call that would complete the repeat, and stops a model that persists', async () => {
    const { runs, tools } = countedTools();
    const { observed, middleware } = observedMiddleware();
    const model = searcher(false);
    const agent = createAgent({ model, tools, middleware: [middleware] });

    const result = await agent.invoke(ask('Find it.'));

    // Two searches ran; the third and fourth were refused before they ran, and the fourth stopped the run before the
    // fifth model call.
    expect(runs.search).toBe(2);
    expect(model.callCount).toBe(4);
    expect(observed.blocks.map((block) => block.code)).toEqual(['REPEATED_TOOL_CALL', 'REPEATED_TOOL_CALL']);
    expect(observed.stops).toHaveLength(1);
    expect(observed.stops[0]).toMatchObject({ stop: true, reason: 'repeated-tool-call', code: 'REPEATED_TOOL_CALL', evidence: { count: 3, tool: 'search' } });
    // The caller gets the verdict from what invoke() returned.
    expect(middleware.verdictOf(result)).toEqual(observed.stops[0]);
    // The warning after the second search was in the third model call's prompt, as a user message.
    const prompts = model.calls.map((call) => promptText(call.messages));
    expect(prompts[1]).not.toContain(WARNING);
    expect(prompts[2]).toContain('human: "You have called search 2 times in a row');
    expect(observed.warnings).toHaveLength(1);
    expect(observed.warnings[0]?.[0]).toMatchObject({ code: 'LOOP_WARNING', reason: 'repeated-tool-call' });
    // The model read why its call was refused, as the refused call's result (a tool message with status error).
    expect(prompts[3]).toContain(`tool: "${REFUSAL}`);
    const refusals = result.messages.filter((message) => ToolMessage.isInstance(message)).filter((message) => message.status === 'error');
    expect(refusals.map((message) => message.tool_call_id)).toEqual(['search-2', 'search-3']);
    // The run ends with the answers to the last calls: the stop came before the model was asked again.
    expect(result.messages.at(-1)?.type).toBe('tool');
    const history = middleware.guardOf(result).history;
    expect(history.map((step) => step.toolCalls?.map((call) => (call.blocked === true ? 'blocked' : call.result)))).toEqual([
      ['No results for agent loops.'],
      ['No results for agent loops.'],
      ['blocked'],
      ['blocked'],
    ]);
    expect(history[0]).toMatchObject({ text: 'Attempt 0: searching.', finishReason: 'tool-calls', usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } });
  });

  it('lets a model that changes course after the warning finish normally, without a refusal or a stop', async () => {
    const { runs, tools } = countedTools();
    const { observed, middleware } = observedMiddleware();
    const agent = createAgent({ model: searcher(true), tools, middleware: [middleware] });

    const result = await agent.invoke(ask('Find it.'));

    expect(result.messages.at(-1)?.content).toBe('The answer is 42.');
    expect(runs).toEqual({ search: 2, read: 1 });
    expect(observed.warnings).toHaveLength(1);
    expect(observed.blocks).toEqual([]);
    expect(observed.stops).toEqual([]);
    expect(middleware.verdictOf(result)).toBeUndefined();
  });

  it('leaves a healthy run untouched: no message added, no call refused', async () => {
    const { runs, tools } = countedTools();
    const { observed, middleware } = observedMiddleware();
    const model = fakeModel()
      .respondWithTools([{ name: 'search', args: { query: 'agent loops' }, id: 'a' }])
      .respondWithTools([{ name: 'read', args: { page: 1 }, id: 'b' }])
      .respond(new AIMessage('The answer is 42.'));
    const agent = createAgent({ model, tools, middleware: [middleware] });

    const result = await agent.invoke(ask('Find it.'));

    expect(runs).toEqual({ search: 1, read: 1 });
    expect(result.messages.map((message) => message.type)).toEqual(['human', 'ai', 'tool', 'ai', 'tool', 'ai']);
    expect(observed).toEqual({ stops: [], warnings: [], blocks: [] });
    expect(middleware.verdictOf(result)).toBeUndefined();
  });

  it('refuses the call of a step that would complete the repeat with the calls before it in the same step', async () => {
    const { runs, tools } = countedTools();
    const { observed, middleware } = observedMiddleware();
    const same = (id: string) => ({ name: 'search', args: { query: 'agent loops' }, id });
    const model = fakeModel()
      .respondWithTools([same('a'), same('b'), same('c')])
      .respond(new AIMessage('Nothing found.'));
    const agent = createAgent({ model, tools, middleware: [middleware] });

    const result = await agent.invoke(ask('Find it.'));

    expect(runs.search).toBe(2);
    expect(observed.blocks).toHaveLength(1);
    const answers = result.messages.filter((message) => ToolMessage.isInstance(message));
    expect(answers.map((message) => [message.tool_call_id, message.status])).toEqual([
      ['a', 'success'],
      ['b', 'success'],
      ['c', 'error'],
    ]);
    expect(result.messages.at(-1)?.content).toBe('Nothing found.');
  });

  it('stops at maxSteps, counting the model messages of the run', async () => {
    const { tools } = countedTools();
    const { observed, middleware } = observedMiddleware({ maxSteps: 2 });
    const model = fakeModel()
      .respondWithTools([{ name: 'search', args: { query: 'one' }, id: 'a' }])
      .respondWithTools([{ name: 'search', args: { query: 'two' }, id: 'b' }])
      .respond(new AIMessage('never asked'));
    const agent = createAgent({ model, tools, middleware: [middleware] });

    const result = await agent.invoke(ask('Find it.'));

    expect(model.callCount).toBe(2);
    expect(observed.stops[0]).toMatchObject({ reason: 'max-steps', code: 'MAX_STEPS', evidence: { steps: 2, limit: 2 } });
    expect(middleware.verdictOf(result)?.code).toBe('MAX_STEPS');
  });
});

describe('loopGuardMiddleware: state scoped to the run', () => {
  it('keeps concurrent runs of two agents sharing one middleware apart', async () => {
    const looping = countedTools();
    const healthy = countedTools();
    const { observed, middleware } = observedMiddleware();
    const loopAgent = createAgent({ model: searcher(false), tools: looping.tools, middleware: [middleware] });
    const healthyAgent = createAgent({ model: searcher(true), tools: healthy.tools, middleware: [middleware] });

    const [stopped, finished] = await Promise.all([loopAgent.invoke(ask('Find it.')), healthyAgent.invoke(ask('Find it.'))]);

    expect(middleware.verdictOf(stopped)?.code).toBe('REPEATED_TOOL_CALL');
    expect(middleware.verdictOf(finished)).toBeUndefined();
    expect(finished.messages.at(-1)?.content).toBe('The answer is 42.');
    expect(looping.runs.search).toBe(2);
    expect(healthy.runs).toEqual({ search: 2, read: 1 });
    expect(observed.stops).toHaveLength(1);
  });

  it('reads the verdict back from a checkpoint, and starts a fresh run on a new user message in the same thread', async () => {
    const { runs, tools } = countedTools();
    const { observed, middleware } = observedMiddleware();
    const model = searcher(false, 4)
      .respondWithTools([{ name: 'read', args: { page: 1 }, id: 'read-again' }])
      .respond(new AIMessage('The answer is 42.'));
    const checkpointer = new MemorySaver();
    const agent = createAgent({ model, tools, middleware: [middleware], checkpointer });
    const thread = { configurable: { thread_id: 'thread-1' } };

    const stopped = await agent.invoke(ask('Find it.'), thread);
    const saved = (await agent.graph.getState(thread)).values as { messages: BaseMessage[] };
    // Restored from the checkpointer (copies, not the objects of the run), the state replays to the same verdict.
    expect(saved.messages[1]).not.toBe(stopped.messages[1]);
    expect(saved.messages[1]).toEqual(stopped.messages[1]);
    expect(middleware.verdictOf(saved)).toEqual(observed.stops[0]);
    expect(observed.stops[0]?.code).toBe('REPEATED_TOOL_CALL');

    const resumed = await agent.invoke(ask('Read page 1 instead.'), thread);

    // The thread holds the stopped run and the new one; only the new one counts, so its call runs and it finishes.
    expect(runs).toEqual({ search: 2, read: 1 });
    expect(resumed.messages.at(-1)?.content).toBe('The answer is 42.');
    expect(middleware.verdictOf(resumed)).toBeUndefined();
    expect(observed.stops).toHaveLength(1);
    expect(middleware.guardOf(resumed).history).toHaveLength(2);
  });

  it('stops a stopped thread again at once when it is invoked with no new user message', async () => {
    const { tools } = countedTools();
    const { observed, middleware } = observedMiddleware();
    const model = searcher(false, 4);
    const agent = createAgent({ model, tools, middleware: [middleware], checkpointer: new MemorySaver() });
    const thread = { configurable: { thread_id: 'thread-2' } };

    await agent.invoke(ask('Find it.'), thread);
    await agent.invoke({ messages: [] }, thread);

    expect(model.callCount).toBe(4);
    expect(observed.stops.map((stop) => stop.code)).toEqual(['REPEATED_TOOL_CALL', 'REPEATED_TOOL_CALL']);
  });
});

describe('loopGuardMiddleware: linear replays', () => {
  it('checks each step of a run once, however many hooks replay it', async () => {
    const { tools } = countedTools();
    let checks = 0;
    const counted = () => {
      const guard = createGuard({ now: () => 0 });
      const check = guard.check.bind(guard);
      return Object.assign(guard, {
        check: (step: GuardStep) => {
          checks++;
          return check(step);
        },
      });
    };
    const middleware = loopGuardMiddleware(counted, { ToolMessage });
    const model = searcher(false);
    const agent = createAgent({ model, tools, middleware: [middleware] });

    const result = await agent.invoke(ask('Find it.'));

    // Five beforeModel calls and four wrapToolCall calls replay four steps: each is checked once.
    expect(model.callCount).toBe(4);
    expect(checks).toBe(4);
    expect(middleware.verdictOf(result)?.code).toBe('REPEATED_TOOL_CALL');
    expect(checks).toBe(4);
  });
});
