import { fileURLToPath } from 'node:url';

/** The five MIT-licensed real runs (see test/fixtures/README.md). */
export const RUNS = fileURLToPath(new URL('../fixtures/runs.jsonl', import.meta.url));
/** The two hand-written stuck runs. */
export const SYNTHETIC = fileURLToPath(new URL('../fixtures/synthetic.jsonl', import.meta.url));
