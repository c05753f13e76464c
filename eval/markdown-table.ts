/**
 * A Markdown table. The first column is left-aligned, the others right-aligned (they hold figures).
 * @param headers - column titles
 * @param rows - cells, row by row
 */
export function markdownTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const escape = (cell: string): string => cell.replace(/\|/g, '\\|');
  const lines = [
    `| ${headers.map(escape).join(' | ')} |`,
    `| ${headers.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(escape).join(' | ')} |`),
  ];
  return lines.join('\n');
}
