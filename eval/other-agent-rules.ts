/**
 * The loop rules other agents publish, written from their descriptions as custom detectors, so the eval can replay
 * them through the same code path as the guard's own detectors. Each looks only at the history it is given.
 */
import type { CustomDetector, CustomStop, GuardStep } from '../src/index.js';

/** One tool call as these agents compare it: name plus `JSON.stringify(args)`, and what came back. */
interface CallEvent {
  readonly key: string;
  readonly observation: string;
  readonly failed: boolean;
}

const callsOfStep = new WeakMap<GuardStep, readonly CallEvent[]>();

/** `JSON.stringify`, typed as it behaves: `undefined` for `undefined` and functions. */
const stringify = JSON.stringify as (value: unknown) => string | undefined;

function text(value: unknown): string {
  return typeof value === 'string' ? value : (stringify(value) ?? '');
}

function stepCalls(step: GuardStep): readonly CallEvent[] {
  let calls = callsOfStep.get(step);
  if (calls === undefined) {
    calls = (step.toolCalls ?? []).map((call) => ({
      key: `${call.name}\u0000${stringify(call.args) ?? ''}`,
      observation: text(call.result),
      failed: call.error !== undefined && call.error !== null,
    }));
    callsOfStep.set(step, calls);
  }
  return calls;
}

function allCalls(history: readonly GuardStep[]): CallEvent[] {
  return history.flatMap(stepCalls);
}

/** Whether the calls ending at `end` are a cycle of `period` calls repeated `repeats` times in a row. */
function cycleAt(keys: readonly string[], end: number, period: number, repeats: number): boolean {
  const start = end - period * repeats;
  if (start < 0) return false;
  for (let i = start + period; i < end; i++) if (keys[i] !== keys[i - period]) return false;
  return true;
}

/** Length of the run of identical keys ending at `end`. */
function identicalRunAt(keys: readonly string[], end: number): number {
  let count = 1;
  while (end - count - 1 >= 0 && keys[end - count - 1] === keys[end - 1]) count++;
  return end === 0 ? 0 : count;
}

/** Each call position the latest step added, so a pattern completed mid-step is not missed. */
function newEnds(history: readonly GuardStep[], total: number): number[] {
  const latest = history.at(-1);
  const added = latest === undefined ? 0 : stepCalls(latest).length;
  return Array.from({ length: added }, (_, i) => total - added + i + 1);
}

function stop(code: string, detail: string): CustomStop {
  return { stop: true, code, detail };
}

/** Gemini CLI, as described to us: any cycle of 1 to 5 calls repeated 5 times in a row. */
export const geminiCli: CustomDetector = (history) => {
  const keys = allCalls(history).map((call) => call.key);
  for (const end of newEnds(history, keys.length)) {
    for (let period = 1; period <= 5; period++) {
      if (cycleAt(keys, end, period, 5)) return stop('GEMINI_CLI', `A cycle of ${String(period)} calls repeated 5 times.`);
    }
  }
  return undefined;
};

/** The same identical call `limit` times in a row. */
function identicalCalls(code: string, limit: number): CustomDetector {
  return (history) => {
    const keys = allCalls(history).map((call) => call.key);
    for (const end of newEnds(history, keys.length)) {
      if (identicalRunAt(keys, end) >= limit) return stop(code, `The same call ${String(limit)} times in a row.`);
    }
    return undefined;
  };
}

/** Roo Code: blocks the 4th identical call in a row. */
export const rooCode: CustomDetector = identicalCalls('ROO_CODE', 4);

/** Cline: stops at the 5th identical call in a row. */
export const cline: CustomDetector = identicalCalls('CLINE', 5);

/**
 * OpenHands' stuck detector: 4 identical action-observation pairs in a row; 3 identical actions in a row that each
 * failed; 3 identical agent messages in a row with no action between them; or the last 6 actions alternating A B A B
 * A B with their observations alternating too.
 */
export const openHands: CustomDetector = (history) => {
  const calls = allCalls(history);
  const pairs = calls.map((call) => `${call.key}\u0000${call.observation}`);
  const keys = calls.map((call) => call.key);
  for (const end of newEnds(history, calls.length)) {
    if (identicalRunAt(pairs, end) >= 4) return stop('OPENHANDS_REPEAT', '4 identical action-observation pairs.');
    if (identicalRunAt(keys, end) >= 3 && calls.slice(end - 3, end).every((call) => call.failed)) {
      return stop('OPENHANDS_ERRORS', '3 identical actions that all failed.');
    }
    if (cycleAt(keys, end, 2, 3) && keys[end - 1] !== keys[end - 2] && cycleAt(pairs, end, 2, 3)) {
      return stop('OPENHANDS_ALTERNATION', 'A B A B A B with repeating observations.');
    }
  }
  const lastThree = history.slice(-3);
  if (lastThree.length === 3 && lastThree.every((step) => stepCalls(step).length === 0)) {
    const [first, ...rest] = lastThree.map((step) => step.text ?? '');
    if (rest.every((message) => message === first)) return stop('OPENHANDS_MONOLOGUE', '3 identical agent messages in a row.');
  }
  return undefined;
};
