import { runInNewContext, runInThisContext } from 'node:vm';
import fc from 'fast-check';
import type { GuardOptions } from '../../src/index.js';
import { HOSTILE_FACTORIES } from '../support/hostile-values.js';

/**
 * A value built only when the property runs. fast-check inspects every value it generates (it looks for a clone
 * method with `in`), which a revoked proxy or a throwing trap would break, so hostile values travel as recipes.
 */
export class Lazy {
  readonly #label: string;
  readonly build: () => unknown;

  constructor(label: string, build: () => unknown) {
    this.#label = label;
    this.build = build;
  }

  /** What fast-check prints for a counterexample. */
  [fc.toStringMethod](): string {
    return this.#label;
  }
}

function eager(value: unknown): Lazy {
  return new Lazy(fc.stringify(value), () => value);
}

/** A fresh hostile value (throwing getters, revoked proxies, cycles...). */
export const hostileValue: fc.Arbitrary<Lazy> = fc
  .constantFrom(...Object.keys(HOSTILE_FACTORIES))
  .map((name) => new Lazy(`hostile:${name}`, () => HOSTILE_FACTORIES[name]?.()));

/** Everything fast-check can build, with every extra kind switched on. */
export const richValue: fc.Arbitrary<unknown> = fc.anything({
  maxDepth: 4,
  maxKeys: 5,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  stringUnit: 'grapheme',
});

/** The containers (arrays and ordinary or null-prototype objects) inside a value, parents first. */
function containersOf(value: unknown, found: object[] = []): object[] {
  if (value === null || typeof value !== 'object' || found.length > 50 || found.includes(value)) return found;
  if (!Array.isArray(value)) {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return found;
  }
  found.push(value);
  for (const inner of Object.values(value)) containersOf(inner, found);
  return found;
}

/**
 * Adds references between the containers of a value: `from` gets a property pointing at `to`, which makes a
 * cycle when `to` is an ancestor of `from` (or `from` itself) and a shared reference otherwise.
 */
export function tieReferences(value: unknown, links: readonly (readonly [number, number])[]): unknown {
  const containers = containersOf(value);
  links.forEach(([from, to], index) => {
    const source = containers[from % containers.length];
    const target = containers[to % containers.length];
    if (source === undefined || target === undefined) return;
    if (Array.isArray(source)) source.push(target);
    else Object.defineProperty(source, `link${String(index)}`, { value: target, enumerable: true, writable: true });
  });
  return value;
}

/** A rich value with cycles and shared references added (to a copy, so fast-check's own value stays intact). */
export const valueWithReferences: fc.Arbitrary<Lazy> = fc
  .tuple(richValue, fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 3 }))
  .map(([value, links]) => new Lazy(`${fc.stringify(value)} tied by ${fc.stringify(links)}`, () => tieReferences(copyContainers(value), links)));

/** A copy of the arrays and plain objects in a value (prototype and holes kept); other values are shared. */
function copyContainers(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array<unknown>(value.length);
    for (const key of Object.keys(value)) copy[Number(key)] = copyContainers((value as unknown[])[Number(key)]);
    return copy;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy = Object.create(prototype) as Record<string, unknown>;
  for (const [key, inner] of Object.entries(value)) {
    Object.defineProperty(copy, key, { value: copyContainers(inner), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/** A value with hostile values mixed in at some depth. */
export const valueWithHostileParts: fc.Arbitrary<Lazy> = fc
  .tuple(fc.array(hostileValue, { minLength: 1, maxLength: 3 }), richValue)
  .map(
    ([hostile, rich]) =>
      new Lazy(`${fc.stringify(rich)} with ${fc.stringify(hostile)}`, () => {
        const built = hostile.map((part) => part.build());
        return { rich, hostile: built, nested: [{ deeper: built[0] }] };
      }),
  );

/**
 * Source text of a value that any realm can evaluate: JSON plus the built-ins with forms of their own. Evaluated here
 * and in a `node:vm` context, it gives the same value made in two realms.
 */
const realmSource: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 1 }).map((json) => `(${JSON.stringify(json)})`),
    fc.integer().map((number) => `new Date(${String(number)})`),
    fc.string({ maxLength: 6 }).map((text) => `new Error(${JSON.stringify(text)})`),
    fc.string({ maxLength: 6 }).map((text) => `new RangeError(${JSON.stringify(text)}, { cause: 1 })`),
    fc.constantFrom('/x+/gi', 'new Date(NaN)', 'Object(2)', 'Object("s")', 'Object(true)', 'Object(3n)', 'new Uint8Array([1, 2]).buffer'),
    fc.constantFrom('new Int16Array([-1, 7])', 'new DataView(new Uint8Array([5, 6, 7]).buffer, 1)', 'new SharedArrayBuffer(2)', '12345678901234567890n'),
    fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
    fc.array(tie('value'), { maxLength: 3 }).map((items) => `new Set([${items.join(',')}])`),
    fc.array(fc.tuple(tie('value'), tie('value')), { maxLength: 3 }).map((entries) => `new Map([${entries.map(([key, item]) => `[${key},${item}]`).join(',')}])`),
    fc.array(fc.tuple(fc.string({ maxLength: 4 }), tie('value')), { maxLength: 3 }).map(
      (entries) => `({${entries.map(([key, item]) => `${JSON.stringify(key)}:${item}`).join(',')}})`,
    ),
  ),
})).value;

/** One value made twice from the same source: `local` in this realm, `foreign` in a fresh `node:vm` context. */
export const crossRealmPair: fc.Arbitrary<{ readonly source: string; readonly local: Lazy; readonly foreign: Lazy }> =
  realmSource.map((source) => ({
    source,
    local: new Lazy(`local ${source}`, () => runInThisContext(source)),
    foreign: new Lazy(`foreign ${source}`, () => runInNewContext(source)),
  }));

/**
 * The tool calls of one step that share parts: the same object, array or long string appears in several calls' values,
 * many times over, as when a step passes one search result to every call.
 */
export const stepWithSharedParts: fc.Arbitrary<Lazy> = fc
  .tuple(
    fc.array(fc.jsonValue({ maxDepth: 3 }), { minLength: 1, maxLength: 3 }),
    fc.string({ minLength: 0, maxLength: 40 }),
    fc.array(fc.array(fc.nat(), { maxLength: 8 }), { minLength: 1, maxLength: 6 }),
  )
  .map(([parts, text, calls]) => new Lazy(`${fc.stringify(parts)} and ${JSON.stringify(text)} shared by ${fc.stringify(calls)}`, () => {
    const shared: unknown[] = [...parts, text, { text, parts }];
    shared.push(Array.from({ length: 5 }, () => shared[shared.length - 1]));
    return calls.map((picks) => picks.map((pick) => shared[pick % shared.length]));
  }));

/** Bigints of every size around a bit limit, positive and negative. */
export const bigIntAround = (bits: number): fc.Arbitrary<bigint> =>
  fc.tuple(fc.integer({ min: -3, max: 3 }), fc.bigInt({ min: -3n, max: 3n }), fc.boolean()).map(([shift, offset, negative]) => {
    const magnitude = (1n << BigInt(bits + shift)) + offset;
    return negative ? -magnitude : magnitude;
  });

/** Anything a tool might receive or return, from plain JSON to deliberately hostile. */
export const anyValue: fc.Arbitrary<Lazy> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(eager) },
  { weight: 3, arbitrary: richValue.map(eager) },
  { weight: 2, arbitrary: valueWithReferences },
  { weight: 2, arbitrary: hostileValue },
  { weight: 1, arbitrary: valueWithHostileParts },
);

/** An object built from lazily built fields; absent fields stay absent. */
function lazyRecord(fields: Partial<Record<string, Lazy | readonly Lazy[]>>): Lazy {
  return new Lazy(fc.stringify(fields), () => {
    const built: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(fields)) {
      if (field === undefined) continue;
      built[key] = field instanceof Lazy ? field.build() : field.map((item) => item.build());
    }
    return built;
  });
}

/** Odd numbers usage and durations may carry. */
const oddNumber: fc.Arbitrary<Lazy> = fc
  .oneof(
    fc.integer({ min: 0, max: 5_000 }),
    fc.double(),
    fc.constantFrom(Number.MAX_VALUE, 1e308, -1, -0, Number.NaN, Infinity, Number.MIN_VALUE, 2 ** 53),
    fc.constantFrom<unknown>('12', null, true, 10n, {}, []),
  )
  .map(eager);

/** Definitely a number a budget accepts: finite and non-negative. */
const usageNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: 0, max: 2_000 }),
  fc.double({ min: 0, max: 10, noNaN: true }),
);

const toolNames = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom('search', 'read', 'write', 'a', 'b') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom('', '__proto__', 'constructor', 'toString', '"', '\u0000') },
);

/** A tool call: mostly well formed, sometimes with odd or hostile parts. */
export const toolCall: fc.Arbitrary<Lazy> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record(
        {
          name: toolNames,
          args: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom({ q: 1 }, { q: 2 }, undefined)),
          result: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)),
          error: fc.constantFrom<unknown>(undefined, null, 'failed', { code: 500 }),
        },
        { requiredKeys: ['name'] },
      )
      .map(eager),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({ name: fc.oneof(toolNames.map(eager), anyValue), args: anyValue, result: anyValue, error: anyValue }, { requiredKeys: [] })
      .map(lazyRecord),
  },
  { weight: 1, arbitrary: anyValue },
);

const finishReasons = fc.oneof(
  fc.constantFrom('stop', 'length', 'tool-calls', 'tool_calls', 'content-filter', 'error', 'other', 'unknown', ' STOP '),
  fc.string({ maxLength: 12 }),
);

/** A step in the documented shape, its fields sometimes odd or hostile. */
export const stepRecord: fc.Arbitrary<Lazy> = fc
  .record(
    {
      toolCalls: fc.oneof({ weight: 5, arbitrary: fc.array(toolCall, { maxLength: 4 }) }, { weight: 1, arbitrary: anyValue }),
      text: fc.oneof(fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('Same text.', '  same   TEXT. ', '')).map(eager), anyValue),
      finishReason: fc.oneof(finishReasons.map(eager), anyValue),
      usage: fc.oneof(
        fc
          .record({ inputTokens: oddNumber, outputTokens: oddNumber, totalTokens: oddNumber, costUsd: oddNumber }, { requiredKeys: [] })
          .map(lazyRecord),
        anyValue,
      ),
      durationMs: oddNumber,
      timestamp: oddNumber,
    },
    { requiredKeys: [] },
  )
  .map(lazyRecord);

/** A step: mostly the documented shape with odd fields, sometimes not a step at all. */
export const anyStep: fc.Arbitrary<Lazy> = fc.oneof({ weight: 8, arbitrary: stepRecord }, { weight: 1, arbitrary: anyValue });

/** A well-formed, non-hostile step: two guards fed the same one must reach the same verdict. */
export const plainStep = fc.record(
  {
    toolCalls: fc.array(
      fc.record(
        {
          name: fc.constantFrom('search', 'read', 'write'),
          args: fc.oneof(fc.constantFrom({ q: 1 }, { q: 2 }, undefined), fc.jsonValue({ maxDepth: 2 })),
          result: fc.oneof(fc.constantFrom(undefined, 'ok', 0), fc.jsonValue({ maxDepth: 1 })),
          error: fc.constantFrom(undefined, null, 'failed'),
        },
        { requiredKeys: ['name'] },
      ),
      { maxLength: 3 },
    ),
    text: fc.constantFrom('', 'Same text.', 'Other text.', 'Let me try again.'),
    finishReason: finishReasons,
    usage: fc.record({ inputTokens: usageNumber, outputTokens: usageNumber, costUsd: usageNumber }, { requiredKeys: [] }),
    durationMs: usageNumber,
  },
  { requiredKeys: [] },
);

const budgetLimit = fc.oneof(
  fc.integer({ min: 1, max: 20_000 }),
  fc.record(
    { limit: fc.integer({ min: 1, max: 20_000 }), warnAt: fc.double({ min: 0.01, max: 1, noNaN: true }) },
    { requiredKeys: ['limit'] },
  ),
);

/** Valid options, tight enough that detectors fire within a few steps. Custom detectors return plain JSON. */
export const guardOptions: fc.Arbitrary<GuardOptions> = fc.record(
  {
    maxSteps: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.constant(false as const)),
    repeatedToolCall: fc.oneof(
      fc.constant(false as const),
      fc.record(
        { threshold: fc.integer({ min: 2, max: 6 }), requireIdenticalResults: fc.boolean(), ignoreErrors: fc.boolean() },
        { requiredKeys: [] },
      ),
    ),
    oscillation: fc.oneof(
      fc.constant(false as const),
      fc.record({ maxPeriod: fc.integer({ min: 2, max: 5 }), repeats: fc.integer({ min: 2, max: 4 }) }, { requiredKeys: [] }),
    ),
    noProgress: fc.oneof(fc.constant(false as const), fc.record({ threshold: fc.integer({ min: 2, max: 6 }) }, { requiredKeys: [] })),
    finishReason: fc.oneof(
      fc.constant(false as const),
      fc.record(
        {
          terminal: fc.array(fc.constantFrom('stop', 'LENGTH', 'error', 'other', 'custom_reason'), { maxLength: 3 }),
          otherPolicy: fc.constantFrom('stop' as const, 'continue' as const, 'stop-if-text-only' as const),
        },
        { requiredKeys: [] },
      ),
    ),
    budget: fc.oneof(
      fc.constant(false as const),
      fc.record(
        {
          maxTotalTokens: budgetLimit,
          maxInputTokens: budgetLimit,
          maxOutputTokens: budgetLimit,
          maxCostUsd: budgetLimit,
          maxDurationMs: budgetLimit,
          warnAt: fc.double({ min: 0.01, max: 1, noNaN: true }),
        },
        { requiredKeys: [] },
      ),
    ),
    custom: fc.constantFrom(
      (history: readonly unknown[]) =>
        history.length % 4 === 3 ? { stop: true as const, code: 'EVERY_FOURTH', evidence: { steps: history.length } } : undefined,
      [() => ({ stop: false as const }), () => undefined],
    ),
  },
  { requiredKeys: [] },
);
