/**
 * Screening one response of 3,000 parallel tool calls, end to end through an adapter's hooks, must take under a second:
 * a runaway model that emits thousands of calls at once is the case a guard has to survive. Measured for the AI SDK's
 * `toAgentSettings` (`prepareStep`, `toolApproval` for each call, `stopWhen` on the step) and for Mastra's
 * `toMastraOptions` (`prepareStep` on an empty run, `beforeToolCall` for each call, `stopWhen` lent the step, then
 * `prepareStep` with it, which records it).
 */
import { clock, CLOCK_NAME, median, QUICK } from './harness.js';
import { toAgentSettings, toMastraOptions } from './library.js';
import { formatNs, publish } from './report.js';

const CALLS = 3_000;
const TARGET_NS = 1e9;
const RUNS = QUICK ? 3 : 10;

/** The model's response: `count` calls, identical (a runaway repeat) or each with arguments of its own. */
function response(identical: boolean, ids: 'unique' | 'reused'): { toolCallId: string; toolName: string; input: unknown }[] {
  return Array.from({ length: CALLS }, (_, index) => ({
    toolCallId: ids === 'unique' ? `call-${String(index)}` : 'call',
    toolName: 'search',
    input: { query: identical ? 'agent loops' : `agent loops ${String(index)}` },
  }));
}

/** The AI SDK path: one run's first response, every call asked about, then the step recorded. */
function throughAgentSettings(calls: ReturnType<typeof response>): number {
  const settings = toAgentSettings({ maxSteps: false });
  const messages: unknown[] = [{ role: 'user', content: [{ type: 'text', text: 'Find it.' }] }];
  settings.prepareStep?.({ steps: [], messages });
  const content: unknown[] = [];
  const toolResults: unknown[] = [];
  for (const toolCall of calls) {
    const answer = settings.toolApproval?.({ toolCall, messages });
    if (answer === undefined) toolResults.push({ toolCallId: toolCall.toolCallId, output: 'nothing' });
    else content.push({ type: 'tool-approval-response', approved: false, toolCall });
  }
  settings.stopWhen?.({ steps: [{ finishReason: 'tool-calls', toolCalls: calls, toolResults, content } as never] });
  return content.length;
}

/**
 * The Mastra path, as Mastra drives one run: `prepareStep` before the first model call (it starts the run's guard),
 * every call through `beforeToolCall`, `stopWhen` lent Mastra's record of the step, then `prepareStep` before the next
 * model call, which records the step.
 */
function throughMastra(calls: ReturnType<typeof response>): number {
  const loop = toMastraOptions({ maxSteps: false });
  const requestContext = {};
  loop.prepareStep({ steps: [], requestContext });
  let refused = 0;
  const toolResults = calls.map((call) => {
    const answer = loop.hooks.beforeToolCall({ toolName: call.toolName, input: call.input, context: { toolCallId: call.toolCallId, requestContext } });
    if (answer !== undefined) refused++;
    return { toolCallId: call.toolCallId, output: answer?.output ?? 'nothing' };
  });
  const steps = [{ finishReason: 'tool-calls', toolCalls: calls, toolResults, usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 }, request: {} }];
  loop.stopWhen({ steps });
  loop.prepareStep({ steps, requestContext });
  if (loop.guardOf(requestContext)?.history.length !== 1) throw new Error('The Mastra path did not record the step.');
  return refused;
}

/** Median time of one whole response over {@link RUNS} runs, each on calls made anew, and what it refused. */
function measure(path: (calls: ReturnType<typeof response>) => number, identical: boolean, ids: 'unique' | 'reused'): { ns: number; refused: number } {
  const times: number[] = [];
  let refused = 0;
  path(response(identical, ids));
  for (let run = 0; run < RUNS; run++) {
    const calls = response(identical, ids);
    const start = clock();
    refused = path(calls);
    times.push(clock() - start);
  }
  return { ns: median(times), refused };
}

const cases = [
  { adapter: 'toAgentSettings (AI SDK)', path: throughAgentSettings },
  { adapter: 'toMastraOptions (Mastra)', path: throughMastra },
].flatMap(({ adapter, path }) =>
  ([
    ['identical calls, unique ids', true, 'unique'],
    ['identical calls, one reused id', true, 'reused'],
    ['distinct calls, unique ids', false, 'unique'],
  ] as const).map(([input, identical, ids]) => ({ adapter, input, ...measure(path, identical, ids) })),
);

publish(import.meta.filename, {
  title: `Screening ${CALLS.toLocaleString('en-US')} parallel calls through the AI SDK and Mastra adapters`,
  method:
    `One response of ${CALLS.toLocaleString('en-US')} \`search\` calls, through a new adapter object: for \`toAgentSettings\`, \`prepareStep\` on an empty run, \`toolApproval\` for every call, then \`stopWhen\` on the step with its results and refusals; for \`toMastraOptions\`, \`prepareStep\` on an empty run, \`beforeToolCall\` for every call, \`stopWhen\` lent the step, then \`prepareStep\` with the step, which records it. ` +
    `The median of ${String(RUNS)} runs after one warm-up, ${CLOCK_NAME}, on the bundled build.`,
  tables: [
    {
      header: ['Adapter', 'Calls', 'Refused', 'Time per response'],
      rows: cases.map((item) => [item.adapter, item.input, item.refused.toLocaleString('en-US'), formatNs(item.ns)]),
    },
  ],
  targets: cases.map((item) => ({
    target: `${item.adapter}, ${item.input}: under ${formatNs(TARGET_NS)}`,
    measured: formatNs(item.ns),
    met: item.ns < TARGET_NS,
  })),
  notes: [],
});
