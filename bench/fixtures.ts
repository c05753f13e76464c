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

/** Words without digits, so a step number spelt with them survives an answer shape (which blanks words with digits). */
const NUMBER_WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike', 'november', 'oscar', 'papa'];

/** A step number spelt in four or more words, one per hexadecimal digit. */
function spelt(stepNumber: number): string {
  const words: string[] = [];
  for (let rest = stepNumber, digits = 0; digits < 4 || rest > 0; rest = Math.floor(rest / 16), digits++) {
    words.push(NUMBER_WORDS[rest % 16] ?? 'alpha');
  }
  return words.join(' ');
}

/**
 * A summary of about 280 characters whose words differ from step to step, as a search tool's summaries do: every
 * result is a different answer, to each detector that compares them.
 */
export function searchSummary(stepNumber: number): string {
  return flat(
    `Sources on ${spelt(stepNumber)} agents: runaway tool loops waste tokens and time, and a guard that watches each ` +
      'finished step can stop them early. The pages compare repeat detection, cycle detection, stalled text and spending ' +
      'limits across agent frameworks, with notes on steering.',
  );
}

/** Search hits, records with an array and a record in each: fourteen make about 2 KB once serialised. */
function searchHits(seed: number, count = 14): readonly object[] {
  return Array.from({ length: count }, (_, index) => ({
    id: flat(`doc-${String(seed)}-${String(index)}`),
    title: flat(`Result ${String(index)} on runaway agent loops`),
    score: Math.round(((index + 1) / (count + 1)) * 1000) / 1000,
    tags: ['agents', 'loops'],
    source: { site: 'example.org', lang: 'en' },
  }));
}

/** One hit list shared by every result built with `shareHits`, so a long history does not hold megabytes of fixtures. */
const sharedHits = searchHits(0);

/**
 * A tool result of about 2 KB. Each call returns a new top-level object with a summary of its own (so its canonical
 * form, hash and shape differ per step); with `shareHits` the bulky hit list is one shared array, otherwise every
 * result owns its own copy.
 */
export function searchResult(
  stepNumber: number,
  shareHits = true,
): { requestId: string; total: number; summary: string; hits: readonly object[] } {
  return {
    requestId: flat(`req-${String(stepNumber)}`),
    total: 14,
    summary: searchSummary(stepNumber),
    hits: shareHits ? sharedHits : searchHits(stepNumber),
  };
}

/** A finished step as a loop hands it to `check`: text, one tool call with its result, finish reason and usage. */
function stepReturning(stepNumber: number, result: unknown): GuardStep {
  return {
    text: 'Searching for more sources.',
    finishReason: 'tool-calls',
    toolCalls: [{ name: 'search', args: searchArgs(stepNumber), result }],
    usage: { inputTokens: 1200, outputTokens: 40 },
  };
}

/** The step of the run-length and memory benchmarks: one `search` call answered with about 2 KB. */
export function guardStep(stepNumber: number, shareHits = true): GuardStep {
  return stepReturning(stepNumber, searchResult(stepNumber, shareHits));
}

/** Steps `from` to `from + count - 1`. */
export function guardSteps(from: number, count: number, shareHits = true): GuardStep[] {
  return Array.from({ length: count }, (_, offset) => guardStep(from + offset, shareHits));
}

/** What a tool answered in a step of the peer comparison: prose, or JSON records. */
export type ResultFlavour = 'text' | 'structured';

/** Bytes of a value as JSON, as it would travel over the wire. */
export function jsonBytes(value: object | string): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/**
 * A page of prose as a fetch or read tool returns it: a heading that names the step (so every answer differs), then
 * numbered paragraphs with the quotes and line breaks real text has, up to about `bytes` as JSON. Sizes are added up
 * piece by piece: serialising the whole text after every paragraph would take minutes at 200 KB.
 */
function textResult(stepNumber: number, bytes: number): string {
  const heading = `# Notes on ${spelt(stepNumber)} agents\n\n`;
  const pieces = [heading];
  let size = jsonBytes(heading);
  while (size < bytes) {
    const paragraph =
      `${String(pieces.length)}. Runaway tool loops waste tokens and time: the model asks for "the same search" again, ` +
      'or bounces between two tools, while the bill grows. A guard that watches each finished step can stop them early.\n\n';
    pieces.push(paragraph);
    size += jsonBytes(paragraph) - 2; // Less the quotes: they enclose the text once, not each paragraph.
  }
  return flat(pieces.join(''));
}

/**
 * A structured answer of about `bytes` as JSON: a request id and summary of the step's own, then as many search hits
 * as fill it. It goes through `JSON.parse`, as a tool's answer does, so every step owns its objects and strings.
 */
function structuredResult(stepNumber: number, bytes: number): unknown {
  const empty = { requestId: `req-${String(stepNumber)}`, summary: searchSummary(stepNumber), hits: [] };
  const [firstHit] = searchHits(stepNumber, 1);
  const count = Math.max(1, Math.round((bytes - jsonBytes(empty)) / (jsonBytes(firstHit ?? {}) + 1)));
  return JSON.parse(JSON.stringify({ ...empty, hits: searchHits(stepNumber, count) })) as unknown;
}

/**
 * A step of about `bytes` as JSON, most of it the one call's result: a short model text, one `search` call whose
 * arguments name the step, and usage. Different arguments and a different answer at every step, so no detector stops.
 */
export function sizedStep(stepNumber: number, bytes: number, flavour: ResultFlavour): GuardStep {
  const resultBytes = bytes - jsonBytes(stepReturning(stepNumber, null));
  return stepReturning(stepNumber, flavour === 'text' ? textResult(stepNumber, resultBytes) : structuredResult(stepNumber, resultBytes));
}
