import { createGuard } from '../guard/create-guard.js';
import { isFault } from '../guard/verdict.js';
import { loopMessage } from '../guard/verdict.js';
import { safeArray, safeRead } from '../utils/read.js';
import type { CallVerdict, Guard, GuardStep, GuardToolCall, Verdict } from '../types.js';
import { argumentError, isRecord } from '../utils/validate.js';
import { isGuard } from './per-run-guard.js';

/** A step as `runAgentLoop` expects it: a {@link GuardStep}, optionally saying whether the agent is done. */
export interface AgentLoopStep extends GuardStep {
  /**
   * Whether this was the agent's last step.
   * @default undefined (done when the step has no tool calls)
   */
  readonly done?: boolean | undefined;
}

/** The part of an `AbortSignal` the loop reads. */
export interface AbortSignalLike {
  readonly aborted: boolean;
}

/** What `runAgentLoop` tells a step before it runs: the guard's latest word, and a way to screen tool calls. */
export interface AgentLoopContext {
  /** The verdict on the previous step; `undefined` before the first. */
  readonly previous: Verdict | undefined;
  /** What to tell the model of a loop that is forming (see `loopMessage`), or `undefined`: add it to the prompt. */
  readonly nudge: string | undefined;
  /**
   * Whether running a tool call would complete a loop (see `guard.judgeCall`): run the call only when it is not
   * refused, and hand the model the refusal's message as the call's result otherwise, marking the call `blocked` in
   * the step you return.
   */
  readonly judgeCall: (call: GuardToolCall, earlier?: readonly GuardToolCall[]) => CallVerdict;
}

/** Options of {@link runAgentLoop}. */
export interface RunAgentLoopOptions<Step extends AgentLoopStep = AgentLoopStep> {
  /**
   * Runs step number `index` (0-based, counted from the guard's first step): call the model, run its tools, report
   * what happened. Errors propagate.
   */
  readonly step: (index: number, context: AgentLoopContext) => Step | PromiseLike<Step>;
  /** The guard that judges each step. @default createGuard() */
  readonly guard?: Guard | undefined;
  /** Checked before every step; once aborted, no further step starts. A running step is not interrupted. @default undefined */
  readonly signal?: AbortSignalLike | undefined;
  /** Called with every verdict, right after the step it judges. Errors propagate. @default undefined */
  readonly onVerdict?: ((verdict: Verdict, step: Step, index: number) => void) | undefined;
}

/** How a loop run ended. */
export interface AgentLoopResult<Step extends AgentLoopStep = AgentLoopStep> {
  /** What `step` returned, in order. */
  readonly steps: readonly Step[];
  /** The verdict on the last step; `{ stop: false }` when no step ran. */
  readonly verdict: Verdict;
  /**
   * The agent ended the run itself: a done step the guard let through, or a stop that is not a fault (a normal
   * `stop` finish). False when the guard cut the run short, the finish reason was a fault such as `length`, or the
   * signal aborted.
   */
  readonly completed: boolean;
  /** The signal was aborted before a step started. */
  readonly aborted: boolean;
}

/**
 * Runs `step(0)`, `step(1)`, ... until the agent is done, the guard says stop, or the signal aborts. With a guard
 * that has seen steps already (restored from a snapshot), numbering goes on from its step count.
 *
 * A step is done when it sets `done: true`, or, without `done`, when it has no tool calls. The guard sees every step,
 * done or not, so a done step can still be judged a fault (its finish reason was `length`, say).
 * @param options - `step`, and optionally `guard`, `signal` and `onVerdict`
 * @returns the steps, the last verdict, and whether the run completed or was aborted
 */
export async function runAgentLoop<Step extends AgentLoopStep>(
  options: RunAgentLoopOptions<Step>,
): Promise<AgentLoopResult<Step>> {
  const given: unknown = options;
  if (!isRecord(given) || typeof given.step !== 'function') {
    argumentError('runAgentLoop takes { step, guard?, signal?, onVerdict? }, where step is a function that runs one step', isRecord(given) ? given.step : given);
  }
  if (given.guard !== undefined && !isGuard(given.guard)) argumentError('runAgentLoop\'s guard is one createGuard() made', given.guard);
  const { step: runStep, signal, onVerdict } = options;
  const guard = options.guard ?? createGuard();
  const steps: Step[] = [];
  let verdict: Verdict = { stop: false };
  // A guard restored from a snapshot has seen steps already: numbering goes on from there.
  for (let index = guard.summary().steps; ; index++) {
    if (signal?.aborted === true) return { steps, verdict, completed: false, aborted: true };
    const previous = steps.length === 0 ? undefined : verdict;
    const step = await runStep(index, { previous, nudge: loopMessage(previous), judgeCall: (call, earlier) => guard.judgeCall(call, earlier) });
    // The step function is the caller's code: a step that is not an object is its mistake, named here, not in check.
    if (!isRecord(step)) argumentError(`runAgentLoop's step must return (or resolve to) a step object such as { toolCalls, text, finishReason }; step(${String(index)}) returned something else`, step);
    steps.push(step);
    verdict = guard.check(step);
    onVerdict?.(verdict, step, index);
    if (verdict.stop) return { steps, verdict, completed: !isFault(verdict), aborted: false };
    if (isDone(step)) return { steps, verdict, completed: true, aborted: false };
  }
}

function isDone(step: unknown): boolean {
  const done = safeRead(step, 'done');
  if (typeof done === 'boolean') return done;
  return safeArray(safeRead(step, 'toolCalls')).length === 0;
}
