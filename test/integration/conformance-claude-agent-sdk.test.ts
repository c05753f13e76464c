/**
 * The Claude Agent SDK's conformance: one `toClaudeHooks` object serves every run of a group, each run a `query()`
 * that spawns the bundled Claude Code CLI against a fake Messages API on 127.0.0.1 (no network, no key), which plays
 * the script named in the run's prompt. Runs are told apart by their `session_id`, as the hooks tell them apart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSdkMcpServer, query, tool, type Options } from '@anthropic-ai/claude-agent-sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toClaudeHooks, type ClaudeLoopGuardHooks, type ClaudeSessionKey } from '../../src/adapters/claude-agent-sdk.js';
import { isFault } from '../../src/index.js';
import { offlineCliEnvironment, startFakeApi, type FakeApi, type FakeRequest, type FakeTurn } from '../../examples/support/fake-anthropic-api.js';
import { callId, conformance, LOOPING, SCRIPTS, type IdPolicy, type Observed, type Script } from './conformance.js';

const PREFIX = 'mcp__loop__';
const scratch = mkdtempSync(join(tmpdir(), 'agent-loopguard-conformance-claude-'));
const apis: Promise<FakeApi>[] = [];
afterAll(async () => {
  for (const api of apis) await (await api).close();
  rmSync(scratch, { recursive: true, force: true });
});

/** What one run showed, found by its session. */
interface Seen {
  readonly warnings: string[];
  readonly refused: string[];
  readonly ran: string[];
  sessionId?: string;
}

interface Shared {
  readonly hooks: ClaudeLoopGuardHooks;
  readonly api: Promise<FakeApi>;
  readonly sessions: Map<string, Seen>;
}

/** The text of a message's content, whether a string or blocks. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((block: { text?: unknown }) => (typeof block.text === 'string' ? block.text : '')).join('') : '';
}

/** The fake model: the script and ids named in the prompt, at the turn given by the assistant messages so far. */
function decide(body: FakeRequest['body']): FakeTurn {
  const messages = (body.messages ?? []) as readonly { role?: string; content?: unknown }[];
  const prompt = /\{"script".*\}/.exec(textOf(messages[0]?.content))?.[0] ?? '{}';
  const { script, ids } = JSON.parse(prompt) as { script?: string; ids?: IdPolicy };
  const turn = messages.filter((message) => message.role === 'assistant').length;
  const step = SCRIPTS.find((candidate) => candidate.name === script)?.turns[turn] ?? { text: 'out of script' };
  if ('text' in step) return { text: step.text };
  // Claude Code matches each result to its call by id: a missing one is sent empty.
  return { toolUses: step.calls.map((call, position) => ({ id: callId(ids ?? 'unique', turn, position) ?? '', name: `${PREFIX}${call.name}`, input: call.args })) };
}

function create(): Shared {
  const sessions = new Map<string, Seen>();
  const seen = (session: ClaudeSessionKey) => sessions.get(session.sessionId);
  // The turn a callback fires in: the batches the session's guard has recorded so far.
  const turnOf = (session: ClaudeSessionKey) => String(hooks.guardFor(session.sessionId)?.history.length ?? 0);
  const hooks = toClaudeHooks(
    { maxSteps: 20 },
    {
      onWarning: (warnings, session) => {
        for (const warning of warnings) seen(session)?.warnings.push(`${turnOf(session)}:${warning.reason}`);
      },
      onBlock: (_refusal, call, session) => {
        seen(session)?.refused.push(`${turnOf(session)}:${String(call.tool_name).slice(PREFIX.length)}`);
      },
    },
  );
  const api = startFakeApi(`${PREFIX}search`, decide);
  apis.push(api);
  return { hooks, api, sessions };
}

async function run(shared: Shared, script: Script, ids: IdPolicy): Promise<Observed> {
  const record: Seen = { warnings: [], refused: [], ran: [] };
  const ran = (name: string) => () => {
    const sessionId = record.sessionId ?? '';
    record.ran.push(`${String(shared.hooks.guardFor(sessionId)?.history.length ?? 0)}:${name}`);
    return Promise.resolve({ content: [{ type: 'text' as const, text: `${name} result` }] });
  };
  const server = createSdkMcpServer({
    name: 'loop',
    version: '1.0.0',
    tools: [tool('search', 'Search.', { query: z.string() }, ran('search')), tool('read', 'Read a file.', { path: z.string() }, ran('read'))],
  });
  const api = await shared.api;
  const options: Options = {
    cwd: scratch,
    model: 'claude-sonnet-4-5',
    mcpServers: { loop: server },
    tools: [],
    allowedTools: [`${PREFIX}search`, `${PREFIX}read`],
    maxTurns: 20,
    persistSession: false,
    settingSources: [],
    hooks: shared.hooks,
    env: offlineCliEnvironment(api, scratch),
  };
  let sessionId: string | undefined;
  for await (const message of query({ prompt: `Follow the script. ${JSON.stringify({ script: script.name, ids })}`, options })) {
    // The session's first message names it, before any model call: from then on the hooks' callbacks find the run.
    if (sessionId === undefined && typeof message.session_id === 'string') {
      sessionId = message.session_id;
      record.sessionId = message.session_id;
      shared.sessions.set(message.session_id, record);
    }
  }
  const verdict = sessionId === undefined ? undefined : shared.hooks.verdictFor(sessionId);
  const { warnings, refused } = record;
  return { warnings, refused, ran: record.ran, stopCode: verdict !== undefined && isFault(verdict) ? verdict.code : undefined };
}

/**
 * Unique and reused ids: Claude Code runs no call without an id (asserted below), so the missing policy cannot show
 * the same runs.
 */
conformance<Shared>({ name: 'the Claude Agent SDK (toClaudeHooks, the bundled CLI, a fake API)', idPolicies: ['unique', 'reused'], create, run });

describe('the Claude Agent SDK with calls without an id', () => {
  it('runs none of them, fires no PreToolUse for them, and the guard still stops the loop from the batches it records', async () => {
    const shared = create();
    const observed = await run(shared, LOOPING, 'missing');
    expect(observed).toEqual({ warnings: ['2:repeated-tool-call'], refused: [], ran: [], stopCode: 'REPEATED_TOOL_CALL' });
    const [sessionId] = [...shared.sessions.keys()];
    const steps = shared.hooks.guardFor(sessionId ?? '')?.history ?? [];
    // Claude Code answers each such call itself, with the same text: three identical calls, three identical answers.
    expect(steps).toHaveLength(3);
    for (const step of steps) {
      expect(step.toolCalls).toEqual([{ name: `${PREFIX}search`, args: { query: 'agent loops' }, result: expect.stringContaining('this call did not run') as string }]);
    }
  }, 60_000);
});
