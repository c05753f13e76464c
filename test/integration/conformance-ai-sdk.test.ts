/**
 * The Vercel AI SDK's conformance: one `ToolLoopAgent` (ai 7, `MockLanguageModelV4` from `ai/test`) built once with the
 * settings of one `toAgentSettings` call, serving every run of a group, three in a row and three at once, as the SDK
 * documents reusing an agent. The model and the tools are shared too: each run is told apart by its prompt
 * (`run <n>`), as a real model would only see its own conversation.
 *
 * `toStopWhen` alone is driven too. It cannot refuse a call: the SDK asks a stop condition after the step's tools ran,
 * so it can only end the run after the call that completes a loop, and it has no way to put a warning in the prompt.
 */
import { isStepCount, tool, ToolLoopAgent, type ModelMessage, type StepResult, type ToolSet } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { isFault, toAgentSettings, toStopWhen, type AiSdkStepLike, type StopVerdict } from '../../src/index.js';
import { callId, conformance, LOOPING, PARALLEL, type IdPolicy, type Observed, type Script } from './conformance.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
type StreamPart = Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;

/** What one run is seen to do, filled in by the shared model, tools and callbacks. */
interface RunRecord {
  readonly script: Script;
  readonly ids: IdPolicy;
  readonly warnings: string[];
  readonly ran: string[];
  stop: StopVerdict | undefined;
}

/** Everything the runs of a group share: the agent (with its model and tools), and the runs it serves, by number. */
interface Shared {
  readonly agent: {
    generate(options: { prompt: string }): Promise<{ readonly steps: readonly StepResult<ToolSet>[] }>;
    stream(options: { prompt: string }): Promise<{ readonly steps: PromiseLike<readonly StepResult<ToolSet>[]> }>;
  };
  readonly runs: Map<string, RunRecord>;
  next: number;
}

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };

/** The run a conversation belongs to: its first user message says `run <n>`. */
function runOf(runs: Map<string, RunRecord>, messages: readonly unknown[]): { id: string; record: RunRecord } {
  const text = JSON.stringify(messages[0] ?? null);
  const id = /run (\d+)/.exec(text)?.[1] ?? '';
  const record = runs.get(id);
  if (record === undefined) throw new Error(`No run is recorded for the conversation ${text}.`);
  return { id, record };
}

/** The model's turn: how many answers of its own the conversation holds. */
function turnOf(messages: readonly unknown[]): number {
  return messages.filter((message) => (message as { role?: unknown }).role === 'assistant').length;
}

/** The run a step belongs to, from the response id the model gave it (`run-<n>-<turn>`). */
function runOfStep(runs: Map<string, RunRecord>, steps: readonly AiSdkStepLike[]): RunRecord | undefined {
  const first = steps[0] as StepResult<ToolSet> | undefined;
  const id = /^run-(\d+)-/.exec(first?.response.id ?? '')?.[1];
  return id === undefined ? undefined : runs.get(id);
}

/** The model's answer for a prompt: the script's turn of the run whose conversation it is. */
function answerTo(runs: Map<string, RunRecord>, prompt: readonly unknown[]) {
  const { id, record } = runOf(runs, prompt);
  const turn = turnOf(prompt);
  const scripted = record.script.turns[turn] ?? { text: 'out of script' };
  const content: GenerateResult['content'] =
    'text' in scripted
      ? [{ type: 'text', text: scripted.text }]
      : scripted.calls.map((call, position) => ({
          type: 'tool-call',
          // The SDK's types insist on a string: a missing id is an empty one.
          toolCallId: callId(record.ids, turn, position) ?? '',
          toolName: call.name,
          input: JSON.stringify(call.args),
        }));
  const unified = 'text' in scripted ? 'stop' : 'tool-calls';
  return { content, finishReason: { unified, raw: unified } as const, responseId: `run-${id}-${String(turn)}` };
}

/** The model every run shares, for `generate` and `stream`: it plays the script of the run whose conversation it is sent. */
function sharedModel(runs: Map<string, RunRecord>): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: (options) => {
      const { content, finishReason, responseId } = answerTo(runs, options.prompt);
      return Promise.resolve({ content, finishReason, usage, warnings: [], response: { id: responseId } });
    },
    doStream: (options) => {
      const { content, finishReason, responseId } = answerTo(runs, options.prompt);
      const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }, { type: 'response-metadata', id: responseId }];
      for (const part of content) {
        if (part.type === 'text') parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text }, { type: 'text-end', id: 't' });
        else if (part.type === 'tool-call') parts.push(part);
      }
      parts.push({ type: 'finish', finishReason, usage });
      const stream = convertArrayToReadableStream(parts);
      return Promise.resolve({ stream });
    },
  });
}

/** Tools every run shares, recording each call that really ran against the run whose conversation it came from. */
function sharedTools(runs: Map<string, RunRecord>) {
  const counted = (name: string) =>
    tool({
      inputSchema: z.record(z.string(), z.unknown()),
      execute: (_input, { messages }: { messages: ModelMessage[] }) => {
        const { record } = runOf(runs, messages);
        record.ran.push(`${String(turnOf(messages))}:${name}`);
        return Promise.resolve(`${name} result`);
      },
    });
  return { search: counted('search'), read: counted('read') };
}

/** The calls the run's steps show a tool approval refused, as `turn:name`. */
function refusedIn(steps: readonly StepResult<ToolSet>[]): string[] {
  return steps.flatMap((step, turn) =>
    step.content.flatMap((part) => (part.type === 'tool-approval-response' && !part.approved ? [`${String(turn)}:${part.toolCall.toolName}`] : [])),
  );
}

/** One run of a script through the shared agent, with `generate` or, when `streamed`, `stream`. */
async function run(shared: Shared, script: Script, ids: IdPolicy, streamed = false): Promise<Observed> {
  const id = String(shared.next++);
  const record: RunRecord = { script, ids, warnings: [], ran: [], stop: undefined };
  shared.runs.set(id, record);
  const prompt = `This is run ${id}.`;
  const result = streamed ? { steps: await (await shared.agent.stream({ prompt })).steps } : await shared.agent.generate({ prompt });
  return {
    warnings: record.warnings,
    refused: refusedIn(result.steps),
    ran: record.ran,
    stopCode: record.stop !== undefined && isFault(record.stop) ? record.stop.code : undefined,
  };
}

/** A shared agent over the parts `hooks` returns for the shared runs. */
function sharedAgent(hooks: (runs: Map<string, RunRecord>) => object): Shared {
  const runs = new Map<string, RunRecord>();
  const agent = new ToolLoopAgent({ model: sharedModel(runs), tools: sharedTools(runs), stopWhen: isStepCount(20), ...hooks(runs) });
  return { agent, runs, next: 0 };
}

/** A shared agent with the settings of one `toAgentSettings` call, its callbacks reporting to the run of the steps. */
function settingsAgent(): Shared {
  return sharedAgent((runs) =>
    toAgentSettings(
      { maxSteps: 20 },
      {
        onWarning: (warnings, steps) => {
          const record = runOfStep(runs, steps);
          for (const warning of warnings) record?.warnings.push(`${String(steps.length)}:${warning.reason}`);
        },
        onStop: (verdict, steps) => {
          const record = runOfStep(runs, steps);
          if (record !== undefined) record.stop = verdict;
        },
      },
    ),
  );
}

conformance<Shared>({
  name: 'the Vercel AI SDK (toAgentSettings in one ToolLoopAgent, generate)',
  create: settingsAgent,
  run: (shared, script, ids) => run(shared, script, ids),
  expected: (script, ids) =>
    // generateText keys a refusal by toolCallId: with one id for the three reads, refusing the third skips all three,
    // and the SDK then ends the run, waiting for results of calls it never ran (see docs/integrations/ai-sdk.md).
    script === PARALLEL && ids !== 'unique' ? { warnings: [], refused: ['0:read'], ran: [], stopCode: undefined } : undefined,
});

// streamText skips only the call it was told to refuse: with every id policy, exactly the reference loop.
conformance<Shared>({
  name: 'the Vercel AI SDK (toAgentSettings in one ToolLoopAgent, stream)',
  create: settingsAgent,
  run: (shared, script, ids) => run(shared, script, ids, true),
});

conformance<Shared>({
  name: 'the Vercel AI SDK (toStopWhen alone in one ToolLoopAgent)',
  create: () =>
    sharedAgent((runs) => ({
      stopWhen: toStopWhen({ maxSteps: 20 }, {
        onStop: (verdict, steps) => {
          const record = runOfStep(runs, steps);
          if (record !== undefined) record.stop = verdict;
        },
      }),
    })),
  run: (shared, script, ids) => run(shared, script, ids),
  // A stop condition is asked after the step's tools ran: it cannot refuse a call or warn the model, only end the run
  // after the call that completes the loop.
  expected: (script) => {
    if (script === LOOPING) return { warnings: [], refused: [], ran: ['0:search', '1:search', '2:search'], stopCode: 'REPEATED_TOOL_CALL' };
    if (script === PARALLEL) return { warnings: [], refused: [], ran: ['0:read', '0:read', '0:read'], stopCode: 'REPEATED_TOOL_CALL' };
    return undefined;
  },
});
