import type { RunOutcome } from './recorded-run.js';

/**
 * What a run's outcome says about stopping it early. `healthy`: the task was solved, so a fault stop before its last
 * step is a false stop. `stuck`: unsolved and ended by its call or cost limit (`exit_cost`), so a fault stop is a catch.
 * `ambiguous`: unsolved for another reason.
 */
export type RunLabel = 'healthy' | 'stuck' | 'ambiguous';

/**
 * Labels a run by its outcome.
 * @param outcome - the run's outcome, if any
 * @returns the label, or `null` when the outcome does not say whether the task was solved
 */
export function labelRun(outcome: RunOutcome | null): RunLabel | null {
  const resolved = outcome?.resolved ?? null;
  if (resolved === null) return null;
  if (resolved) return 'healthy';
  return outcome?.exitStatus?.includes('exit_cost') === true ? 'stuck' : 'ambiguous';
}
