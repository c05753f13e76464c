import { printable } from '../utils/text.js';
import type { CliIo } from './io.js';
import type { InputError, RecordedRun } from './read-runs.js';
import { recordsCost, type ReplayStop, type ReplaySummary, type RunReplay } from './replay.js';

/**
 * Input errors the `--json` report lists (1,000); `errorsNotListed` counts the others. Each is on stderr as well,
 * so none is lost, and the report's memory does not grow with the number of bad lines.
 */
export const MAX_LISTED_ERRORS = 1000;

/**
 * The `file:line: message` form editors and terminals recognise, on one line: the file name and the message (which
 * can quote the input) are escaped with `printable`.
 * @param error - the problem
 */
export function formatInputError(error: InputError): string {
  const where = error.line === null ? error.file : `${error.file}:${error.line}`;
  return printable(`${where}: ${error.message}`);
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
 * Id, code and detail come from the input, so they are escaped with `printable`: a newline or terminal escape in a
 * run id or tool name cannot forge report lines.
 * @param replay - the replayed run
 * @param stop - its stop
 */
export function formatStopLine(replay: RunReplay, stop: ReplayStop): string {
  const step = `step ${stop.index + 1}/${replay.steps}`;
  return `${printable(replay.id)}  ${step}  ${printable(stop.code)}  ${printable(stop.detail)}\n`;
}

/** What the text summary needs besides the totals. */
export interface SummaryContext {
  /** How many lines or files could not be read. */
  readonly badInputs: number;
  /** Whether some stuck run recorded a cost: without one, the saved cost is written as unknown rather than $0.00. */
  readonly costKnown: boolean;
  /** The pattern that made runs stuck, named in the summary. */
  readonly stuckStatus: RegExp;
}

/**
 * The summary block of the text report.
 * @param summary - totals over the replayed runs
 * @param context - bad inputs, whether costs are known, and the stuck pattern
 */
export function formatSummary(summary: ReplaySummary, context: SummaryContext): string {
  const lines = [`runs: ${count(summary.runs)}, stopped: ${count(summary.stopped)}, fault stops: ${count(summary.faultStops)}`];
  const codes = Object.entries(summary.stopsByCode).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  lines.push(`stops by code: ${codes.length === 0 ? 'none' : codes.map(([code, n]) => `${printable(code)} ${count(n)}`).join(', ')}`);
  lines.push(`median stop step: ${summary.medianStopStep === null ? '-' : String(summary.medianStopStep)}`);

  const { healthy, stuck, ambiguous } = summary;
  if (healthy.runs + stuck.runs + ambiguous.runs > 0) {
    lines.push(
      `healthy runs (resolved): ${count(healthy.runs)}, false stops: ${count(healthy.falseStops)}${share(healthy.falseStops, healthy.runs)}`,
    );
    const saved = stuck.saved;
    // Unknown is not zero: runs that record no cost saved an unknown amount of it.
    const cost = context.costKnown ? `$${saved.costUsd.toFixed(2)}` : 'cost unknown';
    lines.push(
      `stuck runs (unresolved, ${printable(context.stuckStatus.source)}): ${count(stuck.runs)}, ` +
        `catches: ${count(stuck.catches)}${share(stuck.catches, stuck.runs)}, ` +
        `saving ${count(saved.steps)} steps, ${count(saved.totalTokens)} tokens, ${cost}`,
    );
    lines.push(
      `ambiguous runs (other unresolved): ${count(ambiguous.runs)}, fault stops: ${count(ambiguous.faultStops)}${share(ambiguous.faultStops, ambiguous.runs)}`,
    );
  }
  const shape = summary.inputShape;
  if (shape.runs > 0) {
    const fields = Object.keys(shape.fields).sort().map((field) => printable(field)).join(', ');
    lines.push(`runs with steps in another shape, not read (INPUT_SHAPE): ${count(shape.runs)} (${fields})`);
  }
  if (context.badInputs > 0) lines.push(`bad input: ${count(context.badInputs)} (reported on stderr)`);
  return `${lines.join('\n')}\n`;
}

/** A report written as the runs are replayed, so nothing but its totals is kept. */
export interface ReportWriter {
  /** Reports one replayed run, given with the recorded run it came from. */
  run(replay: RunReplay, recorded: RecordedRun): void;
  /** Notes an input problem (the caller has written it to stderr). */
  error(error: InputError): void;
  /** Writes the end of the report. */
  end(summary: ReplaySummary): void;
}

/**
 * The text report: a line per stopped run as it is replayed, then a blank line and the summary.
 * @param io - where it goes
 * @param stuckStatus - the pattern that made runs stuck, named in the summary
 */
export function textReport(io: CliIo, stuckStatus: RegExp): ReportWriter {
  let stopLines = 0;
  let badInputs = 0;
  let costKnown = false;
  return {
    run(replay, recorded) {
      costKnown ||= replay.label === 'stuck' && recordsCost(recorded.steps);
      if (replay.stop === null) return;
      io.stdout(formatStopLine(replay, replay.stop));
      stopLines++;
    },
    error() {
      badInputs++;
    },
    end(summary) {
      io.stdout(`${stopLines > 0 ? '\n' : ''}${formatSummary(summary, { badInputs, costKnown, stuckStatus })}`);
    },
  };
}

/** JSON text of a value nested at `indent`: every line after the first indented, as `JSON.stringify` nests it. */
function nestedJson(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replaceAll('\n', `\n${indent}`);
}

/**
 * The `--json` report, `{"runs": [...], "summary": {...}, "errors": [...]}`, written a run at a time with the layout
 * of `JSON.stringify(report, null, 2)`, so its memory does not grow with the number of runs. It lists the first
 * `maxListedErrors` input errors and, only when there were more, counts the rest in a last `errorsNotListed` field.
 * @param io - where it goes
 * @param maxListedErrors - errors to list at most
 */
export function jsonReport(io: CliIo, maxListedErrors = MAX_LISTED_ERRORS): ReportWriter {
  const errors: InputError[] = [];
  let notListed = 0;
  let runs = 0;
  io.stdout('{\n  "runs": [');
  return {
    run(replay) {
      io.stdout(`${runs === 0 ? '' : ','}\n    ${nestedJson(replay, '    ')}`);
      runs++;
    },
    error(error) {
      if (errors.length < maxListedErrors) errors.push(error);
      else notListed++;
    },
    end(summary) {
      const more = notListed > 0 ? `,\n  "errorsNotListed": ${notListed}` : '';
      io.stdout(
        `${runs === 0 ? '' : '\n  '}],\n  "summary": ${nestedJson(summary, '  ')},\n  "errors": ${nestedJson(errors, '  ')}${more}\n}\n`,
      );
    },
  };
}
