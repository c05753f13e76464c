import type { ReplayStop, RunReplay } from '../../src/cli/replay-run.js';
import type { RunLabel } from '../../src/cli/run-label.js';

/** A replayed run, built by hand for tests of what comes after the replay. */
export function replayOf(
  label: RunLabel | null,
  stop: Partial<ReplayStop> | null,
  extra: Partial<RunReplay> = {},
): RunReplay {
  return {
    id: 'r',
    file: 'f.jsonl',
    line: 1,
    steps: 10,
    stop: stop === null ? null : { index: 0, reason: 'max-steps', code: 'MAX_STEPS', fault: true, detail: 'd', ...stop },
    label,
    falseStop: false,
    caught: false,
    afterStop: { steps: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0 },
    ...extra,
  };
}
