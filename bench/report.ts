/**
 * A benchmark file's findings as data, so the runner can gather every file's section into `bench/RESULTS.md`.
 * Each file prints its section as Markdown too, so it stays useful when run on its own.
 */
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** A Markdown table. */
export interface Table {
  readonly caption?: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** One target of the benchmark issue, and whether this run met it. */
export interface TargetCheck {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean;
}

/** What one benchmark file reports. */
export interface Section {
  readonly title: string;
  /** What is measured and how, in a sentence or two. */
  readonly method: string;
  readonly tables: readonly Table[];
  readonly targets: readonly TargetCheck[];
  readonly notes: readonly string[];
}

/** The environment variable through which the runner asks for a file's section as JSON. */
export const REPORT_DIRECTORY_VARIABLE = 'AGENT_LOOPGUARD_BENCH_REPORTS';

/** Nanoseconds in a readable unit. */
export function formatNs(ns: number): string {
  if (!Number.isFinite(ns)) return 'n/a';
  if (ns < 1_000) return `${ns.toFixed(0)} ns`;
  if (ns < 1_000_000) return `${(ns / 1_000).toFixed(2)} µs`;
  if (ns < 1_000_000_000) return `${(ns / 1_000_000).toFixed(2)} ms`;
  return `${(ns / 1_000_000_000).toFixed(2)} s`;
}

/** A ratio such as `1.23x`. */
export function formatRatio(ratio: number): string {
  return Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : 'n/a';
}

/**
 * A ratio judged against a target: as {@link formatRatio}, with as many more decimals as it takes for the figure not to
 * round onto the other side of the target (1.2004 against 1.2 reads 1.2004x, not 1.20x beside "no").
 * @param ratio - the measured ratio
 * @param target - the largest ratio that meets the target
 */
export function formatRatioAgainst(ratio: number, target: number): string {
  if (!Number.isFinite(ratio)) return formatRatio(ratio);
  let decimals = 2;
  while (decimals < 8 && Number(ratio.toFixed(decimals)) <= target !== ratio <= target) decimals++;
  return `${ratio.toFixed(decimals)}x`;
}

/** Bytes in a readable unit. */
export function formatBytes(bytes: number): string {
  const size = Math.abs(bytes);
  const text = size < 1024 ? `${size.toFixed(0)} B` : size < 1024 * 1024 ? `${(size / 1024).toFixed(1)} KiB` : `${(size / 1024 / 1024).toFixed(1)} MiB`;
  // A slope of -0.3 bytes is written 0 B, not -0 B.
  return bytes < 0 && /[1-9]/.test(text) ? `-${text}` : text;
}

/** A Markdown table, cells escaped for pipes. */
export function tableToMarkdown(table: Table): string {
  const cell = (text: string): string => text.replaceAll('|', '\\|');
  const lines = [
    `| ${table.header.map(cell).join(' | ')} |`,
    `| ${table.header.map(() => '---').join(' | ')} |`,
    ...table.rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ];
  return table.caption === undefined ? lines.join('\n') : `${table.caption}\n\n${lines.join('\n')}`;
}

/** A section as Markdown, headed at level 2. */
export function sectionToMarkdown(section: Section): string {
  const parts = [`## ${section.title}`, section.method];
  for (const table of section.tables) parts.push(tableToMarkdown(table));
  if (section.targets.length > 0) {
    parts.push(
      tableToMarkdown({
        header: ['Target', 'Measured', 'Met'],
        rows: section.targets.map((check) => [check.target, check.measured, check.met ? 'yes' : '**no**']),
      }),
    );
  }
  for (const note of section.notes) parts.push(note);
  return parts.join('\n\n');
}

/** Prints the section, and hands it to the runner as JSON when the runner asked for it. */
export function publish(file: string, section: Section): void {
  console.log(`\n${sectionToMarkdown(section)}\n`);
  const directory = process.env[REPORT_DIRECTORY_VARIABLE];
  if (directory !== undefined && directory !== '') {
    writeFileSync(join(directory, `${basename(file)}.json`), JSON.stringify(section));
  }
}
