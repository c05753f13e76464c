import type { Guard } from '../../src/index.js';

/** One remembered key with the last step that brought it, as snapshots write it. */
export type SavedKey = readonly [key: string, stepIndex: number];

/** The run memory a version 2 snapshot holds: the call outcomes seen, and the answers stagnation asked to remember. */
export interface SavedMemory {
  readonly outcomes: readonly SavedKey[];
  readonly answers: readonly SavedKey[];
}

/** The `memory` field of a guard's snapshot. */
export function memoryOf(guard: Guard): SavedMemory {
  return guard.snapshot().memory;
}
