/** The report's steering section: loop warnings shown, and tool calls `judgeCall` would have refused. */
import { markdownTable } from './markdown-table.js';
import { count, plural, ratio } from './numbers.js';
import type { LabelSteering, SteeringTotals } from './steering.js';

/** One source's steering, replayed both ways (see `RefusalMode`). */
export interface SourceSteering {
  readonly source: string;
  /** Refused calls passed to `check` as recorded: the warnings, and the refusals up to the guard's stop. */
  readonly recorded: SteeringTotals;
  /** Refused calls passed to `check` marked `blocked`, as the steering adapters do. */
  readonly blocked: SteeringTotals;
}

function warned(label: LabelSteering): string {
  return label.runs === 0 ? '–' : `${ratio(label.runsWarned, label.runs)}, ${plural(label.warnings, 'warning')}`;
}

function refused(label: LabelSteering): string {
  if (label.runs === 0) return '–';
  return `${count(label.refusedCalls)} of ${plural(label.calls, 'call')}, in ${plural(label.runsRefused, 'run')}`;
}

function bold(row: SourceSteering, total: SourceSteering): string {
  return row === total ? `**${row.source}**` : row.source;
}

/**
 * The warnings table: per source and in total, the runs of each label that were shown at least one `LOOP_WARNING`
 * before their last step, and how many warnings there were.
 */
export function warningsTable(rows: readonly SourceSteering[], total: SourceSteering): string {
  return markdownTable(
    ['source', 'healthy runs warned', 'stuck runs warned', 'ambiguous runs warned'],
    [...rows, total].map((row) => [bold(row, total), warned(row.recorded.healthy), warned(row.recorded.stuck), warned(row.recorded.ambiguous)]),
  );
}

/**
 * The refusals table: per source and in total, the calls `judgeCall` would have refused in healthy runs (false
 * blocks) and in stuck runs (tool executions saved), both ways of replaying them.
 */
export function refusalsTable(rows: readonly SourceSteering[], total: SourceSteering): string {
  return markdownTable(
    [
      'source',
      'healthy: refused, as recorded',
      'healthy: refused, blocked',
      'stuck: refused, as recorded',
      'stuck: refused, blocked',
    ],
    [...rows, total].map((row) => [
      bold(row, total),
      refused(row.recorded.healthy),
      refused(row.blocked.healthy),
      refused(row.recorded.stuck),
      refused(row.blocked.stuck),
    ]),
  );
}
