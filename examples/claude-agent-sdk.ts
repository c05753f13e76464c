/**
 * The example of docs/integrations/claude-agent-sdk.md, word for word except the two import paths (here the sources,
 * there the package). `npm run typecheck` proves it compiles against the pinned `@anthropic-ai/claude-agent-sdk`;
 * running it starts Claude Code, so it needs ANTHROPIC_API_KEY (`npx tsx examples/claude-agent-sdk.ts`). The same loop
 * offline, against a local fake API, is examples/claude-agent-sdk-offline.ts (`npm run example:claude-agent-sdk`).
 */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { explain } from '../src/index.js';
import { toClaudeHooks } from '../src/adapters/claude-agent-sdk.js';

const hooks = toClaudeHooks({ maxSteps: 60 }, {
  onStop: (verdict) => {
    console.log(explain(verdict));
  },
});

const options = { hooks, maxTurns: 80, maxBudgetUsd: 2 }; // hooks cannot see tokens: the SDK's own limits cover them
for await (const message of query({ prompt: 'Make the failing test in test/parser.test.ts pass.', options })) {
  if (message.type !== 'result') continue;
  // A stop by the guard arrives as subtype 'success' with terminal_reason 'hook_stopped': the verdict says why.
  const stopped = hooks.verdictFor(message.session_id);
  console.log(stopped === undefined ? message.subtype : `Stopped: ${stopped.code}`);
}
