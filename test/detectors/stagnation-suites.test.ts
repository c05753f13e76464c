/**
 * `stagnation` under the default guard (`maxSteps: false`, every other detector on), on synthetic runs of the kinds
 * real apps produce: healthy batch work that must never be stopped or warned, and stuck runs that must be.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGuard, type GuardStep, type GuardToolCall, type Verdict } from '../../src/index.js';

const STEPS = 60;
const CITIES = ['Paris', 'London', 'Berlin', 'Madrid', 'Rome', 'Vienna', 'Prague', 'Warsaw', 'Lisbon', 'Dublin'];
const CONDITIONS = ['sunny', 'rain', 'cloudy'];
const STATUSES = ['shipped', 'pending', 'failed', 'cancelled', 'refunded', 'on hold'];

/** Every verdict of a fresh default guard (maxSteps off) over the steps. */
function playDefault(steps: readonly GuardStep[]): Verdict[] {
  const guard = createGuard({ maxSteps: false });
  return steps.map((step) => guard.check(step));
}

/** A run of one call per step; the model writes something new each time, as models do. */
function run(make: (index: number) => GuardToolCall, length = STEPS): GuardStep[] {
  return Array.from({ length }, (_, index) => ({ text: `Step ${String(index)}: next one.`, finishReason: 'tool-calls', toolCalls: [make(index)] }));
}

/** A call with a result. */
const answered = (name: string, args: unknown, result: unknown): GuardToolCall => ({ name, args, result });

/** Three forms of one answer: as the object, as the JSON text a tool wrote, and as a sentence. */
function forms(name: string, args: (index: number) => unknown, data: (index: number) => Record<string, unknown>, sentence: (index: number) => string) {
  return [
    [`${name} (object)`, run((index) => answered(name, args(index), data(index)))],
    [`${name} (JSON text)`, run((index) => answered(name, args(index), JSON.stringify(data(index))))],
    [`${name} (text)`, run((index) => answered(name, args(index), sentence(index)))],
  ] as const;
}

const city = (index: number): string => `${String(CITIES[index % CITIES.length])}${index >= CITIES.length ? ` ${String(Math.floor(index / CITIES.length))}` : ''}`;
const orderId = (index: number): string => `A${String(1000 + index)}`;

const HEALTHY: readonly (readonly [string, GuardStep[]])[] = [
  // Lookups whose answers repeat as values: the same conditions, temperatures and statuses come back for other keys.
  ...forms(
    'weather',
    (index) => ({ city: city(index) }),
    (index) => ({ city: city(index), tempC: 10 + (index % 7), conditions: CONDITIONS[index % 3] }),
    (index) => `${city(index)}: ${String(10 + (index % 7))}°C, ${String(CONDITIONS[index % 3])}`,
  ),
  ...forms(
    'get_order',
    (index) => ({ id: orderId(index) }),
    (index) => ({ id: orderId(index), status: STATUSES[index % STATUSES.length], items: 3, total: 20 + index * 1.5 }),
    (index) => `Order ${orderId(index)}: ${String(STATUSES[index % STATUSES.length])}, 3 items, total $${(20 + index * 1.5).toFixed(2)}`,
  ),
  ...forms(
    'list_orders',
    (index) => ({ page: index + 1, pageSize: 2 }),
    (index) => ({ page: index + 1, orders: [{ id: orderId(2 * index) }, { id: orderId(2 * index + 1) }], next: index + 2 }),
    (index) => `Page ${String(index + 1)} of ${String(STEPS)}: ${orderId(2 * index)}, ${orderId(2 * index + 1)}`,
  ),
  // A calculator whose results repeat: 0, 7, 14, 0, 7, 14, ...
  ['calculator (number)', run((index) => answered('calculate', { expression: `${String(index)} * 0 + ${String((index % 3) * 7)}` }, (index % 3) * 7))],
  ['calculator (object)', run((index) => answered('calculate', { expression: `${String(index)} % 3` }, { value: index % 3 }))],
  ['calculator (text)', run((index) => answered('calculate', { expression: `${String(index)} % 3` }, String(index % 3)))],
  ['calculator (sentence)', run((index) => answered('calculate', { expression: `${String(index)} % 3` }, `The result is ${String(index % 3)}.`))],
  // Acknowledgements of distinct writes, edits, sends and updates: the distinct call is the progress.
  ...(['ok', 'File written successfully.', { success: true }, '{"success":true}', { ok: true }] as const).map(
    (answer) => [`write_file answered ${JSON.stringify(answer)}`, run((index) => answered('write_file', { path: `src/f${String(index)}.ts`, content: `export const x${String(index)} = ${String(index)};` }, answer))] as const,
  ),
  ['write_file answered with the path', run((index) => answered('write_file', { path: `src/f${String(index)}.ts`, content: 'export {};' }, `Wrote src/f${String(index)}.ts`))],
  [
    'write_file answered nothing, with the content in the call',
    run((index) => answered('write_file', { path: `src/f${String(index)}.ts`, content: `export const value${String(index)} = ${String(index)}; // generated module` }, '')),
  ],
  ...forms(
    'edit_file',
    (index) => ({ path: `src/f${String(index % 12)}.ts`, old: `x${String(index)}`, new: `y${String(index)}` }),
    (index) => ({ ok: true, path: `src/f${String(index % 12)}.ts`, replacements: 1 }),
    (index) => `Edited src/f${String(index % 12)}.ts: 1 replacement`,
  ),
  ...forms(
    'send_email',
    (index) => ({ to: `user${String(index)}@example.com`, subject: 'Hi' }),
    (index) => ({ id: `msg_${String(index)}`, status: 'sent' }),
    (index) => `Message sent to user${String(index)}@example.com`,
  ),
  ['send_email answered {"status":"sent"}', run((index) => answered('send_email', { to: `user${String(index)}@example.com` }, '{"status":"sent"}'))],
  ...forms(
    'update_row',
    (index) => ({ id: index, value: `v${String(index)}` }),
    () => ({ success: true, updated: 1 }),
    (index) => `Updated row ${String(index)}`,
  ),
  // An MCP tool's result: the text inside its content, isError false.
  ['MCP lookup', run((index) => answered('mcp_lookup', { id: index }, { content: [{ type: 'text', text: `Order ${orderId(index)}: shipped` }], isError: false }))],
  // A research run where one search in three finds nothing: failures are in the minority of every window.
  [
    'searches, one in three finding nothing',
    run((index) => answered('search', { query: `topic ${String(index)}` }, index % 3 === 2 ? `No matches found for "topic ${String(index)}"` : `Found 2 pages on topic ${String(index)}`)),
  ],
  // Several lookups in one step, the same answers among them.
  [
    'parallel lookups',
    Array.from({ length: STEPS }, (_, index) => ({
      toolCalls: [0, 1, 2].map((offset) => answered('get_order', { id: orderId(3 * index + offset) }, { status: STATUSES[offset] })),
    })),
  ],
];

const prose = (index: number): string => `DISCUSSION\nLet me try approach number ${'again '.repeat(index % 5)}${String(index)} (carefully).`;

/** Stuck runs, each after a few healthy steps, so the window fills with the stuck part. */
const STUCK: readonly (readonly [string, GuardStep[]])[] = [
  ['"No matches" for ever-new patterns (text)', run((index) => answered('grep', { pattern: `foo${String(index)}` }, `No matches found for "foo${String(index)}"`))],
  ['"No matches" for ever-new patterns (JSON text)', run((index) => answered('grep', { pattern: `foo${String(index)}` }, JSON.stringify({ pattern: `foo${String(index)}`, matches: [] })))],
  ['"No matches" for ever-new patterns (JSON error text)', run((index) => answered('grep', { pattern: `foo${String(index)}` }, JSON.stringify({ error: `No matches found for foo${String(index)}` })))],
  ['"No matches" for ever-new patterns (data)', run((index) => answered('search', { q: `foo${String(index)}` }, { results: [], query: `foo${String(index)}` }))],
  ['"No matches" for ever-new patterns (as error)', run((index) => ({ name: 'grep', args: { pattern: `foo${String(index)}` }, error: `No matches found for "foo${String(index)}"` }))],
  ['"No matches" for ever-new patterns (thrown)', run((index) => ({ name: 'grep', args: { pattern: `foo${String(index)}` }, error: new Error(`No matches for foo${String(index)}`) }))],
  ['an MCP tool failing for every id', run((index) => answered('mcp_lookup', { id: index }, { content: [{ type: 'text', text: `No order ${orderId(index)}` }], isError: true }))],
  [
    'the same shell syntax error for different prose sent as commands',
    run((index) => answered('DISCUSSION', { command: prose(index) }, `/bin/bash: line ${String(2 + index)}: syntax error near unexpected token \`('`)),
  ],
  [
    'an irregular cycle among five reads whose outputs never change',
    run((index) => {
      const order = [0, 1, 2, 3, 4, 0, 2, 1, 4, 3, 1, 0, 3, 2, 4, 2, 0, 1, 4, 3];
      const file = order[index % order.length] ?? 0;
      return answered('view', { path: `src/module${String(file)}.ts` }, `// module ${String(file)}\nexport const value = ${String(file)};`);
    }),
  ],
  [
    'an irregular cycle among four greps and views, as text and data',
    run((index) => {
      const pick = [0, 1, 2, 3, 1, 0, 3, 2, 0, 2, 1, 3][index % 12] ?? 0;
      return pick % 2 === 0
        ? answered('grep', { pattern: `handler${String(pick)}` }, `src/a.ts:${String(10 * pick)}: function handler${String(pick)}() {}`)
        : answered('read', { path: `src/b${String(pick)}.ts` }, { lines: [`line ${String(pick)}`], total: 1 });
    }),
  ],
  ['the same error for different arguments', run((index) => ({ name: 'open', args: { path: `/data/f${String(index)}.csv` }, error: new Error('EACCES: permission denied') }))],
  ['the same data error for different arguments', run((index) => ({ name: 'fetch', args: { url: `https://x.test/${String(index)}` }, error: { status: 503 } }))],
];

describe('stagnation on healthy batch work (default guard, maxSteps off)', () => {
  it.each(HEALTHY)('%s: never stopped nor warned in 60 steps', (_name, steps) => {
    expect(steps.length).toBeGreaterThanOrEqual(STEPS);
    const verdicts = playDefault(steps);
    const troubled = verdicts.findIndex((verdict) => verdict.stop || verdict.warnings !== undefined);
    expect(troubled === -1 ? undefined : verdicts[troubled]).toBeUndefined();
  });

  it('never stops or warns a run of distinct calls whose answers carry anything but a failure, however often they repeat', () => {
    // Records, acknowledgements and values, repeated freely; what a record holds (a failed status) is information.
    const answer = fc.oneof(
      fc.constantFrom('ok', 'done', 'File written.', 'sent', 'Updated.', '{"success":true}', 'Order shipped', 'payment failed'),
      fc.record({ id: fc.nat(5), status: fc.constantFrom(...STATUSES), note: fc.constantFrom('', 'error', 'not found', 'no matches') }),
      fc.record({ success: fc.constant(true), count: fc.nat(3) }).map((value) => JSON.stringify(value)),
      fc.integer({ min: -3, max: 3 }),
      fc.constantFrom(true, false, null),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('lookup', 'write', 'send', 'update'), answer), { minLength: 20, maxLength: 80 }), (plan) => {
        const guard = createGuard({ maxSteps: false });
        plan.forEach(([name, result], index) => {
          const verdict = guard.check({ text: `step ${String(index)}`, toolCalls: [{ name, args: { id: index }, result }] });
          expect(verdict.stop || verdict.warnings !== undefined).toBe(false);
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe('stagnation on stuck runs (default guard, maxSteps off)', () => {
  /** Nine healthy lookups before the run gets stuck: the window of 20 fills with ten new steps, a warning. */
  const warmUp = run((index) => answered('get_order', { id: orderId(index) }, `Order ${orderId(index)}: shipped`), 9);

  it.each(STUCK)('%s: warned, then stopped by stagnation', (_name, steps) => {
    const verdicts = playDefault([...warmUp, ...steps]);
    const stop = verdicts.findIndex((verdict) => verdict.stop);
    expect(verdicts[stop]).toMatchObject({ stop: true, reason: 'stagnation', code: 'STAGNATION' });
    // At most the nine lookups and the first round of a cycle of five are new: stopped by the 26th step.
    expect(stop).toBeLessThanOrEqual(25);
    const warned = verdicts.findIndex((verdict) => verdict.warnings?.some((warning) => warning.code === 'LOOP_WARNING' && warning.reason === 'stagnation'));
    expect(warned).toBeGreaterThanOrEqual(0);
    expect(warned).toBeLessThan(stop);
  });

  it('stops any run of distinct calls that keep getting one failure echoing their arguments, at its 20th step', () => {
    const MESSAGE_WORDS = new Set(['no', 'matches', 'found', 'for', 'command', 'not', 'error', 'file', 'does', 'exist', 'results', 'query', 'unknown', 'id']);
    const failure = fc.constantFrom(
      (term: string) => ({ result: `No matches found for "${term}"` }),
      (term: string) => ({ result: `${term}: command not found` }),
      (term: string) => ({ result: `Error: file ${term} does not exist` }),
      (term: string) => ({ result: JSON.stringify({ error: `${term} not found` }) }),
      (term: string) => ({ result: { results: [], query: term } }),
      (term: string) => ({ error: new Error(`Unknown id '${term}'`) }),
    );
    fc.assert(
      // A term that is one of the messages' own words ("id", "found") blanks that word too, which gives the one call
      // whose term it is an answer of another shape: a second new outcome, not the one the evidence below counts.
      fc.property(failure, fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/).filter((term) => !MESSAGE_WORDS.has(term)), { minLength: 20, maxLength: 20 }), (answer, terms) => {
        const verdicts = playDefault(terms.map((term) => ({ toolCalls: [{ name: 'lookup', args: { term }, ...answer(term) }] })));
        expect(verdicts.slice(0, 19).some((verdict) => verdict.stop)).toBe(false);
        expect(verdicts[19]).toMatchObject({ stop: true, code: 'STAGNATION', evidence: { newOutcomes: 1, distinctCalls: 20 } });
      }),
      { numRuns: 100 },
    );
  });
});
