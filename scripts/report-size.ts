// Prints the size of the built ESM entry (or of the bundle named as the first argument) against the budget.
// Run after `npm run build`; exits 1 when the budget is spent.
import { readFileSync } from 'node:fs';
import { ESM_ENTRY_GZIP_BUDGET_BYTES, measureEntry } from './size-budget.js';

const entry = process.argv[2] ?? 'dist/index.js';
const size = await measureEntry(readFileSync(entry, 'utf8'));
const share = ((size.gzipped / ESM_ENTRY_GZIP_BUDGET_BYTES) * 100).toFixed(0);
console.log(
  `${entry}: ${String(size.raw)} B as built, ${String(size.minified)} B minified, ` +
    `${String(size.gzipped)} B minified and gzipped (budget ${String(ESM_ENTRY_GZIP_BUDGET_BYTES)} B, ${share}% used)`,
);
if (size.gzipped >= ESM_ENTRY_GZIP_BUDGET_BYTES) process.exitCode = 1;
