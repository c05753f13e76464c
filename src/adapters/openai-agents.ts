/**
 * The OpenAI Agents SDK (`@openai/agents`, tested with 0.20.0) adapter, published as the subpath
 * `@osama.ansar/agent-loopguard/openai-agents`. It only translates the SDK's shapes and calls the guard; `@openai/agents`
 * itself is never imported, so it is not a dependency of this package.
 */
import { loopMessage, loopWarnings } from '../guard/verdict.js';
import { isObject, safeArray, safeRead, usableNumber } from '../utils/read.js';
import type { CallRefusal, Guard, GuardOptions, GuardToolCall, GuardUsage, LoopWarning, StopVerdict, Verdict } from '../types.js';
import { guardMaker, parseArguments, refusalStop, stopLine } from './per-run-guard.js';
import { CallQueue, ResponseScreen } from './turn.js';

export type { CallRefusal } from '../types.js';

/** The run's `RunContext`, as far as the guard reads it. One per run: the guard state of a run hangs on it. */
export interface AgentsRunContextLike {
  /** The `context` you passed to `run()`, or the fresh `{}` the SDK makes when you pass none. */
  readonly context?: unknown;
  /** The run's token counts so far, summed over every model call. */
  readonly usage?: { readonly inputTokens?: number; readonly outputTokens?: number; readonly totalTokens?: number } | undefined;
}

/** A function call as the SDK hands it to a tool input guardrail (`protocol.FunctionCallItem`). */
export interface AgentsFunctionCallLike {
  readonly callId?: string | undefined;
  readonly name?: string | undefined;
  /** The arguments as JSON text. */
  readonly arguments?: string | undefined;
}

/** One entry of what `toolUseBehavior` is given (`FunctionToolResult`); only `function_output` entries are read. */
export interface AgentsToolResultLike {
  readonly type?: string | undefined;
  readonly output?: unknown;
  readonly runItem?: unknown;
}

/** What `toolUseBehavior` answers (`ToolsToFinalOutputResult`). */
export type AgentsToolUseDecision =
  | { readonly isFinalOutput: false; readonly isInterrupted: undefined }
  | { readonly isFinalOutput: true; readonly isInterrupted: undefined; readonly finalOutput: string };

/** What a tool input guardrail answers (`ToolGuardrailFunctionOutput`). */
export interface AgentsGuardrailOutput {
  readonly behavior: { readonly type: 'allow' } | { readonly type: 'rejectContent'; readonly message: string } | { readonly type: 'throwException' };
  /** With `throwOnBlock`, the stop verdict, so it travels with the error `run()` throws. */
  readonly outputInfo?: StopVerdict | undefined;
}

/** A tool input guardrail (`ToolInputGuardrailDefinition`), for `tool({ inputGuardrails: [...] })`. */
export interface AgentsToolInputGuardrail {
  readonly type: 'tool_input';
  readonly name: string;
  run(data: { readonly context: AgentsRunContextLike; readonly toolCall: AgentsFunctionCallLike }): Promise<AgentsGuardrailOutput>;
}

/** The model input `callModelInputFilter` is given and returns (`ModelInputData`). */
export interface AgentsModelInputLike {
  readonly input: readonly unknown[];
  readonly instructions?: string | undefined;
}

/** The message the filter adds for the model: a user message, which every model accepts at the end of its input. */
export interface AgentsNudgeMessage {
  readonly role: 'user';
  readonly content: string;
}

/** An agent, as far as {@link AgentsLoopGuard.guardAgent} reads and wires it (an `Agent` instance). */
export interface AgentsAgentLike {
  toolUseBehavior?: unknown;
  readonly tools?: readonly unknown[] | undefined;
  readonly handoffs?: readonly unknown[] | undefined;
}

/** Options of {@link loopGuardForAgents}. */
export interface AgentsLoopGuardOptions {
  /** Called with the stop verdict when the guard ends a run, before `run()` returns. @default undefined */
  readonly onStop?: ((verdict: StopVerdict, runContext: AgentsRunContextLike) => void) | undefined;
  /** Called with the loop warnings the filter adds to a model call, before the call. @default undefined */
  readonly onWarning?: ((warnings: readonly LoopWarning[], runContext: AgentsRunContextLike) => void) | undefined;
  /** Called when the guardrail refuses a call, before the SDK answers the model. @default undefined */
  readonly onBlock?: ((refusal: CallRefusal, toolCall: AgentsFunctionCallLike, runContext: AgentsRunContextLike) => void) | undefined;
  /**
   * The `finalOutput` of a run the guard stopped: what `run()` resolves with as `result.finalOutput`. For an agent with
   * an `outputType`, return JSON text of that type.
   * @default `Stopped by agent-loopguard [CODE]: detail`
   */
  readonly finalOutput?: ((verdict: StopVerdict) => string) | undefined;
  /**
   * Make a refused call end the run at once instead of telling the model: the guardrail answers `throwException`, so
   * `run()` rejects with the SDK's `ToolCallError` (the tool never runs, the model never hears of it). The refusal,
   * as a stop verdict, is then `onStop`'s argument, the tripwire's `outputInfo`, and `verdictOf(error)`.
   * @default false (the model reads the refusal as the call's result, and the run goes on)
   */
  readonly throwOnBlock?: boolean | undefined;
}

/** What {@link loopGuardForAgents} returns: the three hooks, a helper that wires an agent, and the verdicts. */
export interface AgentsLoopGuard {
  /**
   * For `new Agent({ toolUseBehavior })`, on every agent of the run. After each turn that ran function tools it records
   * the turn as a step (the calls, their results, refused calls as `blocked`, the turn's tokens) and, on a stop
   * verdict, ends the run with `finalOutput`. Without it the guard sees nothing.
   */
  readonly toolUseBehavior: (runContext: AgentsRunContextLike, toolResults: readonly AgentsToolResultLike[]) => AgentsToolUseDecision;
  /**
   * For `tool({ inputGuardrails: [...] })`, on every function tool: refuses a call that would complete a repeat or a
   * cycle before it runs (`rejectContent`: the model reads why as the call's result).
   */
  readonly toolInputGuardrail: AgentsToolInputGuardrail;
  /** For `run(agent, input, { callModelInputFilter })`: adds the loop warnings to the next model call (that call only). */
  readonly callModelInputFilter: <Data extends AgentsModelInputLike>(args: { readonly modelData: Data; readonly context?: unknown }) => Data;
  /**
   * Wires an agent, every agent it can hand off to, theirs, and so on, in place: sets `toolUseBehavior` (running an
   * existing function after the guard's, when the guard does not stop), adds the guardrail to every function tool in
   * `tools`, and records the arguments of every function call the agent runs (tools added later and MCP tools too,
   * which can then be judged but not refused). Wiring twice changes nothing.
   * @returns the agent
   * @throws TypeError when an agent's `toolUseBehavior` is `'stop_on_first_tool'` or `{ stopAtToolNames }`: the guard
   *   cannot take their place without changing what they do; pass a function that does both instead
   */
  guardAgent<Agent extends AgentsAgentLike>(agent: Agent): Agent;
  /**
   * The stop verdict of a run, or `undefined` if the guard did not stop it.
   * @param run - what `run()` returned, the error it threw, its `RunContext`, or the `context` object you passed to it
   */
  verdictOf(run: unknown): StopVerdict | undefined;
  /** The guard of a run (for `summary()` or `snapshot()`), found as {@link verdictOf} finds the run; `undefined` before its first turn. */
  guardOf(run: unknown): Guard | undefined;
}

/** One function call of the turn in progress: what the guardrail or the tool-start event saw of it. */
interface SeenCall {
  readonly name: string;
  readonly args: unknown;
}

/** The guard state of one run. */
interface RunRecord {
  readonly guard: Guard;
  readonly runContext: AgentsRunContextLike;
  /** Calls of the turn in progress the tool-start event saw, in the order it saw them. */
  calls: CallQueue<SeenCall>;
  /** The calls of the turn in progress the guardrail judged. */
  turn: ResponseScreen;
  /** How many calls of the run the guard recorded without their arguments: each gets arguments of its own. */
  unseen: number;
  /** The run's token counts at the last step (zero before the first). */
  tokens: { inputTokens: number; outputTokens: number; totalTokens: number };
  /** The latest step's verdict. */
  verdict: Verdict | undefined;
  /** What the filter will tell the model before its next call. */
  nudge: string | undefined;
  stop: StopVerdict | undefined;
}

const GUARDRAIL_NAME = 'agent-loopguard';

/**
 * Wires a guard into the OpenAI Agents SDK (`@openai/agents`): a tool input guardrail refuses the call that would
 * complete a loop (the tool never runs; the model reads why), `callModelInputFilter` tells the model of a loop that is
 * forming, and `toolUseBehavior` records each turn and stops the run on a stop verdict, with `finalOutput` as the
 * result. A model that asks again for a refused call is stopped.
 *
 * Each run gets its own guard, kept with the run's `RunContext` (one per run, shared by its guardrails, its
 * `toolUseBehavior` and its hooks, however many agents it hands off between), so concurrent runs never share state.
 * The filter is only given the `context` you passed to `run()` (a fresh `{}` per run when you pass none): give
 * concurrent runs their own context objects, or the warning of one may reach the other.
 * @param optionsOrFactory - `GuardOptions`, or a function returning a new guard for a run (given its `RunContext`).
 *   @default {} (the defaults)
 * @param options - callbacks, `finalOutput` and `throwOnBlock`
 * @returns `{ toolUseBehavior, toolInputGuardrail, callModelInputFilter, guardAgent, verdictOf, guardOf }`
 * @throws TypeError from `createGuard` when the options are invalid
 */
export function loopGuardForAgents(
  optionsOrFactory?: GuardOptions | ((runContext: AgentsRunContextLike) => Guard),
  options?: AgentsLoopGuardOptions,
): AgentsLoopGuard {
  const newGuard = guardMaker(optionsOrFactory);
  const throwOnBlock = options?.throwOnBlock === true;
  const finalOutput = options?.finalOutput ?? stopLine;
  const runs = new WeakMap<object, RunRecord>();
  // The filter is given only the user's context object: the latest run that had it.
  const byContext = new WeakMap<object, RunRecord>();
  const wired = new WeakSet();
  const ours = new WeakSet();

  function recordOf(runContext: AgentsRunContextLike): RunRecord {
    let record = runs.get(runContext);
    if (record === undefined) {
      record = {
        guard: newGuard(runContext),
        runContext,
        calls: new CallQueue(),
        turn: new ResponseScreen(),
        unseen: 0,
        // From zero: the first step carries every token the run spent before it (model calls before the first tool).
        tokens: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        verdict: undefined,
        nudge: undefined,
        stop: undefined,
      };
      runs.set(runContext, record);
    }
    const context = safeRead(runContext, 'context');
    if (isObject(context)) byContext.set(context, record);
    return record;
  }

  /** A function call as the guard sees it. A name that is not a string is passed on as it is: the guard ignores it. */
  function callOf(toolCall: unknown): SeenCall {
    return { name: safeRead(toolCall, 'name') as string, args: parseArguments(safeRead(toolCall, 'arguments')) };
  }

  function stopRun(record: RunRecord, verdict: StopVerdict): void {
    record.stop = verdict;
    options?.onStop?.(verdict, record.runContext);
  }

  const toolInputGuardrail: AgentsToolInputGuardrail = {
    type: 'tool_input',
    name: GUARDRAIL_NAME,
    run(data) {
      const runContext = safeRead(data, 'context') as AgentsRunContextLike;
      const toolCall = safeRead(data, 'toolCall') as AgentsFunctionCallLike;
      if (!isObject(runContext)) return Promise.resolve({ behavior: { type: 'allow' } });
      const record = recordOf(runContext);
      const id = safeRead(toolCall, 'callId');
      // With `preApprovalInputGuardrails`, the SDK runs a tool's guardrails before the approval and again after it,
      // with the same call object: the same call gets the same answer, and counts once. Parallel calls are told apart
      // by that object, not by their ids, which some providers reuse or leave empty.
      const verdict = record.turn.judge(record.guard, callOf(toolCall), id, toolCall, (refusal) => {
        options?.onBlock?.(refusal, toolCall, runContext);
        if (throwOnBlock) stopRun(record, refusalStop(refusal));
      });
      if (!verdict.block) return Promise.resolve({ behavior: { type: 'allow' } });
      if (!throwOnBlock) return Promise.resolve({ behavior: { type: 'rejectContent', message: verdict.message } });
      return Promise.resolve({ behavior: { type: 'throwException' }, outputInfo: record.stop });
    },
  };

  function toolUseBehavior(runContext: AgentsRunContextLike, toolResults: readonly AgentsToolResultLike[]): AgentsToolUseDecision {
    if (!isObject(runContext)) return { isFinalOutput: false, isInterrupted: undefined };
    const record = recordOf(runContext);
    const toolCalls: GuardToolCall[] = [];
    for (const result of safeArray(toolResults)) {
      if (safeRead(result, 'type') !== 'function_output') continue;
      const rawItem = safeRead(safeRead(result, 'runItem'), 'rawItem');
      const id = safeRead(rawItem, 'callId');
      const name = safeRead(rawItem, 'name') as string;
      const seen = record.calls.take(id, name);
      // A call the guard neither judged nor saw start (a tool run without the guardrail on an agent that was not
      // wired) gets arguments that equal nothing else: guessing them equal could stop a healthy run.
      const args = seen === undefined ? { '(arguments not seen)': record.unseen++ } : seen.args;
      toolCalls.push(record.turn.recorded(id, { name, args, result: safeRead(result, 'output') }));
    }
    const tokens = tokensOf(runContext);
    const usage: GuardUsage = {
      inputTokens: tokens.inputTokens - record.tokens.inputTokens,
      outputTokens: tokens.outputTokens - record.tokens.outputTokens,
      totalTokens: tokens.totalTokens - record.tokens.totalTokens,
    };
    record.tokens = tokens;
    const verdict = record.guard.check({ toolCalls, finishReason: 'tool-calls', usage });
    record.verdict = verdict;
    record.calls = new CallQueue();
    record.turn = new ResponseScreen();
    if (verdict.stop) {
      stopRun(record, verdict);
      return { isFinalOutput: true, isInterrupted: undefined, finalOutput: finalOutput(verdict) };
    }
    record.nudge = loopMessage(verdict);
    return { isFinalOutput: false, isInterrupted: undefined };
  }
  ours.add(toolUseBehavior);

  function callModelInputFilter<Data extends AgentsModelInputLike>(args: { readonly modelData: Data; readonly context?: unknown }): Data {
    const modelData = safeRead(args, 'modelData') as Data;
    const context = safeRead(args, 'context');
    const record = isObject(context) ? byContext.get(context) : undefined;
    const input = safeRead(modelData, 'input');
    if (record?.nudge === undefined || !Array.isArray(input)) return modelData;
    const nudge: AgentsNudgeMessage = { role: 'user', content: record.nudge };
    // Once: the next model call hears of it, later calls see it only if the loop is still forming.
    record.nudge = undefined;
    options?.onWarning?.(loopWarnings(record.verdict), record.runContext);
    return { ...modelData, input: [...(input as unknown[]), nudge] };
  }

  function behaviourFor(existing: unknown): unknown {
    if (existing === undefined || existing === 'run_llm_again') return toolUseBehavior;
    if (typeof existing !== 'function') {
      throw new TypeError(
        `agent-loopguard: guardAgent cannot wire an agent whose toolUseBehavior is ${JSON.stringify(existing)}; pass a function that stops where you want and returns { isFinalOutput: false } otherwise.`,
      );
    }
    if (ours.has(existing)) return existing;
    const theirs = existing as (runContext: AgentsRunContextLike, toolResults: readonly AgentsToolResultLike[]) => unknown;
    const combined = (runContext: AgentsRunContextLike, toolResults: readonly AgentsToolResultLike[]): unknown => {
      const decision = toolUseBehavior(runContext, toolResults);
      return decision.isFinalOutput ? decision : theirs(runContext, toolResults);
    };
    ours.add(combined);
    return combined;
  }

  function guardAgent<Agent extends AgentsAgentLike>(agent: Agent): Agent {
    const pending: unknown[] = [agent];
    while (pending.length > 0) {
      const next = pending.pop();
      if (!isObject(next) || wired.has(next)) continue;
      wired.add(next);
      const target = next as { toolUseBehavior?: unknown };
      target.toolUseBehavior = behaviourFor(target.toolUseBehavior);
      for (const tool of safeArray(safeRead(next, 'tools'))) {
        if (!isObject(tool) || safeRead(tool, 'type') !== 'function') continue;
        const guardrails = safeArray(safeRead(tool, 'inputGuardrails'));
        if (!guardrails.includes(toolInputGuardrail)) (tool as { inputGuardrails?: unknown }).inputGuardrails = [...guardrails, toolInputGuardrail];
      }
      const on = safeRead(next, 'on');
      if (typeof on === 'function') {
        // Fires for every function call the agent runs, refused ones included: the arguments of calls whose tool has
        // no guardrail (added later, or from an MCP server).
        on.call(next, 'agent_tool_start', (runContext: unknown, _tool: unknown, details: unknown) => {
          if (!isObject(runContext)) return;
          const toolCall = safeRead(details, 'toolCall');
          const call = callOf(toolCall);
          recordOf(runContext).calls.push(safeRead(toolCall, 'callId'), call.name, call);
        });
      }
      // A handoff is an agent, or a `Handoff` holding one.
      for (const handoff of safeArray(safeRead(next, 'handoffs'))) pending.push(safeRead(handoff, 'agent') ?? handoff);
    }
    return agent;
  }

  function recordFor(run: unknown): RunRecord | undefined {
    // The run's RunContext itself, what run() returned (`runContext`), a RunState (`_context`), the error run() threw
    // (its `state`), or the user's context object.
    const candidates = [run, safeRead(run, 'runContext'), safeRead(run, '_context'), safeRead(safeRead(run, 'state'), '_context')];
    for (const candidate of candidates) {
      const record = isObject(candidate) ? runs.get(candidate) : undefined;
      if (record !== undefined) return record;
    }
    return isObject(run) ? byContext.get(run) : undefined;
  }

  return {
    toolUseBehavior,
    toolInputGuardrail,
    callModelInputFilter,
    guardAgent,
    verdictOf: (run) => recordFor(run)?.stop,
    guardOf: (run) => recordFor(run)?.guard,
  };
}

/** The run's token counts so far; a figure that cannot be read counts as 0. */
function tokensOf(runContext: AgentsRunContextLike): { inputTokens: number; outputTokens: number; totalTokens: number } {
  const usage = safeRead(runContext, 'usage');
  return {
    inputTokens: usableNumber(safeRead(usage, 'inputTokens')) ?? 0,
    outputTokens: usableNumber(safeRead(usage, 'outputTokens')) ?? 0,
    totalTokens: usableNumber(safeRead(usage, 'totalTokens')) ?? 0,
  };
}
