import type { InputError } from './read-runs.js';
import type { ReplayStop, ReplaySummary, RunReplay } from './replay.js';

/**
 * The `file:line: message` form editors and terminals recognise.
 * @param error - the problem
 */
export function formatInputError(error: InputError): string {
  const where = error.line === null ? error.file : `${error.file}:${String(error.line)}`;
  return `${where}: ${error.message}`;
}

/** Digits grouped by thousands, without depending on the locale. */
function count(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function share(part: number, whole: number): string {
  return whole === 0 ? '' : ` (${((100 * part) / whole).toFixed(1)}%)`;
}

/**
 * The line for one replayed run that stopped: id, 1-based step of the stop out of the run's steps, code and detail.
 * @param replay - the replayed run
 * @param stop - its stop
 */
export function formatStopLine(replay: RunReplay, stop: ReplayStop): string {
  const { index, code, detail } = stop;
  return `${replay.id}  step ${String(index + 1)}/${String(replay.steps)}  ${code}  ${detail}\n`;
}

/**
 * The summary block of the text report.
 * @param summary - totals over the replayed runs
 * @param badInputs - how many lines or files could not be read
 */
export function formatSummary(summary: ReplaySummary, badInputs: number): string {
  const lines = [`runs: ${count(summary.runs)}, stopped: ${count(summary.stopped)}, fault stops: ${count(summary.faultStops)}`];
  const codes = Object.entries(summary.stopsByCode).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  lines.push(`stops by code: ${codes.length === 0 ? 'none' : codes.map(([code, n]) => `${code} ${count(n)}`).join(', ')}`);
  lines.push(`median stop step: ${summary.medianStopStep === null ? '-' : String(summary.medianStopStep)}`);

  const { healthy, stuck, ambiguous } = summary;
  if (healthy.runs + stuck.runs + ambiguous.runs > 0) {
    lines.push(
      `healthy runs (resolved): ${count(healthy.runs)}, false stops: ${count(healthy.falseStops)}${share(healthy.falseStops, healthy.runs)}`,
    );
    const saved = stuck.saved;
    lines.push(
      `stuck runs (unresolved, exit_cost): ${count(stuck.runs)}, catches: ${count(stuck.catches)}${share(stuck.catches, stuck.runs)}, ` +
        `saving ${count(saved.steps)} steps, ${count(saved.totalTokens)} tokens, $${saved.costUsd.toFixed(2)}`,
    );
    lines.push(
      `ambiguous runs (other unresolved): ${count(ambiguous.runs)}, fault stops: ${count(ambiguous.faultStops)}${share(ambiguous.faultStops, ambiguous.runs)}`,
    );
  }
  if (badInputs > 0) lines.push(`bad input: ${count(badInputs)} (reported on stderr)`);
  return `${lines.join('\n')}\n`;
}

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
