// Prints what the size budgets measure, against them: the root ES module entry with the chunks it imports, minified
// and gzipped; the tarball and its unpacked files, as `npm pack` reports them. Each subpath is printed too, its own file
// and with its chunks, for the record; no budget holds them. Run after `npm run build`; exits 1 when a budget is spent.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import {
  INSTALLED_BUDGET_BYTES,
  ROOT_ENTRY_GZIP_BUDGET_BYTES,
  TARBALL_BUDGET_BYTES,
  measureBundledEntry,
} from './size-budget.js';

interface PackResult {
  readonly size: number;
  readonly unpackedSize: number;
}

const overBudget: string[] = [];

function against(name: string, measured: number, budget: number): string {
  if (measured > budget) overBudget.push(name);
  const share = ((measured / budget) * 100).toFixed(0);
  return `budget ${String(budget)} B, ${share}% used${measured > budget ? ', OVER BUDGET' : ''}`;
}

const root = await measureBundledEntry('dist/index.js');
console.log(
  `dist/index.js with its chunks: ${String(root.raw)} B as built, ${String(root.minified)} B minified, ` +
    `${String(root.gzipped)} B minified and gzipped (${against('root entry', root.gzipped, ROOT_ENTRY_GZIP_BUDGET_BYTES)})`,
);

const { exports } = JSON.parse(readFileSync('package.json', 'utf8')) as { exports: Record<string, unknown> };
const subpaths = Object.keys(exports).filter((key) => key.startsWith('./') && key !== './package.json');
for (const subpath of subpaths) {
  const entry = `dist/${subpath.slice(2)}.js`;
  const { gzipped } = await measureBundledEntry(entry);
  console.log(`${entry}: ${String(statSync(entry).size)} B of its own, ${String(gzipped)} B minified and gzipped with its chunks`);
}

const output = execFileSync('npm', ['pack', '--dry-run', '--json'], { encoding: 'utf8' });
const [packed] = JSON.parse(output) as PackResult[];
if (packed === undefined) throw new Error(`npm pack reported no tarball: ${output}`);
console.log(`tarball: ${String(packed.size)} B (${against('tarball', packed.size, TARBALL_BUDGET_BYTES)})`);
console.log(`installed: ${String(packed.unpackedSize)} B (${against('installed', packed.unpackedSize, INSTALLED_BUDGET_BYTES)})`);
if (overBudget.length > 0) process.exitCode = 1;
