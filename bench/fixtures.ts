/**
 * Inputs shared by the guard benchmarks: a realistic agent step is one tool call with a small argument object and a
 * result of about 2 KB. Arguments carry the step number so that no detector ever stops a long run.
 */
import type { GuardStep } from '../src/index.js';

/**
 * The text as a flat string, the kind `JSON.parse` returns. A template literal can leave a rope of pieces that V8
 * flattens in place the first time it is read; data parsed from a model or a tool never looks like that, and the
 * flattening would be counted against whoever reads the string first.
 */
function flat(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/** Arguments in the shape `{ query, limit, filters }`, unique per step number. */
export function searchArgs(stepNumber: number): { query: string; limit: number; filters: { lang: string; after: string } } {
  return { query: flat(`agent loop detection, page ${String(stepNumber)}`), limit: 10, filters: { lang: 'en', after: '2024-01-01' } };
}

/** Fourteen hits: a nested object of about 2 KB once serialised. */
function searchHits(seed: number): readonly object[] {
  return Array.from({ length: 14 }, (_, index) => ({
    id: flat(`doc-${String(seed)}-${String(index)}`),
    title: flat(`Result ${String(index)} on runaway agent loops`),
    score: Math.round(((index + 1) / 15) * 1000) / 1000,
    tags: ['agents', 'loops'],
    source: { site: 'example.org', lang: 'en' },
  }));
}

/** One hit list shared by every result built with `shareHits`, so a long history does not hold megabytes of fixtures. */
const sharedHits = searchHits(0);

/**
 * A tool result of about 2 KB. Each call returns a new top-level object (so its canonical form and hash differ per
 * step); with `shareHits` the bulky hit list is one shared array, otherwise every result owns its own copy.
 */
export function searchResult(stepNumber: number, shareHits = true): { requestId: string; total: number; hits: readonly object[] } {
  return { requestId: flat(`req-${String(stepNumber)}`), total: 14, hits: shareHits ? sharedHits : searchHits(stepNumber) };
}

/** A finished step as a loop hands it to `check`: text, one tool call with its result, finish reason and usage. */
export function guardStep(stepNumber: number, shareHits = true): GuardStep {
  return {
    text: 'Searching for more sources.',
    finishReason: 'tool-calls',
    toolCalls: [{ name: 'search', args: searchArgs(stepNumber), result: searchResult(stepNumber, shareHits) }],
    usage: { inputTokens: 1200, outputTokens: 40 },
  };
}

/** Steps `from` to `from + count - 1`. */
export function guardSteps(from: number, count: number, shareHits = true): GuardStep[] {
  return Array.from({ length: count }, (_, offset) => guardStep(from + offset, shareHits));
}
