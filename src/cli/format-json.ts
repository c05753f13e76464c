import type { InputError } from './input-error.js';
import type { RunReplay } from './replay-run.js';
import type { ReplaySummary } from './summarize.js';

/** The `--json` report: every run, the summary, and every input problem. */
export interface JsonReport {
  readonly runs: readonly RunReplay[];
  readonly summary: ReplaySummary;
  readonly errors: readonly InputError[];
}

/**
 * The `--json` report as text, one JSON document.
 * @param report - runs, summary and errors
 */
export function formatJson(report: JsonReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
