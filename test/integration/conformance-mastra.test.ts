/**
 * Mastra's conformance: `toMastraOptions` in a real Mastra agent (`@mastra/core`, its offline
 * `MastraLanguageModelV2Mock`), one agent with one model and its tools serving every run; each run is told apart by
 * its prompt (`run <n>`), as a real model would only see its own conversation.
 *
 * One `toMastraOptions` object serves every run of a group, in a row and at once: its hooks know a run by the
 * `requestContext` Mastra hands both of them, and so do the callbacks here.
 */
import { Agent } from '@mastra/core/agent';
import { RequestContext } from '@mastra/core/request-context';
import { createTool } from '@mastra/core/tools';
import { expect } from 'vitest';
import { z } from 'zod';
import { toMastraOptions, type MastraLoopGuard } from '../../src/adapters/mastra.js';
import { isFault, type GuardOptions } from '../../src/index.js';
import { callId, conformance, LOOPING, type IdPolicy, type Observed, type Script } from './conformance.js';
import { scriptedModel } from './mastra-model.js';

const OPTIONS: GuardOptions = { maxSteps: 20 };

/** What one run is seen to do, filled in by the shared model and tools and the run's callbacks. */
interface RunRecord {
  readonly script: Script;
  readonly ids: IdPolicy;
  /** The turn the model answered last (-1 before the first): the tools run within it. */
  turn: number;
  readonly warnings: string[];
  readonly refused: string[];
  readonly ran: string[];
}

interface Shared {
  readonly agent: Agent;
  readonly loop: MastraLoopGuard;
  readonly runs: Map<string, RunRecord>;
  next: number;
}

function runOf(runs: Map<string, RunRecord>, text: string): RunRecord {
  const record = runs.get(/run (\d+)/.exec(text)?.[1] ?? '');
  if (record === undefined) throw new Error(`No run is recorded for ${text.slice(0, 200)}.`);
  return record;
}

function create(): Shared {
  const runs = new Map<string, RunRecord>();
  const { model } = scriptedModel((prompt) => {
    const record = runOf(runs, prompt);
    // The model is called once a turn (the prompt cannot tell: the guard's warning is a system message of its own, and
    // a skipped call's output a message of its own).
    const turn = ++record.turn;
    const scripted = record.script.turns[turn] ?? { text: 'out of script' };
    if ('text' in scripted) return { text: scripted.text };
    return { calls: scripted.calls.map((call, position) => ({ id: callId(record.ids, turn, position) ?? '', name: call.name, input: call.args })) };
  });
  const counted = (name: string) =>
    createTool({
      id: name,
      description: `The ${name} tool.`,
      inputSchema: z.record(z.string(), z.unknown()),
      execute: (_input, context) => {
        // By the run's own request context: with an empty call id Mastra hands the tool no messages.
        const record = runOf(runs, `run ${String(context.requestContext.get('run'))}`);
        record.ran.push(`${String(record.turn)}:${name}`);
        return Promise.resolve(`${name} result`);
      },
    });
  const agent = new Agent({ id: 'conformance', name: 'conformance', instructions: 'Use the tools.', model, tools: { search: counted('search'), read: counted('read') } });
  const loop: MastraLoopGuard = toMastraOptions(OPTIONS, {
    onWarning: (warnings, requestContext) => {
      const record = runOf(runs, `run ${String((requestContext as RequestContext).get('run'))}`);
      for (const warning of warnings) record.warnings.push(`${String(loop.guardOf(requestContext)?.summary().steps)}:${warning.reason}`);
    },
    onBlock: (_refusal, call) => {
      const { requestContext } = call.context as { requestContext: RequestContext };
      const record = runOf(runs, `run ${String(requestContext.get('run'))}`);
      record.refused.push(`${String(record.turn)}:${String(call.toolName)}`);
    },
  });
  return { agent, loop, runs, next: 0 };
}

/** One run through the agent with `loop`, shared by every run of the group: the run is known by its requestContext. */
async function run(shared: Shared, script: Script, ids: IdPolicy): Promise<Observed> {
  const id = String(shared.next++);
  const record: RunRecord = { script, ids, turn: -1, warnings: [], refused: [], ran: [] };
  shared.runs.set(id, record);
  const requestContext = new RequestContext();
  requestContext.set('run', id);
  const result = await shared.agent.generate(`This is run ${id}.`, { ...shared.loop, maxSteps: 20, requestContext });
  const stop = shared.loop.verdictOf(requestContext);
  // The result says the same as the requestContext: the verdict is the tripwire's metadata.
  expect(shared.loop.verdictOf(result)).toBe(stop);
  return { warnings: record.warnings, refused: record.refused, ran: record.ran, stopCode: stop !== undefined && isFault(stop) ? stop.code : undefined };
}

/**
 * Where Mastra cannot show what the script expects. With one id reused on every turn, Mastra reports each later step's
 * call without its result (it keeps one result per call id for the whole run), so the guard sees the second search
 * as unlike the first (one got an answer, one did not) and the repeat one step later; the run then ends with the
 * script's answer, unstopped.
 */
function expected(script: Script, ids: IdPolicy): Observed | undefined {
  if (script !== LOOPING || ids !== 'reused') return undefined;
  return { warnings: ['3:repeated-tool-call', '4:no-progress'], refused: ['3:search'], ran: ['0:search', '1:search', '2:search'], stopCode: undefined };
}

conformance<Shared>({ name: 'Mastra (toMastraOptions)', create, run, expected });
