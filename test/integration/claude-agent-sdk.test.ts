/**
 * toClaudeHooks with the real Claude Agent SDK (the exact `@anthropic-ai/claude-agent-sdk` version in package.json):
 * contract tests that call the hooks through the SDK's own hook types, then full runs of `query()`, which spawns the
 * bundled Claude Code CLI, pointed at a fake Messages API on 127.0.0.1 (no network, no key). CI runs this file on the
 * machine's Node and on Node 22.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSdkMcpServer, query, tool } from '@anthropic-ai/claude-agent-sdk';
import type {
  HookCallback,
  HookCallbackMatcher,
  HookEvent,
  HookJSONOutput,
  Options,
  PostToolBatchHookInput,
  PostToolUseFailureHookInput,
  PreToolUseHookInput,
  SDKMessage,
  SDKResultMessage,
} from '@anthropic-ai/claude-agent-sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toClaudeHooks, type CallRefusal, type ClaudeLoopGuardHooks, type ClaudeSessionKey } from '../../src/adapters/claude-agent-sdk.js';
import type { GuardOptions, LoopWarning, StopVerdict } from '../../src/index.js';
import { offlineCliEnvironment, startFakeApi, type FakeRequest, type FakeTurn } from '../../examples/support/fake-anthropic-api.js';

const SEARCH = 'mcp__loop__search';
const READ = 'mcp__loop__read';
const WARNING = 'Calling it again will not tell you anything new';
const REFUSAL = 'Not run: this would be call number 3 in a row to mcp__loop__search';

interface Observed {
  readonly stops: StopVerdict[];
  readonly warnings: LoopWarning[][];
  readonly blocks: CallRefusal[];
  readonly sessions: ClaudeSessionKey[];
}

function observedHooks(options: GuardOptions = { noProgress: false }) {
  const observed: Observed = { stops: [], warnings: [], blocks: [], sessions: [] };
  const hooks = toClaudeHooks(options, {
    onStop: (verdict, session) => {
      observed.stops.push(verdict);
      observed.sessions.push(session);
    },
    onWarning: (warnings) => observed.warnings.push([...warnings]),
    onBlock: (refusal) => observed.blocks.push(refusal),
  });
  return { observed, hooks };
}

/** The hooks of one event, as the SDK types them: the SDK calls them with these exact types. */
function callbacks(hooks: ClaudeLoopGuardHooks, event: HookEvent): HookCallback[] {
  const matchers: Partial<Record<HookEvent, HookCallbackMatcher[]>> = hooks;
  return (matchers[event] ?? []).flatMap((matcher) => matcher.hooks);
}

async function fire(hooks: ClaudeLoopGuardHooks, event: HookEvent, input: PreToolUseHookInput | PostToolBatchHookInput | PostToolUseFailureHookInput): Promise<HookJSONOutput[]> {
  const signal = new AbortController().signal;
  return Promise.all(callbacks(hooks, event).map((callback) => callback(input, 'tool_use_id' in input ? input.tool_use_id : 'hook-1', { signal })));
}

const base = { session_id: 'session-1', transcript_path: '/tmp/transcript.jsonl', cwd: '/tmp' };
const pre = (id: string, input: unknown = { query: 'agent loops' }): PreToolUseHookInput => ({
  ...base,
  hook_event_name: 'PreToolUse',
  tool_name: SEARCH,
  tool_input: input,
  tool_use_id: id,
});
const batch = (calls: PostToolBatchHookInput['tool_calls']): PostToolBatchHookInput => ({ ...base, hook_event_name: 'PostToolBatch', tool_calls: calls });

describe('toClaudeHooks against the SDK hook types', () => {
  it('is the hooks option of query(), and only the three hook events are enumerable', () => {
    const { hooks } = observedHooks();
    const options: Options = { hooks };
    expect(Object.keys(options.hooks ?? {})).toEqual(['PreToolUse', 'PostToolUseFailure', 'PostToolBatch']);
    expect(JSON.parse(JSON.stringify(hooks))).toEqual({ PreToolUse: [{ hooks: [null] }], PostToolUseFailure: [{ hooks: [null] }], PostToolBatch: [{ hooks: [null] }] });
  });

  it('warns in PostToolBatch, denies the looping call in PreToolUse, and stops when the model persists', async () => {
    const { observed, hooks } = observedHooks();
    const result = (text: string) => [{ type: 'text', text }];
    const answers: HookJSONOutput[][] = [];
    for (const id of ['toolu_1', 'toolu_2']) {
      answers.push(await fire(hooks, 'PreToolUse', pre(id)));
      answers.push(await fire(hooks, 'PostToolBatch', batch([{ tool_name: SEARCH, tool_input: { query: 'agent loops' }, tool_use_id: id, tool_response: result('nothing') }])));
    }
    expect(answers).toEqual([[{}], [{}], [{}], [{ hookSpecificOutput: { hookEventName: 'PostToolBatch', additionalContext: expect.stringContaining(WARNING) as string } }]]);

    const denied = await fire(hooks, 'PreToolUse', pre('toolu_3'));
    expect(denied).toEqual([
      { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining(REFUSAL) as string } },
    ]);
    // The SDK lists the denied call in the batch with the denial as its response: recorded as refused, not as a result.
    const refusalText = 'PreToolUse:mcp__loop__search hook error: Not run: ...';
    expect(await fire(hooks, 'PostToolBatch', batch([{ tool_name: SEARCH, tool_input: { query: 'agent loops' }, tool_use_id: 'toolu_3', tool_response: refusalText }]))).toEqual([{}]);
    expect(await fire(hooks, 'PreToolUse', pre('toolu_4'))).toEqual(denied);
    const stopped = await fire(hooks, 'PostToolBatch', batch([{ tool_name: SEARCH, tool_input: { query: 'agent loops' }, tool_use_id: 'toolu_4', tool_response: refusalText }]));

    expect(stopped).toEqual([{ continue: false, stopReason: expect.stringMatching(/^Stopped by agent-loopguard \[REPEATED_TOOL_CALL\]/) as string }]);
    expect(observed.stops).toEqual([expect.objectContaining({ code: 'REPEATED_TOOL_CALL', evidence: expect.objectContaining({ count: 3 }) as object })]);
    expect(observed.sessions).toEqual([{ sessionId: 'session-1' }]);
    expect(hooks.verdictFor('session-1')).toBe(observed.stops[0]);
    expect(hooks.guardFor('session-1')?.history.map((step) => step.toolCalls?.[0]?.blocked === true)).toEqual([false, false, true, true]);
  });

  it('records a failed call with its error, as PostToolUseFailure reports it', async () => {
    const { hooks } = observedHooks();
    await fire(hooks, 'PreToolUse', pre('toolu_1'));
    const failure: PostToolUseFailureHookInput = { ...base, hook_event_name: 'PostToolUseFailure', tool_name: SEARCH, tool_input: { query: 'agent loops' }, tool_use_id: 'toolu_1', error: 'backend down' };
    expect(await fire(hooks, 'PostToolUseFailure', failure)).toEqual([{}]);
    await fire(hooks, 'PostToolBatch', batch([{ tool_name: SEARCH, tool_input: { query: 'agent loops' }, tool_use_id: 'toolu_1', tool_response: 'backend down' }]));
    expect(hooks.guardFor('session-1')?.history[0]?.toolCalls).toEqual([{ name: SEARCH, args: { query: 'agent loops' }, error: 'backend down' }]);
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// Full runs: query() spawns the bundled CLI, which talks to the fake API.

const scratch = mkdtempSync(join(tmpdir(), 'agent-loopguard-claude-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** SDK MCP tools that count how often their body really ran. */
function countedServer() {
  const runs = { search: 0, read: 0 };
  const search = tool('search', 'Search the web.', { query: z.string() }, ({ query: text }) => {
    runs.search++;
    return Promise.resolve({ content: [{ type: 'text' as const, text: `No results for ${text}.` }] });
  });
  const read = tool('read', 'Read a page.', { page: z.number() }, ({ page }) => {
    runs.read++;
    if (page === 0) return Promise.reject(new Error('page 0 does not exist'));
    return Promise.resolve({ content: [{ type: 'text' as const, text: `Page ${String(page)}: the answer is 42.` }] });
  });
  return { runs, server: createSdkMcpServer({ name: 'loop', version: '1.0.0', tools: [search, read] }) };
}

/** What the last user message of a request to the API held, as text. */
function lastUserMessage(request: FakeRequest | undefined): string {
  return JSON.stringify(request?.body.messages?.at(-1) ?? null);
}

async function runQuery(hooks: ClaudeLoopGuardHooks, decide: (body: FakeRequest['body'], turn: number) => FakeTurn) {
  const api = await startFakeApi(SEARCH, decide);
  const { runs, server } = countedServer();
  const messages: SDKMessage[] = [];
  try {
    const options: Options = {
      cwd: scratch,
      model: 'claude-sonnet-4-5',
      mcpServers: { loop: server },
      tools: [],
      allowedTools: [SEARCH, READ],
      maxTurns: 12,
      persistSession: false,
      settingSources: [],
      hooks,
      env: offlineCliEnvironment(api, scratch),
    };
    for await (const message of query({ prompt: 'Find it.', options })) messages.push(message);
  } finally {
    await api.close();
  }
  const result = messages.find((message): message is SDKResultMessage => message.type === 'result');
  if (result === undefined) throw new Error(`no result message among ${String(messages.length)}`);
  return { runs, requests: api.requests.filter((request) => request.main), result };
}

const searchAgain = (_body: unknown, turn: number): FakeTurn => ({ text: `Attempt ${String(turn)}: searching.`, toolUse: { name: SEARCH, input: { query: 'agent loops' } } });

describe('toClaudeHooks in query() with the bundled CLI and a fake API', () => {
  it('warns the model, denies the looping call before it runs, and stops a model that persists', async () => {
    const { observed, hooks } = observedHooks();
    const { runs, requests, result } = await runQuery(hooks, searchAgain);

    // Two searches ran; the third and fourth were denied, and the fourth stopped the session: no fifth model call.
    expect(runs.search).toBe(2);
    expect(requests).toHaveLength(4);
    expect(observed.blocks.map((block) => block.code)).toEqual(['REPEATED_TOOL_CALL', 'REPEATED_TOOL_CALL']);
    // The SDK reports a hook stop as a success; the verdict comes from the hooks.
    expect(result).toMatchObject({ subtype: 'success', is_error: false, terminal_reason: 'hook_stopped' });
    expect(observed.stops).toEqual([expect.objectContaining({ code: 'REPEATED_TOOL_CALL', evidence: expect.objectContaining({ count: 3 }) as object })]);
    expect(hooks.verdictFor(result.session_id)).toBe(observed.stops[0]);
    expect(observed.sessions).toEqual([{ sessionId: result.session_id }]);
    // The warning reached the third model call, next to the second result; the refusal reached the fourth as an error.
    expect(lastUserMessage(requests[1])).not.toContain(WARNING);
    expect(lastUserMessage(requests[2])).toContain('PostToolBatch hook additional context: You have called mcp__loop__search');
    expect(lastUserMessage(requests[2])).toContain(WARNING);
    expect(lastUserMessage(requests[3])).toContain(`PreToolUse:${SEARCH} hook error: ${REFUSAL}`);
    expect(lastUserMessage(requests[3])).toContain('"is_error":true');
    expect(result.permission_denials.map((denial) => denial.tool_use_id)).toHaveLength(2);
    // The refused calls are in the guard's history as refused, not with the denial as their result.
    expect(hooks.guardFor(result.session_id)?.history.map((step) => step.toolCalls?.map((call) => call.blocked === true))).toEqual([[false], [false], [true], [true]]);
  });

  it('leaves a healthy run alone, and records a failed call with its error', async () => {
    const { observed, hooks } = observedHooks({});
    const pages = [0, 1, 2];
    const { runs, requests, result } = await runQuery(hooks, (_body, turn) => {
      const page = pages[turn - 1];
      return page === undefined ? { text: 'The answer is 42.' } : { toolUse: { name: READ, input: { page } } };
    });

    expect(result).toMatchObject({ subtype: 'success', result: 'The answer is 42.' });
    expect(result.terminal_reason).not.toBe('hook_stopped');
    expect(runs.read).toBe(3);
    expect(requests).toHaveLength(4);
    expect(observed).toEqual({ stops: [], warnings: [], blocks: [], sessions: [] });
    expect(requests.map(lastUserMessage).join('')).not.toMatch(/hook additional context|hook error|in a row|Not run/);
    const steps = hooks.guardFor(result.session_id)?.history ?? [];
    expect(steps).toHaveLength(3);
    expect(steps[0]?.toolCalls?.[0]).toMatchObject({ name: READ, args: { page: 0 }, error: expect.stringContaining('page 0 does not exist') as string });
    expect(steps[1]?.toolCalls?.[0]).toMatchObject({ name: READ, args: { page: 1 }, result: [{ type: 'text', text: 'Page 1: the answer is 42.' }] });
  });

  it('keeps two sessions that share one hooks object apart', async () => {
    const { observed, hooks } = observedHooks();
    const [first, second] = await Promise.all([runQuery(hooks, searchAgain), runQuery(hooks, searchAgain)]);

    expect(first.result.session_id).not.toBe(second.result.session_id);
    expect([first.runs.search, second.runs.search]).toEqual([2, 2]);
    expect(observed.stops).toHaveLength(2);
    for (const { result } of [first, second]) {
      expect(result.terminal_reason).toBe('hook_stopped');
      expect(hooks.verdictFor(result.session_id)).toMatchObject({ code: 'REPEATED_TOOL_CALL', evidence: { count: 3 } });
      expect(hooks.guardFor(result.session_id)?.history).toHaveLength(4);
    }
    hooks.forget(first.result.session_id);
    expect(hooks.verdictFor(first.result.session_id)).toBeUndefined();
    expect(hooks.guardFor(first.result.session_id)).toBeUndefined();
  });
});
