/**
 * loopGuardForAgents inside the real OpenAI Agents SDK (the exact `@openai/agents` version in package.json) with a small
 * offline `Model`: the warning reaches the model, the call that would complete a loop never runs, a model that
 * persists is stopped with the verdict available to the caller, and a healthy run is left alone. CI runs this file on
 * the machine's Node and on Node 22.
 */
import { Agent, run, setTracingDisabled, tool, ToolCallError } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loopGuardForAgents, type AgentsRunContextLike, type CallRefusal } from '../../src/adapters/openai-agents.js';
import type { GuardOptions, LoopWarning, StopVerdict } from '../../src/index.js';
import { ScriptedModel, type AgentsTurn } from './agents-model.js';

setTracingDisabled(true);

const WARNING = 'Calling it again will not tell you anything new';
const REFUSAL = 'Not run: this would be call number 3 in a row to search';

/** Tools that count how often their body really ran. */
function countedTools() {
  const runs = { search: 0, read: 0 };
  const search = tool({
    name: 'search',
    description: 'Search the web.',
    parameters: z.object({ query: z.string() }),
    execute: ({ query }) => {
      runs.search++;
      return `No results for ${query}.`;
    },
  });
  const read = tool({
    name: 'read',
    description: 'Read a page.',
    parameters: z.object({ page: z.number() }),
    execute: ({ page }) => {
      runs.read++;
      return `Page ${String(page)}: the answer is 42.`;
    },
  });
  return { runs, search, read };
}

/**
 * A model that searches for the same thing; with `listens`, it reads a page and answers once the guard has spoken up
 * (the warning is in one model call's input only, so it remembers).
 */
function searcher(listens: boolean): ScriptedModel {
  let told = false;
  return new ScriptedModel((input, index): AgentsTurn => {
    const seen = JSON.stringify(input);
    told ||= seen.includes(WARNING) || seen.includes('Not run:');
    if (listens && told) {
      return seen.includes('Page 1') ? { text: 'The answer is 42.' } : { text: 'Reading instead.', calls: [{ id: `read-${String(index)}`, name: 'read', input: { page: 1 } }] };
    }
    return { text: `Attempt ${String(index)}: searching.`, calls: [{ id: `search-${String(index)}`, name: 'search', input: { query: 'agent loops' } }] };
  });
}

interface Observed {
  readonly stops: StopVerdict[];
  readonly warnings: LoopWarning[][];
  readonly blocks: CallRefusal[];
  readonly contexts: AgentsRunContextLike[];
}

function observedGuard(throwOnBlock = false, options: GuardOptions = {}) {
  const observed: Observed = { stops: [], warnings: [], blocks: [], contexts: [] };
  const loop = loopGuardForAgents(
    options,
    {
      onStop: (verdict, runContext) => {
        observed.stops.push(verdict);
        observed.contexts.push(runContext);
      },
      onWarning: (warnings) => observed.warnings.push([...warnings]),
      onBlock: (refusal) => observed.blocks.push(refusal),
      throwOnBlock,
    },
  );
  return { observed, loop };
}

describe('loopGuardForAgents in run()', () => {
  it('warns the model, refuses the call that would complete the repeat, and stops a model that persists', async () => {
    const { runs, search, read } = countedTools();
    // The SDK shows toolUseBehavior no text, so with the defaults `noProgress` (three turns in a row with nothing new)
    // stops this run at the same turn, first in priority; switched off, the persisting refusal is what stops it.
    const { observed, loop } = observedGuard(false, { noProgress: false });
    const model = searcher(false);
    const agent = loop.guardAgent(new Agent({ name: 'researcher', instructions: 'Find it.', model, tools: [search, read] }));

    const result = await run(agent, 'Find it.', { callModelInputFilter: loop.callModelInputFilter, maxTurns: 20 });

    // Two searches ran; the third and fourth were refused before they ran, and the fourth stopped the run.
    expect(runs.search).toBe(2);
    expect(model.requests).toHaveLength(4);
    expect(observed.blocks.map((block) => block.code)).toEqual(['REPEATED_TOOL_CALL', 'REPEATED_TOOL_CALL']);
    expect(observed.stops).toHaveLength(1);
    expect(observed.stops[0]).toMatchObject({ stop: true, reason: 'repeated-tool-call', code: 'REPEATED_TOOL_CALL', evidence: { count: 3, tool: 'search' } });
    // The caller gets the verdict: from what run() returned, and as its final output.
    expect(loop.verdictOf(result)).toBe(observed.stops[0]);
    expect(loop.verdictOf(observed.contexts[0])).toBe(observed.stops[0]);
    expect(result.finalOutput).toBe(`Stopped by agent-loopguard [REPEATED_TOOL_CALL]: ${observed.stops[0]?.detail ?? ''}`);
    // The warning after the second search was in the input of the third model call, and only there.
    const inputs = model.inputs();
    expect(inputs[1]).not.toContain(WARNING);
    expect(inputs[2]).toContain('You have called search 2 times in a row');
    expect(inputs[3]).not.toContain(WARNING);
    expect(observed.warnings[0]?.[0]).toMatchObject({ code: 'LOOP_WARNING', reason: 'repeated-tool-call' });
    // The model read why its call was refused, as the refused call's result.
    expect(inputs[3]).toContain(REFUSAL);
    // The SDK reports the refusal as the call's output (and fires agent_tool_end with it); the guard recorded a
    // refused call, never a result.
    const history = loop.guardOf(result)?.history ?? [];
    expect(history.map((step) => step.toolCalls?.map((call) => (call.blocked === true ? 'blocked' : call.result)))).toEqual([
      ['No results for agent loops.'],
      ['No results for agent loops.'],
      ['blocked'],
      ['blocked'],
    ]);
    expect(history[0]?.usage).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
  });

  it('stops the same run at the same turn with the default options, as a repeat, with the code every integration gives', async () => {
    const { runs, search, read } = countedTools();
    const { observed, loop } = observedGuard();
    const model = searcher(false);
    const agent = loop.guardAgent(new Agent({ name: 'researcher', model, tools: [search, read] }));

    const result = await run(agent, 'Find it.', { callModelInputFilter: loop.callModelInputFilter });

    expect(runs.search).toBe(2);
    expect(model.requests).toHaveLength(4);
    expect(observed.blocks).toHaveLength(2);
    // The fourth search was asked for after the third was refused: the repeat ends the run, as through toStopWhen.
    expect(loop.verdictOf(result)).toMatchObject({
      reason: 'repeated-tool-call',
      code: 'REPEATED_TOOL_CALL',
      evidence: { tool: 'search', count: 3, threshold: 3, stepIndexes: [0, 1, 3], identicalResults: true },
    });
  });

  it('lets a model that changes course after the warning finish normally, without a refusal or a stop', async () => {
    const { runs, search, read } = countedTools();
    const { observed, loop } = observedGuard();
    const agent = loop.guardAgent(new Agent({ name: 'researcher', model: searcher(true), tools: [search, read] }));

    const result = await run(agent, 'Find it.', { callModelInputFilter: loop.callModelInputFilter });

    expect(result.finalOutput).toBe('The answer is 42.');
    expect(runs).toEqual({ search: 2, read: 1 });
    expect(observed.blocks).toEqual([]);
    expect(observed.stops).toEqual([]);
    expect(loop.verdictOf(result)).toBeUndefined();
  });

  it('sees no warning, no refusal and no stop in a healthy run', async () => {
    const { runs, search, read } = countedTools();
    const { observed, loop } = observedGuard();
    const model = new ScriptedModel((_input, index): AgentsTurn =>
      index < 3 ? { text: `Step ${String(index)}`, calls: [{ id: `read-${String(index)}`, name: 'read', input: { page: index } }] } : { text: 'Done.' },
    );
    const agent = loop.guardAgent(new Agent({ name: 'reader', model, tools: [search, read] }));

    const result = await run(agent, 'Read three pages.', { callModelInputFilter: loop.callModelInputFilter });

    expect(result.finalOutput).toBe('Done.');
    expect(runs.read).toBe(3);
    expect(observed).toEqual({ stops: [], warnings: [], blocks: [], contexts: [] });
    expect(model.inputs().join('')).not.toContain('agent-loopguard');
    expect(model.inputs().join('')).not.toMatch(/in a row|Not run/);
    expect(loop.guardOf(result)?.history).toHaveLength(3);
  });

  it('keeps runs apart: two runs of one agent at once are each stopped on their own', async () => {
    const { runs, search, read } = countedTools();
    const { observed, loop } = observedGuard(false, { noProgress: false });
    const agent = loop.guardAgent(new Agent({ name: 'researcher', model: searcher(false), tools: [search, read] }));
    const other = agent.clone({ model: searcher(false) });

    const [first, second] = await Promise.all([
      run(agent, 'Find it.', { callModelInputFilter: loop.callModelInputFilter }),
      run(other, 'Find it too.', { callModelInputFilter: loop.callModelInputFilter }),
    ]);

    expect(runs.search).toBe(4);
    expect(observed.stops).toHaveLength(2);
    expect(loop.verdictOf(first)).toMatchObject({ code: 'REPEATED_TOOL_CALL', evidence: { count: 3 } });
    expect(loop.verdictOf(second)).toMatchObject({ code: 'REPEATED_TOOL_CALL', evidence: { count: 3 } });
    expect(loop.guardOf(first)).not.toBe(loop.guardOf(second));
    expect(loop.guardOf(first)?.history).toHaveLength(4);
  });

  it('with throwOnBlock, makes run() throw the SDK ToolCallError at the first refusal, the verdict travelling with it', async () => {
    const { runs, search, read } = countedTools();
    const { observed, loop } = observedGuard(true);
    const model = searcher(false);
    const agent = loop.guardAgent(new Agent({ name: 'researcher', model, tools: [search, read] }));

    const error: unknown = await run(agent, 'Find it.', { callModelInputFilter: loop.callModelInputFilter }).catch((thrown: unknown) => thrown);

    expect(error).toBeInstanceOf(ToolCallError);
    expect(runs.search).toBe(2);
    expect(model.requests).toHaveLength(3);
    expect(observed.stops).toEqual([expect.objectContaining({ stop: true, code: 'REPEATED_TOOL_CALL' })]);
    expect(loop.verdictOf(error)).toBe(observed.stops[0]);
    expect((error as ToolCallError).error).toMatchObject({ result: { output: { behavior: { type: 'throwException' }, outputInfo: observed.stops[0] } } });
  });
});

describe('loopGuardForAgents across agents and tools', () => {
  it('wires the agents a handoff leads to, so a loop after the handoff is stopped too', async () => {
    const { runs, search, read } = countedTools();
    const { observed, loop } = observedGuard(false, { noProgress: false });
    const specialist = new Agent({ name: 'specialist', model: searcher(false), tools: [search, read] });
    const triage = new Agent({
      name: 'triage',
      model: new ScriptedModel(() => ({ calls: [{ id: 'handoff-1', name: 'transfer_to_specialist', input: {} }] })),
      handoffs: [specialist],
    });
    loop.guardAgent(triage);

    const result = await run(triage, 'Find it.', { callModelInputFilter: loop.callModelInputFilter });

    expect(result.lastAgent?.name).toBe('specialist');
    expect(runs.search).toBe(2);
    expect(observed.stops).toHaveLength(1);
    expect(loop.verdictOf(result)).toMatchObject({ code: 'REPEATED_TOOL_CALL' });
  });

  it('judges calls of a tool without the guardrail from the arguments the agent reports, and keeps an existing toolUseBehavior', async () => {
    const { runs, search } = countedTools();
    const { observed, loop } = observedGuard();
    const behaviour: string[] = [];
    const agent = new Agent({
      name: 'researcher',
      model: searcher(false),
      toolUseBehavior: () => {
        behaviour.push('theirs');
        return { isFinalOutput: false, isInterrupted: undefined };
      },
    });
    loop.guardAgent(agent);
    // Added after wiring, as an MCP server's tools are: no guardrail, so no refusal, but the repeat is still seen.
    agent.tools.push(search);

    const result = await run(agent, 'Find it.', { callModelInputFilter: loop.callModelInputFilter });

    expect(search.inputGuardrails ?? []).toEqual([]);
    expect(runs.search).toBe(3);
    expect(observed.blocks).toEqual([]);
    expect(loop.verdictOf(result)).toMatchObject({ code: 'REPEATED_TOOL_CALL', evidence: { count: 3, argsPreview: '{"query":"agent loops"}' } });
    // Their function ran after the guard's on the turns the guard let go on, not on the one it stopped.
    expect(behaviour).toEqual(['theirs', 'theirs']);
  });

  it('counts a call once when the SDK runs its guardrails before and after an approval, across the resumed run', async () => {
    const { observed, loop } = observedGuard();
    let runs = 0;
    const search = tool({
      name: 'search',
      description: 'Search the web.',
      parameters: z.object({ query: z.string() }),
      needsApproval: true,
      execute: ({ query }) => {
        runs++;
        return `No results for ${query}.`;
      },
    });
    const model = new ScriptedModel((_input, index): AgentsTurn =>
      index < 2 ? { calls: [{ id: `search-${String(index)}`, name: 'search', input: { query: 'agent loops' } }] } : { text: 'Nothing found.' },
    );
    const agent = loop.guardAgent(new Agent({ name: 'careful', model, tools: [search] }));
    const options = { callModelInputFilter: loop.callModelInputFilter, toolExecution: { preApprovalInputGuardrails: true } };

    let result = await run(agent, 'Find it.', options);
    let approvals = 0;
    while (result.interruptions.length > 0) {
      for (const interruption of result.interruptions) result.state.approve(interruption);
      approvals++;
      result = await run(agent, result.state, options);
    }

    // Judged twice each (before and after its approval), the second identical call is still only the second.
    expect(approvals).toBe(2);
    expect(runs).toBe(2);
    expect(result.finalOutput).toBe('Nothing found.');
    expect(observed.blocks).toEqual([]);
    expect(observed.warnings).toHaveLength(1);
    expect(loop.guardOf(result)?.history).toHaveLength(2);
  });

  it('refuses to wire an agent whose toolUseBehavior it cannot take the place of', () => {
    const { loop } = observedGuard();
    expect(() => loop.guardAgent(new Agent({ name: 'first', toolUseBehavior: 'stop_on_first_tool' }))).toThrow(/stop_on_first_tool/);
    expect(() => loop.guardAgent(new Agent({ name: 'named', toolUseBehavior: { stopAtToolNames: ['search'] } }))).toThrow(TypeError);
  });
});
