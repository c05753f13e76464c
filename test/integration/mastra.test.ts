/**
 * toMastraOptions and toStopWhen inside a real Mastra agent (the exact `@mastra/core` version in package.json) with its
 * offline `MastraLanguageModelV2Mock`: the warning reaches the model's next prompt, the call that would complete a loop
 * never runs, a model that persists is stopped with a tripwire that carries the verdict, and a healthy run is left
 * alone. `@mastra/core` 1.71 declares Node 22.13+; the agent loop these tests drive runs on Node 20 too, so they run in
 * `npm test` on the machine's Node, and CI runs them again on Node 22.
 */
import { Agent } from '@mastra/core/agent';
import { RequestContext } from '@mastra/core/request-context';
import { createTool } from '@mastra/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toMastraOptions, type CallRefusal } from '../../src/adapters/mastra.js';
import { toStopWhen } from '../../src/index.js';
import type { GuardOptions, LoopWarning, StopVerdict } from '../../src/index.js';
import { scriptedModel, type MastraTurn } from './mastra-model.js';

const WARNING = 'Calling it again will not tell you anything new';
const REFUSAL = 'Not run: this would be call number 3 in a row to search';

/** Tools that count how often their body really ran. */
function countedTools() {
  const runs = { search: 0, read: 0 };
  const search = createTool({
    id: 'search',
    description: 'Search the web.',
    inputSchema: z.object({ query: z.string() }),
    execute: ({ query }) => {
      runs.search++;
      return Promise.resolve(`No results for ${query}.`);
    },
  });
  const read = createTool({
    id: 'read',
    description: 'Read a page.',
    inputSchema: z.object({ page: z.number() }),
    execute: ({ page }) => {
      runs.read++;
      return Promise.resolve(`Page ${String(page)}: the answer is 42.`);
    },
  });
  return { runs, tools: { search, read } };
}

/**
 * A model that searches for the same thing; with `listens`, it reads a page and answers once the guard has spoken up
 * (a warning or a refusal is in its prompt).
 */
function searcher(listens: boolean) {
  return scriptedModel((prompt, index): MastraTurn => {
    if (listens && (prompt.includes(WARNING) || prompt.includes('Not run:'))) {
      return prompt.includes('Page 1') ? { text: 'The answer is 42.' } : { calls: [{ id: `read-${String(index)}`, name: 'read', input: { page: 1 } }] };
    }
    return { text: `Attempt ${String(index)}: searching.`, calls: [{ id: `search-${String(index)}`, name: 'search', input: { query: 'agent loops' } }] };
  });
}

function agentWith(model: ReturnType<typeof scriptedModel>['model'], tools: ReturnType<typeof countedTools>['tools']) {
  return new Agent({ id: 'researcher', name: 'researcher', instructions: 'Find it.', model, tools });
}

interface Observed {
  readonly stops: StopVerdict[];
  readonly warnings: LoopWarning[][];
  readonly blocks: CallRefusal[];
}

function observedGuard(options: GuardOptions = {}) {
  const observed: Observed = { stops: [], warnings: [], blocks: [] };
  const loop = toMastraOptions(options, {
    onStop: (verdict) => observed.stops.push(verdict),
    onWarning: (warnings) => observed.warnings.push([...warnings]),
    onBlock: (refusal) => observed.blocks.push(refusal),
  });
  return { observed, loop };
}

describe('toMastraOptions in agent.generate()', () => {
  it('warns the model, refuses the call that would complete the repeat, and stops a model that persists', async () => {
    const { runs, tools } = countedTools();
    const { observed, loop } = observedGuard();
    const { model, prompts } = searcher(false);

    const requestContext = new RequestContext();
    const result = await agentWith(model, tools).generate('Find it.', { ...loop, maxSteps: 20, requestContext });

    // Two searches ran; the third and fourth were refused before they ran, and the fourth stopped the run.
    expect(runs.search).toBe(2);
    expect(prompts).toHaveLength(4);
    expect(result.steps).toHaveLength(4);
    expect(observed.blocks.map((block) => block.code)).toEqual(['REPEATED_TOOL_CALL', 'REPEATED_TOOL_CALL']);
    expect(observed.stops).toHaveLength(1);
    expect(observed.stops[0]).toMatchObject({ stop: true, reason: 'repeated-tool-call', code: 'REPEATED_TOOL_CALL', evidence: { count: 3, tool: 'search' } });
    // The run ended with a tripwire that carries the verdict, before a fifth model call.
    expect(result.finishReason).toBe('other');
    expect(result.tripwire).toEqual({ reason: `Stopped by agent-loopguard [REPEATED_TOOL_CALL]: ${String(observed.stops[0]?.detail)}`, metadata: observed.stops[0], processorId: 'prepare-step' });
    expect(loop.verdictOf(result)).toBe(observed.stops[0]);
    expect(loop.verdictOf(requestContext)).toBe(observed.stops[0]);
    // The warning after the second search was in the third model call's prompt (as a system message), and the model
    // read the refusal as the refused call's output.
    expect(prompts[1]).not.toContain(WARNING);
    expect(JSON.parse(prompts[2] ?? '')).toContainEqual({ role: 'system', content: expect.stringMatching(/^You have called search 2 times in a row/) as string });
    expect(observed.warnings).toHaveLength(1);
    expect(observed.warnings[0]?.[0]).toMatchObject({ code: 'LOOP_WARNING', reason: 'repeated-tool-call' });
    expect(prompts[3]).toContain(REFUSAL);
    // The guard recorded the refused calls as refused, never with the refusal as their result.
    const guard = loop.guardOf(requestContext);
    expect(guard?.history.map((step) => step.toolCalls?.map((call) => (call.blocked === true ? 'blocked' : call.result)))).toEqual([
      [{ type: 'text', value: 'No results for agent loops.' }],
      [{ type: 'text', value: 'No results for agent loops.' }],
      ['blocked'],
      ['blocked'],
    ]);
    expect(guard?.history.map((step) => step.text)).toEqual(['Attempt 0: searching.', 'Attempt 1: searching.', 'Attempt 2: searching.', 'Attempt 3: searching.']);
    expect(guard?.history[0]).toMatchObject({ text: 'Attempt 0: searching.', finishReason: 'tool-calls', usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } });
  });

  it('in agent.stream() too: the same refusals, and the stop as a tripwire chunk that carries the verdict', async () => {
    const { runs, tools } = countedTools();
    const { observed, loop } = observedGuard();
    const { model, prompts } = searcher(false);

    const stream = await agentWith(model, tools).stream('Find it.', { ...loop, maxSteps: 20 });
    const tripwires: unknown[] = [];
    for await (const chunk of stream.fullStream) if (chunk.type === 'tripwire') tripwires.push(chunk.payload);

    expect(runs.search).toBe(2);
    expect(prompts).toHaveLength(4);
    expect(observed.blocks.map((block) => block.code)).toEqual(['REPEATED_TOOL_CALL', 'REPEATED_TOOL_CALL']);
    expect(observed.stops).toHaveLength(1);
    expect(tripwires).toEqual([expect.objectContaining({ reason: expect.stringMatching(/^Stopped by agent-loopguard \[REPEATED_TOOL_CALL\]/) as string, metadata: observed.stops[0] })]);
    expect(await stream.finishReason).toBe('other');
  });

  it('lets a model that changes course after the warning finish normally, without a refusal or a stop', async () => {
    const { runs, tools } = countedTools();
    const { observed, loop } = observedGuard();

    const result = await agentWith(searcher(true).model, tools).generate('Find it.', { ...loop, maxSteps: 20 });

    // Mastra's text is that of every step; the answer is the last step's.
    expect(result.steps.at(-1)?.text).toBe('The answer is 42.');
    expect(runs).toEqual({ search: 2, read: 1 });
    expect(observed.warnings).toHaveLength(1);
    expect(observed.blocks).toEqual([]);
    expect(observed.stops).toEqual([]);
    expect(result.tripwire).toBeUndefined();
    expect(loop.verdictOf(result)).toBeUndefined();
  });

  it('leaves a healthy run untouched: no warning, no call refused', async () => {
    const { runs, tools } = countedTools();
    const { observed, loop } = observedGuard();
    const script: MastraTurn[] = [
      { calls: [{ id: 'a', name: 'search', input: { query: 'agent loops' } }] },
      { calls: [{ id: 'b', name: 'read', input: { page: 1 } }] },
      { text: 'The answer is 42.' },
    ];
    const { model, prompts } = scriptedModel((_prompt, index) => script[index] ?? { text: 'unexpected' });

    const requestContext = new RequestContext();
    const result = await agentWith(model, tools).generate('Find it.', { ...loop, maxSteps: 20, requestContext });

    expect(result.text).toBe('The answer is 42.');
    expect(runs).toEqual({ search: 1, read: 1 });
    expect(prompts).toHaveLength(3);
    expect(observed).toEqual({ stops: [], warnings: [], blocks: [] });
    expect(loop.guardOf(requestContext)?.history).toHaveLength(2);
  });

  it('keeps two runs at once apart with one options object', async () => {
    const looping = countedTools();
    const healthy = countedTools();
    const { observed, loop } = observedGuard();

    const [stopped, finished] = await Promise.all([
      agentWith(searcher(false).model, looping.tools).generate('Find it.', { ...loop, maxSteps: 20 }),
      agentWith(searcher(true).model, healthy.tools).generate('Find it.', { ...loop, maxSteps: 20 }),
    ]);

    expect(loop.verdictOf(stopped)?.code).toBe('REPEATED_TOOL_CALL');
    expect(loop.verdictOf(finished)).toBeUndefined();
    expect(observed.stops).toHaveLength(1);
    expect(stopped.finishReason).toBe('other');
    expect(finished.steps.at(-1)?.text).toBe('The answer is 42.');
    expect(looping.runs.search).toBe(2);
    expect(healthy.runs).toEqual({ search: 2, read: 1 });
  });
});

describe('toMastraOptions given one requestContext for two runs at once', () => {
  it('rejects one of them with the TypeError that names the fix, rather than mixing them', async () => {
    const { tools } = countedTools();
    const { model } = scriptedModel((_prompt, index) => (index > 12 ? { text: 'Done.' } : { calls: [{ id: `call-${String(index)}`, name: 'read', input: { page: index } }] }));
    const { loop } = observedGuard();
    const requestContext = new RequestContext();
    const agent = agentWith(model, tools);

    const results = await Promise.allSettled([agent.generate('Read.', { ...loop, maxSteps: 20, requestContext }), agent.generate('Read.', { ...loop, maxSteps: 20, requestContext })]);

    const rejected = results.filter((result) => result.status === 'rejected');
    expect(rejected).toHaveLength(1);
    // Mastra passes the error on as a copy of its own (an Error named TypeError, with a toJSON): compared by name and message.
    expect(rejected[0]?.reason).toMatchObject({
      name: 'TypeError',
      message:
        'agent-loopguard: toMastraOptions was handed, under one requestContext, steps that are not those of the run it recorded there: two runs at once share one requestContext. Give each generate() or stream() its own (Mastra makes one per run when none is passed).',
    });
  });
});

describe('toStopWhen in agent.generate()', () => {
  it('stops a looping run by itself, unchanged: the third identical call runs, and the run ends after it', async () => {
    const { runs, tools } = countedTools();
    const stops: StopVerdict[] = [];
    const { model, prompts } = searcher(false);

    // Made apart from the options: written inside them, TypeScript infers a step type from Mastra's two StopCondition types.
    const stopWhen = toStopWhen({}, { onStop: (verdict) => stops.push(verdict) });

    const result = await agentWith(model, tools).generate('Find it.', { stopWhen, maxSteps: 20 });

    expect(runs.search).toBe(3);
    expect(prompts).toHaveLength(3);
    expect(result.steps).toHaveLength(3);
    expect(stops).toHaveLength(1);
    expect(stops[0]).toMatchObject({ reason: 'repeated-tool-call', code: 'REPEATED_TOOL_CALL', evidence: { count: 3, stepIndexes: [0, 1, 2] } });
  });
});
