/**
 * Run by Node in the project where the package tests install the tarball (shared-core.test.ts compiles it to CommonJS,
 * which both `import` and `require` can load): a guard made through each subpath's public API, and one made by a
 * second copy of the package, each compared with a guard made by the root entry. Only types are imported here, so the
 * compiled file loads nothing but what it is handed.
 */
import type * as ClaudeAgentSdk from '../../src/adapters/claude-agent-sdk.js';
import type * as LangChain from '../../src/adapters/langchain.js';
import type * as Mastra from '../../src/adapters/mastra.js';
import type * as OpenAiAgents from '../../src/adapters/openai-agents.js';
import type * as Root from '../../src/index.js';

/** Loads a module by specifier, resolved from the consumer project: `import()` or `require()`. */
export type Load = (specifier: string) => Promise<unknown>;

/** Stands in for LangChain's class, which the middleware needs only to answer a refused call. */
class ToolMessage {
  constructor(readonly fields: LangChain.LangChainToolMessageFields) {}
}

/** The guard a subpath makes for a run, reached through that subpath's public API alone. */
const guardOfSubpath: Readonly<Record<string, (subpath: unknown) => Promise<object | undefined>>> = {
  'openai-agents': async (subpath) => {
    const agents = (subpath as typeof OpenAiAgents).loopGuardForAgents();
    const runContext = { context: {} };
    await agents.toolInputGuardrail.run({ context: runContext, toolCall: { callId: 'a', name: 'search', arguments: '{}' } });
    return agents.guardOf(runContext);
  },
  'claude-agent-sdk': async (subpath) => {
    const hooks = (subpath as typeof ClaudeAgentSdk).toClaudeHooks();
    const input = { session_id: 'probe', hook_event_name: 'PreToolUse', tool_name: 'search', tool_input: {}, tool_use_id: 'a' };
    for (const matcher of hooks.PreToolUse) for (const hook of matcher.hooks) await hook(input, 'a');
    return hooks.guardFor('probe');
  },
  langchain: (subpath) => {
    const middleware = (subpath as typeof LangChain).loopGuardMiddleware(undefined, { ToolMessage });
    return Promise.resolve(middleware.guardOf({ messages: [] }));
  },
  mastra: (subpath) => {
    const loop = (subpath as typeof Mastra).toMastraOptions();
    // A run's first model call starts its guard, kept by the run's requestContext.
    const requestContext = {};
    loop.prepareStep({ steps: [], requestContext });
    return Promise.resolve(loop.guardOf(requestContext));
  },
};

/** The name under which the report gives the second copy's answer. */
export const SECOND_COPY = 'a second copy of the package';

/**
 * Compares guards by prototype: two copies of the guard's code make two classes, so their guards' prototypes differ.
 * The second copy shows that the comparison can tell copies apart.
 * @param load - loads by specifier, as the consumer does
 * @param packageName - the package's name
 * @param secondCopy - the specifier of a second copy of the package, installed under another name
 * @returns for each subpath, and for {@link SECOND_COPY}, whether its guard shares the root entry's prototype
 */
export async function compareGuards(load: Load, packageName: string, secondCopy: string): Promise<Record<string, boolean>> {
  const rootPrototype: unknown = Object.getPrototypeOf(((await load(packageName)) as typeof Root).createGuard());
  const report: Record<string, boolean> = {};
  for (const [subpath, guardOf] of Object.entries(guardOfSubpath)) {
    const guard = await guardOf(await load(`${packageName}/${subpath}`));
    report[subpath] = guard !== undefined && Object.getPrototypeOf(guard) === rootPrototype;
  }
  report[SECOND_COPY] = Object.getPrototypeOf(((await load(secondCopy)) as typeof Root).createGuard()) === rootPrototype;
  return report;
}
