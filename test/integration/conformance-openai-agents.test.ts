/**
 * The OpenAI Agents SDK's conformance: one agent wired by one `loopGuardForAgents`, with an offline `Model` that plays
 * the script, serves every run of a group. Each run has its own `context` object, as the adapter's docs ask.
 */
import { Agent, MaxTurnsExceededError, run, setTracingDisabled, tool, Usage } from '@openai/agents';
import type { AgentOutputItem, Model, ModelRequest, ModelResponse } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loopGuardForAgents, type AgentsLoopGuard, type AgentsRunContextLike } from '../../src/adapters/openai-agents.js';
import { isFault } from '../../src/index.js';
import { callId, conformance, LOOPING, PARALLEL, SCRIPTS, type IdPolicy, type Observed, type Script } from './conformance.js';

setTracingDisabled(true);

/** What one run showed, and what it asked for: its own `context` object. */
interface RunContextValue {
  readonly script: Script;
  readonly ids: IdPolicy;
  readonly warnings: string[];
  readonly refused: string[];
  readonly ran: string[];
}

/**
 * A model that plays the script of the run it is called for: the turn is the number of model responses in its input,
 * each marked by the item id of its first call.
 */
class ScriptModel implements Model {
  getResponse(request: ModelRequest): Promise<ModelResponse> {
    const input = typeof request.input === 'string' ? [] : request.input;
    const first = input.find((item): item is { role: 'user'; content: string } => 'role' in item && item.role === 'user' && typeof item.content === 'string');
    const { script, ids } = JSON.parse(first?.content ?? '{}') as { script: string; ids: IdPolicy };
    const turn = input.filter((item) => 'type' in item && item.type === 'function_call' && 'id' in item && typeof item.id === 'string' && item.id.endsWith(':0')).length;
    const step = SCRIPTS.find((candidate) => candidate.name === script)?.turns[turn] ?? { text: 'out of script' };
    const output: AgentOutputItem[] =
      'text' in step
        ? [{ type: 'message', id: `message-${String(turn)}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text }] }]
        : step.calls.map((call, position) => ({
            type: 'function_call',
            id: `item-${String(turn)}:${String(position)}`,
            // The SDK takes a call id as a string: a missing one is empty.
            callId: callId(ids, turn, position) ?? '',
            name: call.name,
            arguments: JSON.stringify(call.args),
            status: 'completed',
          }));
    return Promise.resolve({ usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }), output, responseId: `response-${String(turn)}` });
  }

  // eslint-disable-next-line require-yield -- the runs here never stream
  async *getStreamedResponse(): AsyncIterable<never> {
    await Promise.resolve();
    throw new Error('ScriptModel does not stream');
  }
}

interface Shared {
  readonly loop: AgentsLoopGuard;
  readonly agent: Agent<RunContextValue>;
}

function valueOf(runContext: AgentsRunContextLike): RunContextValue {
  return runContext.context as RunContextValue;
}

function create(): Shared {
  // The turn a callback fires in: the steps the run's guard has recorded so far.
  const turnOf = (runContext: AgentsRunContextLike) => String(shared.loop.guardOf(runContext)?.history.length ?? 0);
  const loop = loopGuardForAgents(
    { maxSteps: 20 },
    {
      onWarning: (warnings, runContext) => {
        for (const warning of warnings) valueOf(runContext).warnings.push(`${turnOf(runContext)}:${warning.reason}`);
      },
      onBlock: (_refusal, toolCall, runContext) => {
        valueOf(runContext).refused.push(`${turnOf(runContext)}:${String(toolCall.name)}`);
      },
    },
  );
  // Records that the call ran, in the turn it ran in.
  const execute = (name: string) => (_input: unknown, runContext?: AgentsRunContextLike) => {
    if (runContext !== undefined) valueOf(runContext).ran.push(`${turnOf(runContext)}:${name}`);
    return `${name} result`;
  };
  const search = tool({ name: 'search', description: 'Search.', parameters: z.object({ query: z.string() }), execute: execute('search') });
  const read = tool({ name: 'read', description: 'Read a file.', parameters: z.object({ path: z.string() }), execute: execute('read') });
  const agent = loop.guardAgent(new Agent<RunContextValue>({ name: 'scripted', model: new ScriptModel(), tools: [search, read] }));
  const shared: Shared = { loop, agent };
  return shared;
}

async function runScript(shared: Shared, script: Script, ids: IdPolicy): Promise<Observed> {
  const context: RunContextValue = { script, ids, warnings: [], refused: [], ran: [] };
  const result = await run(shared.agent, JSON.stringify({ script: script.name, ids }), { context, callModelInputFilter: shared.loop.callModelInputFilter, maxTurns: 20 });
  const verdict = shared.loop.verdictOf(result);
  const { warnings, refused, ran } = context;
  return { warnings, refused, ran, stopCode: verdict !== undefined && isFault(verdict) ? verdict.code : undefined };
}

/**
 * Only unique ids: the SDK runs one call per call id, once in a run (a reused id's later calls never run, nor reach the
 * guard), and refuses a call without one. What it does instead is asserted below; the guardrail's own handling of
 * reused and empty ids is tested in test/adapters/openai-agents.test.ts.
 */
conformance<Shared>({ name: 'the OpenAI Agents SDK (loopGuardForAgents, an offline Model)', idPolicies: ['unique'], create, run: runScript });

describe('the OpenAI Agents SDK with ids it does not take', () => {
  it('runs a reused call id once in a run, so only the first of three identical reads runs, and no loop forms', async () => {
    const shared = create();
    const context: RunContextValue = { script: PARALLEL, ids: 'reused', warnings: [], refused: [], ran: [] };
    const result = await run(shared.agent, JSON.stringify({ script: PARALLEL.name, ids: 'reused' }), { context, callModelInputFilter: shared.loop.callModelInputFilter });
    expect(result.finalOutput).toBe('Done.');
    expect(context).toMatchObject({ warnings: [], refused: [], ran: ['0:read'] });
    expect(shared.loop.guardOf(result)?.history.map((step) => step.toolCalls)).toEqual([[{ name: 'read', args: { path: 'notes.md' }, result: 'read result' }]]);
  });

  it('never runs the later calls of a looping model that reuses its id: the run ends at the SDK’s maxTurns', async () => {
    const shared = create();
    const context: RunContextValue = { script: LOOPING, ids: 'reused', warnings: [], refused: [], ran: [] };
    const running = run(shared.agent, JSON.stringify({ script: LOOPING.name, ids: 'reused' }), { context, callModelInputFilter: shared.loop.callModelInputFilter, maxTurns: 4 });
    await expect(running).rejects.toThrow(MaxTurnsExceededError);
    expect(context).toMatchObject({ warnings: [], refused: [], ran: ['0:search'] });
  });

  it('refuses a call without an id before any tool runs', async () => {
    const shared = create();
    const context: RunContextValue = { script: LOOPING, ids: 'missing', warnings: [], refused: [], ran: [] };
    const running = run(shared.agent, JSON.stringify({ script: LOOPING.name, ids: 'missing' }), { context, callModelInputFilter: shared.loop.callModelInputFilter });
    await expect(running).rejects.toThrow(/missing a non-empty call ID/);
    expect(context).toMatchObject({ warnings: [], refused: [], ran: [] });
  });
});
