/**
 * Compile-time proof against the Claude Agent SDK's own declarations: vitest type-checks this file (it is never run).
 * Every `@ts-expect-error` must really be an error, so the checks cannot pass vacuously.
 */
import { query } from '@anthropic-ai/claude-agent-sdk';
import type { HookCallback, HookCallbackMatcher, HookEvent, HookInput, Options, SDKResultMessage, SyncHookJSONOutput } from '@anthropic-ai/claude-agent-sdk';
import { describe, expectTypeOf, it } from 'vitest';
import { toClaudeHooks, type CallRefusal, type ClaudeHookInputLike, type ClaudeHookOutput, type ClaudeSessionKey } from '../../src/adapters/claude-agent-sdk.js';
import { createGuard } from '../../src/index.js';
import type { Guard, LoopWarning, StopVerdict } from '../../src/index.js';

const hooks = toClaudeHooks({ maxSteps: 40 });

describe('toClaudeHooks', () => {
  it('is the hooks option of query()', () => {
    expectTypeOf(hooks).toExtend<NonNullable<Options['hooks']>>();
    expectTypeOf(hooks).toExtend<Partial<Record<HookEvent, HookCallbackMatcher[]>>>();
    void query({ prompt: 'go', options: { hooks } });
  });

  it('is made of the SDK’s own hook callbacks and outputs', () => {
    expectTypeOf(hooks.PreToolUse).toExtend<HookCallbackMatcher[]>();
    expectTypeOf(hooks.PostToolBatch[0]?.hooks[0]).toExtend<HookCallback | undefined>();
    expectTypeOf<HookInput>().toExtend<ClaudeHookInputLike>();
    expectTypeOf<ClaudeHookOutput>().toExtend<SyncHookJSONOutput>();
  });

  it('merges with hooks of your own', () => {
    const mine: HookCallback = () => Promise.resolve({});
    const merged: Options['hooks'] = { ...hooks, PreToolUse: [...hooks.PreToolUse, { matcher: 'Bash', hooks: [mine] }], Stop: [{ hooks: [mine] }] };
    expectTypeOf(merged).toExtend<Options['hooks']>();
  });

  it('gives the verdict for a result message, and the guard of a session', () => {
    const result = {} as SDKResultMessage;
    expectTypeOf(hooks.verdictFor(result.session_id)).toEqualTypeOf<StopVerdict | undefined>();
    expectTypeOf(hooks.guardFor(result.session_id, 'agent-1')).toEqualTypeOf<Guard | undefined>();
    // @ts-expect-error: a session is named by its id
    hooks.verdictFor(result);
  });

  it('types its callbacks and factory', () => {
    toClaudeHooks((session) => createGuard({ maxSteps: session.agentId === undefined ? 50 : 20 }), {
      onStop: (verdict, session) => {
        expectTypeOf(verdict).toEqualTypeOf<StopVerdict>();
        expectTypeOf(session).toEqualTypeOf<ClaudeSessionKey>();
      },
      onWarning: (warnings) => expectTypeOf(warnings).toEqualTypeOf<readonly LoopWarning[]>(),
      onBlock: (refusal, call) => {
        expectTypeOf(refusal).toEqualTypeOf<CallRefusal>();
        expectTypeOf(call.tool_input).toEqualTypeOf<unknown>();
      },
      stopReason: (verdict) => verdict.code,
    });
    // @ts-expect-error: the factory must return a guard
    toClaudeHooks(() => ({ check: () => true }));
  });
});
