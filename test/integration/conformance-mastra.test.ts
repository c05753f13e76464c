/**
 * Mastra's conformance: `toMastraOptions` in a real Mastra agent (`@mastra/core`, its offline
 * `MastraLanguageModelV2Mock`), one agent with one model and its tools serving every run; each run is told apart by
 * its prompt (`run <n>`), as a real model would only see its own conversation.
 *
 * One `toMastraOptions` object serves runs in a row (checked below for every script and id policy). Runs at once each
 * need their own: Mastra hands `stopWhen` only the steps and `beforeToolCall` only the call and its context, with
 * nothing in common that tells which run a step belongs to (docs/integrations/mastra.md says so), so the suite's runs,
 * in a row and at once, each spread `toMastraOptions(options)` made for them.
 */
import { Agent } from '@mastra/core/agent';
import { RequestContext } from '@mastra/core/request-context';
import { createTool } from '@mastra/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toMastraOptions, type MastraLoopGuard } from '../../src/adapters/mastra.js';
import { isFault, type GuardOptions } from '../../src/index.js';
import { callId, conformance, ID_POLICIES, LOOPING, SCRIPTS, type IdPolicy, type Observed, type Script } from './conformance.js';
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
    // The model is called once a turn (the prompt cannot tell: Mastra adds its feedback, and a skipped call's output,
    // in messages of their own).
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
  return { agent, runs, next: 0 };
}

/** One run through the agent with `loop`, made for it or shared by runs in a row (then `record` is set per run). */
async function run(shared: Shared, script: Script, ids: IdPolicy, loopFor: (record: () => RunRecord) => MastraLoopGuard): Promise<Observed> {
  const id = String(shared.next++);
  const record: RunRecord = { script, ids, turn: -1, warnings: [], refused: [], ran: [] };
  shared.runs.set(id, record);
  const loop = loopFor(() => record);
  const requestContext = new RequestContext();
  requestContext.set('run', id);
  await shared.agent.generate(`This is run ${id}.`, { ...loop, maxSteps: 20, requestContext });
  const stop = loop.verdict();
  return { warnings: record.warnings, refused: record.refused, ran: record.ran, stopCode: stop !== undefined && isFault(stop) ? stop.code : undefined };
}

/** A loop whose callbacks report to the run `current` returns. */
function observedLoop(current: () => RunRecord): MastraLoopGuard {
  const loop: MastraLoopGuard = toMastraOptions(OPTIONS, {
    onWarning: (warnings) => {
      for (const warning of warnings) current().warnings.push(`${String(loop.guard.summary().steps)}:${warning.reason}`);
    },
    onBlock: (_refusal, call) => current().refused.push(`${String(current().turn)}:${String(call.toolName)}`),
  });
  return loop;
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

conformance<Shared>({
  name: 'Mastra (toMastraOptions, one per run)',
  create,
  run: (shared, script, ids) => run(shared, script, ids, observedLoop),
  expected,
});

describe('Mastra: one toMastraOptions object serving runs in a row', () => {
  for (const ids of ID_POLICIES) {
    it(`with ${ids} call ids: every script, three times each, as the reference loop`, async () => {
      const shared = create();
      let current: RunRecord | undefined;
      const loop = observedLoop(() => {
        if (current === undefined) throw new Error('no run in progress');
        return current;
      });
      for (const script of SCRIPTS) {
        for (let round = 0; round < 3; round++) {
          const observed = await run(shared, script, ids, (record) => {
            current = record();
            return loop;
          });
          expect(observed, `${script.name}, run ${String(round + 1)} in a row`).toEqual(expected(script, ids) ?? script.expected);
        }
      }
    }, 120_000);
  }
});
