import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listTraceFiles, loadRuns, sourceName } from '../../eval/corpus.js';

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'eval-corpus-'));
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

describe('sourceName', () => {
  it('strips the trace file endings and ignores other files', () => {
    expect(sourceName('tau-bench.jsonl.gz')).toBe('tau-bench');
    expect(sourceName('a.b.jsonl')).toBe('a.b');
    expect(sourceName('runs.json.gz')).toBe('runs');
    expect(sourceName('README.md')).toBeUndefined();
    expect(sourceName('.jsonl')).toBeUndefined();
  });
});

describe('listTraceFiles', () => {
  it('reads each source once, the first folder winning, and says whether a skipped copy was identical', () => {
    const run = '{"steps":[]}\n';
    const data = folder({ 'a.jsonl': run, 'README.md': '# not a trace' });
    const shared = folder({ 'a.jsonl': run, 'b.jsonl': run });
    const other = folder({ 'b.jsonl': `${run}${run}` });
    const listed = listTraceFiles([data, shared, other, join(data, 'missing')]);
    expect(listed.files).toEqual([
      { source: 'a', path: join(data, 'a.jsonl') },
      { source: 'b', path: join(shared, 'b.jsonl') },
    ]);
    expect(listed.skipped).toEqual([
      { source: 'a', path: join(shared, 'a.jsonl'), identical: true },
      { source: 'b', path: join(other, 'b.jsonl'), identical: false },
    ]);
    expect(listed.missing).toEqual([join(data, 'missing')]);
  });
});

describe('loadRuns', () => {
  it('returns the runs and counts the lines that are not runs', async () => {
    const dir = folder({ 'x.jsonl': '{"id":"1","steps":[{}]}\nnot json\n{"steps":[]}\n' });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const { runs, badInputs } = await loadRuns({ source: 'x', path: join(dir, 'x.jsonl') });
      expect(runs.map((run) => run.steps.length)).toEqual([1, 0]);
      expect(badInputs).toBe(1);
      expect(errors).toHaveLength(1);
    } finally {
      console.error = original;
    }
  });
});
