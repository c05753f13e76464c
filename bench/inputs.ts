/** The inputs the benchmarks share: what an agent's tool calls carry, from tiny to large. Deterministic. */

/** Small tool arguments, the common case. */
export const smallArgs = {
  query: 'agent loop detection',
  limit: 10,
  filters: { site: 'example.com', lang: 'en', after: '2024-01-01' },
};

/** A search-style tool result of about 2 KB as JSON, nested three levels. */
export const nestedObject = {
  status: 'ok',
  took: 42,
  meta: { page: 1, pageSize: 5, total: 1234, engine: { name: 'search', version: '2.3.1', region: 'eu-west' } },
  results: Array.from({ length: 5 }, (_, index) => ({
    id: `doc-${String(index)}`,
    title: `Result number ${String(index)} about agent loops`,
    url: `https://example.com/articles/${String(index)}?ref=search&q=agent+loop`,
    snippet: 'Agents that call the same tool again and again waste tokens; a guard stops them early.',
    score: 0.98 - index * 0.07,
    tags: ['agents', 'llm', index % 2 === 0 ? 'loops' : 'budgets'],
    author: { name: 'Writer ' + String(index), verified: index % 2 === 0 },
  })),
};

/** An array of 10,000 small objects. */
export const manyObjects = Array.from({ length: 10_000 }, (_, index) => ({
  id: index,
  name: `item ${String(index)}`,
  done: index % 3 === 0,
}));

/** A 200 KB string full of what JSON must escape: quotes, tabs, newlines, backslashes. */
export const longString = (() => {
  let text = '';
  for (let line = 0; text.length < 200_000; line++) {
    text += `line ${String(line)}:\t"quoted value"\tC:\\path\\to\\file\n`;
  }
  return text.slice(0, 200_000);
})();

/** The four inputs by name, in the order the tables list them. */
export const inputs: readonly (readonly [name: string, value: unknown])[] = [
  ['small args', smallArgs],
  ['2 KB object', nestedObject],
  ['10k objects', manyObjects],
  ['200 KB string', longString],
];
