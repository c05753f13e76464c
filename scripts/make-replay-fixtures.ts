/**
 * Rebuilds test/fixtures/runs.jsonl from the MIT-licensed trace files in ../shared/traces (see test/fixtures/README.md).
 * Long tool results and texts are cut to head and tail around a marker carrying the cut text's length and SHA-1, so two
 * values compare equal after the cut exactly when they did before. Run: npx tsx scripts/make-replay-fixtures.ts [DIR]
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const traces = process.argv[2] ?? join(root, '..', 'shared', 'traces');

const PICKS: Record<string, readonly string[]> = {
  'mini-swe-agent-gemini-3-pro': ['mini/django__django-11163', 'mini/django__django-16100', 'mini/django__django-15127'],
  'tau-bench-airline-gpt-4o': ['tau/airline-task26-trial0#5', 'tau/airline-task9-trial2#7'],
};
const KEEP = 160;

function cut(text: string): string {
  if (text.length <= 2 * KEEP + 80) return text;
  const sha1 = createHash('sha1').update(text).digest('hex').slice(0, 16);
  return `${text.slice(0, KEEP)}\n...[${String(text.length)} chars, sha1 ${sha1}]...\n${text.slice(-KEEP)}`;
}

interface Step {
  text?: string;
  toolCalls?: { name: string; args?: unknown; result?: unknown }[];
}

const lines: string[] = [];
for (const [source, ids] of Object.entries(PICKS)) {
  const runs = gunzipSync(readFileSync(join(traces, `${source}.jsonl.gz`)))
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { id: string; steps: Step[] });
  for (const id of ids) {
    const run = runs.find((candidate) => candidate.id === id);
    if (run === undefined) throw new Error(`${source}: no run ${id}`);
    for (const step of run.steps) {
      if (typeof step.text === 'string') step.text = cut(step.text);
      for (const call of step.toolCalls ?? []) if (typeof call.result === 'string') call.result = cut(call.result);
    }
    lines.push(JSON.stringify(run));
  }
}
writeFileSync(join(root, 'test', 'fixtures', 'runs.jsonl'), `${lines.join('\n')}\n`);
console.log(`wrote ${String(lines.length)} runs`);
