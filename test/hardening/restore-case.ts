/**
 * Steps described as plain JSON, so a test and the worker process it restores a guard in build the same steps, with
 * values whose reading throws where the description says so. Shared by restore-in-worker.test.ts and
 * restore-worker.ts.
 */
import type { GuardOptions, GuardStep, GuardToolCall } from '../../src/index.js';

/** A value: plain JSON, or one whose reading throws (an object with a throwing getter). */
export type ValueSpec = { readonly json: unknown } | { readonly unreadable: true };

export interface CallSpec {
  readonly name: string;
  readonly args?: ValueSpec;
  readonly result?: ValueSpec;
  readonly error?: ValueSpec;
}

export interface StepSpec {
  readonly calls: readonly CallSpec[];
  readonly text?: string;
}

/** The options of both guards: a clock of their own, so their snapshots hold the same times. */
export const CASE_OPTIONS: GuardOptions = { now: () => 0 };

function build(spec: ValueSpec): unknown {
  if ('json' in spec) return spec.json;
  const value = {};
  Object.defineProperty(value, 'status', {
    enumerable: true,
    get() {
      throw new Error('unreadable on purpose');
    },
  });
  return value;
}

/** The step a description stands for, built afresh. */
export function buildStep(spec: StepSpec): GuardStep {
  const toolCalls = spec.calls.map((call): GuardToolCall => {
    const built: { name: string; args?: unknown; result?: unknown; error?: unknown } = { name: call.name };
    if (call.args !== undefined) built.args = build(call.args);
    if (call.result !== undefined) built.result = build(call.result);
    if (call.error !== undefined) built.error = build(call.error);
    return built;
  });
  return spec.text === undefined ? { toolCalls } : { toolCalls, text: spec.text };
}

/** What the worker is asked: restore this snapshot, check these steps. */
export interface RestoreRequest {
  readonly snapshot: unknown;
  readonly steps: readonly StepSpec[];
}

/** What it answers: every verdict, and the snapshot after the last step. */
export interface RestoreAnswer {
  readonly verdicts: readonly unknown[];
  readonly snapshot: unknown;
}
