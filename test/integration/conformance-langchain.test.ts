/**
 * LangChain's conformance: one `createAgent` with `loopGuardMiddleware`, driven by LangChain's own offline
 * `fakeModel()`, serves every run of a group. Each run is told apart by its request (the script and a run number in
 * the user message), which is all the model and the tools see too.
 */
import { AIMessage, createAgent, fakeModel, tool, ToolMessage, type BaseMessage } from 'langchain';
import { z } from 'zod';
import { loopGuardMiddleware } from '../../src/adapters/langchain.js';
import { isFault } from '../../src/index.js';
import { callId, conformance, SCRIPTS, type IdPolicy, type Observed, type Script } from './conformance.js';

/** What one run showed, filled in by the middleware's callbacks and the tools, found by the run's request. */
interface Seen {
  readonly warnings: string[];
  readonly refused: string[];
  readonly ran: string[];
}

/** The request of a run: which script, with which ids, and a number no other run has. */
interface Request {
  readonly script: string;
  readonly ids: IdPolicy;
  readonly run: number;
}

/** The messages of a state as LangChain hands them (a `BaseMessage` array), read loosely. */
type Messages = readonly { readonly type?: string; readonly content?: unknown; readonly id?: string }[];

/** The run's request (its latest user message that is not the guard's) and how many model turns it has had. */
function runOf(messages: Messages): { request: Request; turn: number } {
  let turn = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.type === 'ai') turn++;
    if (message?.type === 'human' && !(message.id ?? '').startsWith('agent-loopguard:')) {
      return { request: JSON.parse(String(message.content)) as Request, turn };
    }
  }
  throw new Error('a state without its request');
}

function messagesOf(state: unknown): Messages {
  return (state as { messages: Messages }).messages;
}

interface Shared {
  readonly agent: ReturnType<typeof build>['agent'];
  readonly middleware: ReturnType<typeof build>['middleware'];
  readonly seen: Map<number, Seen>;
  readonly next: { run: number };
}

function build(seen: Map<number, Seen>) {
  const of = (state: unknown) => {
    const { request, turn } = runOf(messagesOf(state));
    const record = seen.get(request.run);
    if (record === undefined) throw new Error(`run ${String(request.run)} was not started`);
    return { record, turn };
  };
  const middleware = loopGuardMiddleware(
    { maxSteps: 20 },
    {
      ToolMessage,
      onWarning: (warnings, state) => {
        const { record, turn } = of(state);
        for (const warning of warnings) record.warnings.push(`${String(turn)}:${warning.reason}`);
      },
      // The call's own AI message is the last of the state: its turn is one less than the turns so far.
      onBlock: (_refusal, toolCall, state) => {
        const { record, turn } = of(state);
        record.refused.push(`${String(turn - 1)}:${String(toolCall.name)}`);
      },
    },
  );
  const counted = (name: string) =>
    tool(
      (_input, runtime: { state?: unknown }) => {
        const { record, turn } = of(runtime.state);
        record.ran.push(`${String(turn - 1)}:${name}`);
        return `${name} result`;
      },
      { name, description: `The ${name} tool.`, schema: z.object({ query: z.string().optional(), path: z.string().optional() }) },
    );
  const model = fakeModel();
  const respond = (messages: readonly BaseMessage[]) => {
    const { request, turn } = runOf(messages);
    const script = SCRIPTS.find((candidate) => candidate.name === request.script);
    const step = script?.turns[turn] ?? { text: 'out of script' };
    if ('text' in step) return new AIMessage(step.text);
    return new AIMessage({
      content: '',
      tool_calls: step.calls.map((call, position) => {
        const id = callId(request.ids, turn, position);
        return { ...(id === undefined ? {} : { id }), name: call.name, args: { ...call.args }, type: 'tool_call' as const };
      }),
    });
  };
  // Every model call is answered from its own prompt, so any number of runs can share the model in any order.
  for (let index = 0; index < 1_000; index++) model.respond(respond);
  return { agent: createAgent({ model, tools: [counted('search'), counted('read')], middleware: [middleware] as const }), middleware };
}

async function run(shared: Shared, script: Script, ids: IdPolicy): Promise<Observed> {
  const number = shared.next.run++;
  const record: Seen = { warnings: [], refused: [], ran: [] };
  shared.seen.set(number, record);
  const request: Request = { script: script.name, ids, run: number };
  const result = await shared.agent.invoke({ messages: [{ role: 'user', content: JSON.stringify(request) }] });
  const verdict = shared.middleware.verdictOf(result);
  return { ...record, stopCode: verdict !== undefined && isFault(verdict) ? verdict.code : undefined };
}

conformance<Shared>({
  name: 'LangChain (createAgent, loopGuardMiddleware, fakeModel)',
  create: () => {
    const seen = new Map<number, Seen>();
    return { ...build(seen), seen, next: { run: 0 } };
  },
  run,
});
