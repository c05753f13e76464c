/**
 * A tiny fake Anthropic Messages API on 127.0.0.1, for driving the Claude Code CLI that the Claude Agent SDK spawns,
 * offline (examples/claude-agent-sdk-offline.ts and the Claude tests). Requests that offer the agent's tool are answered
 * by `decide`; anything else the CLI asks gets a short text.
 * Answers stream as server-sent events when asked to (the CLI always asks), else as one JSON body.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake model says on one call: text, a tool call, or both; or several tool calls with ids of their own. */
export interface FakeTurn {
  readonly text?: string;
  readonly toolUse?: { readonly name: string; readonly input: unknown };
  /** Tool calls in parallel, each with the id given (after `toolUse`, if both). */
  readonly toolUses?: readonly { readonly id: string; readonly name: string; readonly input: unknown }[];
}

/** One request the API received. */
export interface FakeRequest {
  readonly url: string;
  /** Whether it offered the test's tool (a turn of the agent loop), and was answered by `decide`. */
  readonly main: boolean;
  readonly body: { readonly messages?: readonly unknown[]; readonly tools?: readonly { readonly name?: string }[]; readonly stream?: boolean };
}

export interface FakeApi {
  readonly url: string;
  readonly requests: FakeRequest[];
  close(): Promise<void>;
}

/**
 * Starts the API on a free port.
 * @param toolName - the tool whose presence in a request marks a turn of the agent loop
 * @param decide - the answer to the n-th such request (from 1), given its body
 */
export async function startFakeApi(toolName: string, decide: (body: FakeRequest['body'], turn: number) => FakeTurn): Promise<FakeApi> {
  const requests: FakeRequest[] = [];
  let turns = 0;
  const server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (raw += chunk));
    request.on('end', () => {
      const url = request.url ?? '';
      let body: FakeRequest['body'] = {};
      try {
        body = raw === '' ? {} : (JSON.parse(raw) as FakeRequest['body']);
      } catch {
        // Not JSON: answered like any other side request.
      }
      if (request.method !== 'POST' || !url.startsWith('/v1/messages')) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end('{"type":"error","error":{"type":"not_found_error","message":"fake"}}');
        return;
      }
      if (url.includes('count_tokens')) {
        json(response, { input_tokens: 100 });
        return;
      }
      const main = (body.tools ?? []).some((tool) => tool.name === toolName);
      requests.push({ url, main, body });
      const turn = main ? decide(body, ++turns) : { text: 'ok' };
      answer(response, turn, requests.length, body.stream === true);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

function json(response: ServerResponse, value: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

function answer(response: ServerResponse, turn: FakeTurn, index: number, stream: boolean): void {
  const content: Record<string, unknown>[] = [];
  if (turn.text !== undefined) content.push({ type: 'text', text: turn.text });
  if (turn.toolUse !== undefined) content.push({ type: 'tool_use', id: `toolu_${String(index).padStart(4, '0')}`, name: turn.toolUse.name, input: turn.toolUse.input });
  for (const { id, name, input } of turn.toolUses ?? []) content.push({ type: 'tool_use', id, name, input });
  const stopReason = content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = { id: `msg_${String(index)}`, type: 'message', role: 'assistant', model: 'claude-fake', content, stop_reason: stopReason, stop_sequence: null, usage };
  if (!stream) {
    json(response, message);
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_${String(index)}` });
  const event = (type: string, data: Record<string, unknown>): void => {
    response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  event('message_start', { message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } });
  content.forEach((block, blockIndex) => {
    if (block.type === 'text') {
      event('content_block_start', { index: blockIndex, content_block: { type: 'text', text: '' } });
      event('content_block_delta', { index: blockIndex, delta: { type: 'text_delta', text: block.text } });
    } else {
      event('content_block_start', { index: blockIndex, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      event('content_block_delta', { index: blockIndex, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    event('content_block_stop', { index: blockIndex });
  });
  event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 20 } });
  event('message_stop', {});
  response.end();
}

/**
 * The environment for a Claude Code CLI that talks to a fake API alone: its address and a dummy key, a scratch folder
 * as home and config folder, and every call home switched off. Of the caller's own environment only `PATH` is passed.
 * @param api - the fake API the CLI is to call
 * @param scratch - an empty folder the CLI may write to
 */
export function offlineCliEnvironment(api: FakeApi, scratch: string): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: scratch,
    CLAUDE_CONFIG_DIR: scratch,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: 'sk-ant-offline',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
  };
}
