/**
 * Target 8: the agent frameworks' adapters screen the calls of one response in time that grows with the calls, not
 * faster (3,000 parallel calls in under 1 s each), and LangChain's middleware costs no more per step at the end of a
 * long run than at its start (its hooks read only the messages added since the last hook).
 */
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { importBundled } from './library.js';
import { formatNs, publish } from './report.js';

type LangChainModule = typeof import('../src/adapters/langchain.js');
type OpenAiModule = typeof import('../src/adapters/openai-agents.js');
type ClaudeModule = typeof import('../src/adapters/claude-agent-sdk.js');
const entry = (name: string) => fileURLToPath(new URL(`../src/adapters/${name}.ts`, import.meta.url));
const { loopGuardMiddleware } = await importBundled<LangChainModule>(entry('langchain'));
const { loopGuardForAgents } = await importBundled<OpenAiModule>(entry('openai-agents'));
const { toClaudeHooks } = await importBundled<ClaudeModule>(entry('claude-agent-sdk'));

const CALLS = 3_000;
const CALL_TARGET_MS = 1_000;
const STEPS = 8_000;
/** The steps at each end of the long run whose hooks are compared. */
const WINDOW = 500;
/** The end may cost at most this many times the start: the same, within measurement noise. */
const STEP_TARGET = 1.5;

/** A model that asks for 3,000 calls at once: a third of them the same search, the rest different ones. */
const queryOf = (index: number) => (index % 3 === 0 ? 'the same' : `query ${String(index)}`);

class ToolMessage {
  constructor(readonly fields: unknown) {}
}

function timeMs(work: () => void): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

function langChainScreen(): number {
  const middleware = loopGuardMiddleware({ maxSteps: false }, { ToolMessage });
  const toolCalls = Array.from({ length: CALLS }, (_, index) => ({ id: `call-${String(index)}`, name: 'search', args: { query: queryOf(index) } }));
  const state = { messages: [{ type: 'human', id: 'h', content: 'Find it.' }, { type: 'ai', id: 'm0', content: '', tool_calls: toolCalls }] };
  return timeMs(() => {
    for (const toolCall of toolCalls) middleware.wrapToolCall({ toolCall, state }, () => 'ran');
  });
}

async function openAiScreen(): Promise<number> {
  const loop = loopGuardForAgents({ maxSteps: false });
  const context = { context: {}, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 } };
  const toolCalls = Array.from({ length: CALLS }, (_, index) => ({ callId: `call-${String(index)}`, name: 'search', arguments: JSON.stringify({ query: queryOf(index) }) }));
  const start = performance.now();
  for (const toolCall of toolCalls) await loop.toolInputGuardrail.run({ context, toolCall });
  loop.toolUseBehavior(
    context,
    toolCalls.map((toolCall) => ({ type: 'function_output', output: 'result', runItem: { rawItem: { callId: toolCall.callId, name: toolCall.name } } })),
  );
  return performance.now() - start;
}

async function claudeScreen(): Promise<number> {
  const hooks = toClaudeHooks({ maxSteps: false });
  const [pre] = hooks.PreToolUse[0]?.hooks ?? [];
  const [batch] = hooks.PostToolBatch[0]?.hooks ?? [];
  if (pre === undefined || batch === undefined) throw new Error('toClaudeHooks gave no hooks');
  const calls = Array.from({ length: CALLS }, (_, index) => ({ tool_name: 'search', tool_input: { query: queryOf(index) }, tool_use_id: `toolu_${String(index)}` }));
  const start = performance.now();
  for (const call of calls) await pre({ session_id: 's', hook_event_name: 'PreToolUse', ...call });
  await batch({ session_id: 's', hook_event_name: 'PostToolBatch', tool_calls: calls.map((call) => ({ ...call, tool_response: 'result' })) });
  return performance.now() - start;
}

/** A LangChain run of 8,000 steps, each hook handed a new array as LangGraph hands it: the hooks' time per step. */
function langChainLongRun(): number[] {
  const middleware = loopGuardMiddleware({ maxSteps: false }, { ToolMessage });
  const messages: unknown[] = [{ type: 'human', id: 'h', content: 'Find it.' }];
  const perStep: number[] = [];
  for (let step = 0; step < STEPS; step++) {
    const toolCall = { id: `call-${String(step)}`, name: 'search', args: { query: `query ${String(step)}` } };
    messages.push({ type: 'ai', id: `m${String(step)}`, content: '', tool_calls: [toolCall] });
    const beforeTools = { messages: [...messages] };
    messages.push({ type: 'tool', id: `t${String(step)}`, tool_call_id: toolCall.id, content: `result ${String(step)}` });
    const afterTools = { messages: [...messages] };
    perStep.push(
      timeMs(() => {
        middleware.wrapToolCall({ toolCall, state: beforeTools }, () => 'ran');
        middleware.beforeModel.hook(afterTools);
      }),
    );
  }
  return perStep;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

// Each once to warm up, then measured.
langChainScreen();
await openAiScreen();
await claudeScreen();
const screens = [
  { adapter: 'LangChain `wrapToolCall`, one call after another', ms: langChainScreen() },
  { adapter: 'OpenAI Agents SDK guardrail, then `toolUseBehavior`', ms: await openAiScreen() },
  { adapter: 'Claude Agent SDK `PreToolUse` each, then `PostToolBatch`', ms: await claudeScreen() },
];
const long = langChainLongRun();
const start = median(long.slice(0, WINDOW)) * 1e6;
const end = median(long.slice(-WINDOW)) * 1e6;
const ratio = end / start;

publish(import.meta.filename, {
  title: '8. Screening in the agent frameworks’ adapters',
  method:
    `${CALLS.toLocaleString('en-US')} calls in one response (a third of them the same search, the rest different), each judged through the adapter's own hook as the framework calls it, then the response recorded as a step; wall-clock time of one pass after one warm-up pass. ` +
    `A LangChain run of ${STEPS.toLocaleString('en-US')} steps (one search each, unique arguments), every hook handed a new messages array as LangGraph hands it (the copy not timed): the median time of \`wrapToolCall\` plus \`beforeModel\` over the first and the last ${String(WINDOW)} steps.`,
  tables: [
    { header: ['Adapter', `${CALLS.toLocaleString('en-US')} calls`], rows: screens.map(({ adapter, ms }) => [adapter, `${ms.toFixed(1)} ms`]) },
    { header: ['LangChain run', 'Hooks per step'], rows: [[`first ${String(WINDOW)} steps`, formatNs(start)], [`last ${String(WINDOW)} steps`, formatNs(end)]] },
  ],
  targets: [
    ...screens.map(({ adapter, ms }) => ({ target: `${adapter}: ${CALLS.toLocaleString('en-US')} calls in under 1 s`, measured: `${ms.toFixed(1)} ms`, met: ms < CALL_TARGET_MS })),
    { target: `LangChain: a step at the end of ${STEPS.toLocaleString('en-US')} costs no more than at the start (at most ${String(STEP_TARGET)}x)`, measured: `${ratio.toFixed(2)}x`, met: ratio <= STEP_TARGET },
  ],
  notes: [],
});
