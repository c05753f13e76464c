/**
 * The Claude Agent SDK guide's example, offline: `query()` starts the bundled Claude Code CLI as usual, but pointed at
 * a fake Messages API on 127.0.0.1 (examples/support/fake-anthropic-api.ts) whose model searches for the same thing on
 * every turn, with a dummy key. The guard warns it after its second search, denies its third and fourth before they
 * run, and stops the session. `npm run example:claude-agent-sdk`; no key, no network.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSdkMcpServer, query, tool } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import { explain } from '../src/index.js';
import { toClaudeHooks } from '../src/adapters/claude-agent-sdk.js';
import { offlineCliEnvironment, startFakeApi } from './support/fake-anthropic-api.js';

const SEARCH = 'mcp__docs__search';

// The looping model: every turn, the same search.
const api = await startFakeApi(SEARCH, () => ({ toolUse: { name: SEARCH, input: { query: 'cancel a run' } } }));
const scratch = mkdtempSync(join(tmpdir(), 'agent-loopguard-example-'));

const search = tool('search', 'Search the docs.', { query: z.string() }, ({ query: text }) =>
  Promise.resolve({ content: [{ type: 'text' as const, text: `No results for ${text}.` }] }),
);

const hooks = toClaudeHooks({ maxSteps: 60 }, {
  onWarning: (warnings) => {
    console.log(`Warned: ${warnings.map((warning) => warning.detail).join(' ')}`);
  },
  onBlock: (refusal) => {
    console.log(`Refused: ${refusal.detail}`);
  },
  onStop: (verdict) => {
    console.log(explain(verdict));
  },
});

try {
  const options = {
    hooks,
    maxTurns: 12,
    cwd: scratch,
    model: 'claude-sonnet-4-5',
    mcpServers: { docs: createSdkMcpServer({ name: 'docs', version: '1.0.0', tools: [search] }) },
    tools: [],
    allowedTools: [SEARCH],
    persistSession: false,
    settingSources: [],
    // The CLI reads its endpoint and key from the environment: the fake API, a dummy key, nothing else sent anywhere.
    env: offlineCliEnvironment(api, scratch),
  };
  for await (const message of query({ prompt: 'How do I cancel a run?', options })) {
    if (message.type !== 'result') continue;
    // A stop by the guard arrives as subtype 'success' with terminal_reason 'hook_stopped': the verdict says why.
    const stopped = hooks.verdictFor(message.session_id);
    console.log(stopped === undefined ? message.subtype : `Stopped: ${stopped.code}`);
  }
} finally {
  await api.close();
  rmSync(scratch, { recursive: true, force: true });
}
