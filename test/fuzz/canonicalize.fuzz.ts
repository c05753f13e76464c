import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize, stableHash } from '../../src/index.js';
import { HOSTILE_FACTORIES } from '../support/hostile-values.js';
import { jsonReferenceForm, nearMiss } from '../support/json-equality.js';
import { reorderKeys } from '../support/reorder-keys.js';
import { type ReadLimits, DEFAULT_LIMITS, LONG_STRING_LENGTH, MAX_BIGINT_BITS, RAW_STRING_LENGTH, readForm, TRUNCATED_MARKER } from '../../src/canonical/form.js';
import { keyedHash, publicHash } from '../../src/canonical/hash.js';
import { StepReader } from '../../src/canonical/step-reader.js';
import { hexOf, referenceHash } from '../support/sip-hash-reference.js';
import { anyValue, bigIntAround, crossRealmPair, richValue, stepWithSharedParts, tieReferences } from './arbitraries.js';
import { fuzzParameters } from './fuzz-settings.js';

const HASH_KEY = 'f00dfeedf00dfeedf00dfeedf00dfeed';
const HASH = keyedHash(HASH_KEY);

/** The documented limits scaled down so a property reaches every cut-off in a few microseconds. */
const SMALL_LIMITS: ReadLimits = { maxDepth: 6, maxValues: 40, maxCharacters: 300, stepValues: 100, stepCharacters: 700 };
/** Strings longer than this are tokens in the reads below that shrink the limits. */
const SMALL_TOKEN_FROM = 24;

/** The comparison key a guard gives a tool result. */
const resultKey = (reader: StepReader, value: unknown): string => reader.formKey(reader.rawForm(value));

/** Values `structuredClone` accepts, beyond what `fc.anything` builds. */
const clonableExtras = fc.constantFrom<() => unknown>(
  () => new Error('failed', { cause: { code: 42 } }),
  () => new TypeError('bad type'),
  () => new Date(Number.NaN),
  () => [Number.NaN, -0, Infinity, -Infinity, 2n ** 200n, -(2n ** 70n)],
  () => new DataView(new Uint8Array([1, 2, 3]).buffer),
  () => new Uint8Array([1, 2, 3]).buffer,
  () => new Float32Array([0.5, Number.NaN]),
  () => /pattern/giu,
  () => Object(5n) as unknown,
  () => new Map<unknown, unknown>([[{ k: 1 }, new Set([1, '1'])], [NaN, undefined]]),
);

const clonableValue = fc.oneof(
  richValue.map((value) => () => value),
  fc
    .tuple(richValue, fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 3 }))
    .map(([value, links]) => () => tieReferences(structuredClone(value), links)),
  fc.tuple(clonableExtras, richValue).map(([extra, rich]) => () => ({ extra: extra(), rich, list: [rich, extra()] })),
);

describe('canonicalize and stableHash', () => {
  it('never throw and always return strings, whatever they are given', () => {
    fc.assert(
      fc.property(anyValue, (lazy) => {
        const value = lazy.build();
        expect(typeof canonicalize(value)).toBe('string');
        expect(typeof stableHash(value)).toBe('string');
      }),
      fuzzParameters(2000),
    );
  });

  it('never throw on each hostile value, directly and nested', () => {
    for (const [name, make] of Object.entries(HOSTILE_FACTORIES)) {
      for (const value of [make(), [make()], { inner: make() }, new Map([[make(), make()]]), new Set([make()])]) {
        expect(typeof canonicalize(value), name).toBe('string');
        expect(typeof stableHash(value), name).toBe('string');
      }
    }
  });

  it('are deterministic for values that can be read', () => {
    fc.assert(
      fc.property(clonableValue, (make) => {
        const value = make();
        expect(canonicalize(value)).toBe(canonicalize(value));
        expect(stableHash(value)).toBe(stableHash(value));
      }),
      fuzzParameters(2000),
    );
  });

  it('ignore the order of object keys, Map entries and Set values', () => {
    fc.assert(
      fc.property(clonableValue, fc.integer(), (make, seed) => {
        const value = make();
        const reordered = reorderKeys(value, seed);
        expect(canonicalize(reordered)).toBe(canonicalize(value));
        expect(stableHash(reordered)).toBe(stableHash(value));
      }),
      fuzzParameters(2000),
    );
  });

  it('give a structured clone the same form', () => {
    fc.assert(
      fc.property(clonableValue, (make) => {
        const value = make();
        const clone: unknown = structuredClone(value);
        expect(canonicalize(clone)).toBe(canonicalize(value));
        expect(stableHash(clone)).toBe(stableHash(value));
      }),
      fuzzParameters(2000),
    );
  });

  it('give two JSON values the same form exactly when they are equal as JSON (up to key order)', () => {
    const pairs = fc.oneof(
      // Unrelated values: almost always different.
      fc.tuple(fc.jsonValue(), fc.jsonValue()),
      // A parsed copy with its keys shuffled: always equal.
      fc.tuple(fc.jsonValue(), fc.integer()).map(([value, seed]) => [value, reorderKeys(JSON.parse(JSON.stringify(value)), seed)] as const),
      // The same value with one node swapped for a look-alike (1 vs "1", null vs "null", [x] vs {"0": x}...).
      fc.tuple(fc.jsonValue(), fc.nat()).map(([value, choice]) => [value, nearMiss(value, choice)] as const),
    );
    fc.assert(
      fc.property(pairs, ([left, right]) => {
        const equalAsJson = jsonReferenceForm(left) === jsonReferenceForm(right);
        expect(canonicalize(left) === canonicalize(right)).toBe(equalAsJson);
        expect(stableHash(left) === stableHash(right)).toBe(equalAsJson);
      }),
      fuzzParameters(4000),
    );
  });
});

/** Pairs the spec says must stay apart, and pairs it says must compare equal, wherever they sit in a value. */
const MUST_DIFFER: readonly (readonly [string, () => unknown, () => unknown])[] = [
  ['NaN vs null', () => Number.NaN, () => null],
  ['NaN vs "NaN"', () => Number.NaN, () => 'NaN'],
  ['Infinity vs null', () => Infinity, () => null],
  ['Infinity vs "Infinity"', () => Infinity, () => 'Infinity'],
  ['-Infinity vs Infinity', () => -Infinity, () => Infinity],
  ['10n vs 10', () => 10n, () => 10],
  ['10n vs "10"', () => 10n, () => '10'],
  ['a Map vs an object with the same entries', () => new Map([['a', 1]]), () => ({ a: 1 })],
  ['an empty Map vs an empty object', () => new Map(), () => ({})],
  ['a Set vs an array with the same items', () => new Set([1, 2]), () => [1, 2]],
  ['an empty Set vs an empty array', () => new Set(), () => []],
  ['array order', () => [1, 2], () => [2, 1]],
  ['two different Dates', () => new Date(0), () => new Date(1)],
  ['undefined vs null as a property value', () => ({ key: undefined }), () => ({ key: null })],
  ['1 vs "1"', () => 1, () => '1'],
  ['true vs "true"', () => true, () => 'true'],
  ['a Map entry value', () => new Map([['k', 1]]), () => new Map([['k', 2]])],
  ['a Map key type', () => new Map([[1, 'v']]), () => new Map([['1', 'v']])],
];

const MUST_EQUAL: readonly (readonly [string, () => unknown, () => unknown])[] = [
  ['-0 vs 0', () => -0, () => 0],
  ['an undefined property vs a missing one', () => ({ a: undefined, b: 1 }), () => ({ b: 1 })],
  ['Map insertion order', () => new Map<unknown, unknown>([[1, 'a'], ['b', 2]]), () => new Map<unknown, unknown>([['b', 2], [1, 'a']])],
  ['Set insertion order', () => new Set([3, 'x', 1]), () => new Set([1, 3, 'x'])],
  ['equal Dates', () => new Date(86_400_000), () => new Date(86_400_000)],
  ['equal bigints', () => 2n ** 80n, () => 2n ** 80n],
  ['NaN vs NaN', () => Number.NaN, () => Number.NaN],
];

/** Puts `inner` where one JSON node of `outer` was, under an object key so `undefined` keeps its meaning. */
function embed(outer: unknown, choice: number, inner: unknown): unknown {
  const holders: Record<string, unknown>[] = [];
  const walk = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return;
    if (!Array.isArray(value)) holders.push(value as Record<string, unknown>);
    for (const item of Object.values(value)) walk(item);
  };
  const copy = JSON.parse(JSON.stringify({ root: outer })) as Record<string, unknown>;
  walk(copy);
  const holder = holders[choice % holders.length] ?? copy;
  Object.defineProperty(holder, 'slot', { value: inner, enumerable: true, writable: true, configurable: true });
  return copy;
}

describe('canonicalize keeps the distinctions the spec names, at any depth', () => {
  it('keeps apart values that print alike, and equates values that are the same', () => {
    const pairs = fc.oneof(
      fc.constantFrom(...MUST_DIFFER).map(([label, left, right]) => ({ label, left, right, equal: false })),
      fc.constantFrom(...MUST_EQUAL).map(([label, left, right]) => ({ label, left, right, equal: true })),
    );
    fc.assert(
      fc.property(pairs, fc.jsonValue({ maxDepth: 3 }), fc.nat(), ({ label, left, right, equal }, outer, choice) => {
        const leftForm = canonicalize(embed(outer, choice, left()));
        const rightForm = canonicalize(embed(outer, choice, right()));
        expect(leftForm === rightForm, label).toBe(equal);
      }),
      fuzzParameters(2000),
    );
  });
});

describe('values from another realm', () => {
  it('get the form the same value made here gets', () => {
    fc.assert(
      fc.property(crossRealmPair, ({ local, foreign }) => {
        const here = local.build();
        const there = foreign.build();
        expect(canonicalize(there)).toBe(canonicalize(here));
        expect(stableHash(there)).toBe(stableHash(here));
        const reader = new StepReader(HASH);
        expect(resultKey(reader, there)).toBe(resultKey(reader, here));
      }),
      fuzzParameters(1000),
    );
  });

  it('keep two different foreign values apart exactly as their local twins', () => {
    fc.assert(
      fc.property(crossRealmPair, crossRealmPair, (left, right) => {
        const localEqual = canonicalize(left.local.build()) === canonicalize(right.local.build());
        expect(canonicalize(left.foreign.build()) === canonicalize(right.foreign.build())).toBe(localEqual);
      }),
      fuzzParameters(1000),
    );
  });
});

describe('a step whose calls share parts', () => {
  it('reads each call as a fresh read would, up to where the step budget cuts it, on small budgets too', () => {
    fc.assert(
      fc.property(stepWithSharedParts, fc.constantFrom(SMALL_LIMITS, DEFAULT_LIMITS), (step, limits) => {
        const calls = step.build() as unknown[];
        const reader = new StepReader(HASH, limits);
        let cut = 0;
        for (const [index, call] of calls.entries()) {
          const raw = index % 2 === 0;
          const form = raw ? reader.rawForm(call) : reader.form(call);
          const fresh = readForm(call, HASH, raw ? RAW_STRING_LENGTH : LONG_STRING_LENGTH, undefined, limits).form;
          if (form.endsWith(TRUNCATED_MARKER)) {
            cut++;
            // Arrays, objects and strings only: a cut form is the fresh form up to the cut.
            expect(fresh.startsWith(form.slice(0, -TRUNCATED_MARKER.length))).toBe(true);
          } else {
            expect(form).toBe(fresh);
          }
        }
        expect(reader.truncated).toBe(cut);
      }),
      fuzzParameters(1000),
    );
  });

  it('gives equal results equal keys and different results different keys, as their canonical forms', () => {
    fc.assert(
      fc.property(stepWithSharedParts, (step) => {
        const calls = step.build() as unknown[];
        const reader = new StepReader(HASH);
        const keys = calls.map((call) => resultKey(reader, call));
        const forms = calls.map((call) => canonicalize(call));
        for (const [index, key] of keys.entries()) {
          for (const [other, otherKey] of keys.entries()) expect(key === otherKey).toBe(forms[index] === forms[other]);
        }
      }),
      fuzzParameters(1000),
    );
  });
});

describe('giants, with the limits scaled down', () => {
  it('never throw, and write every string past the limit as its token wherever it is', () => {
    const text = fc.string({ unit: 'binary', minLength: 0, maxLength: 60 });
    const holder = fc.constantFrom<(inner: unknown) => unknown>(
      (inner) => inner,
      (inner) => [inner],
      (inner) => ({ inner }),
      (inner) => (typeof inner === 'string' ? { [inner]: 1 } : inner),
      (inner) => new Map([[inner, inner]]),
      (inner) => new Set([inner]),
    );
    fc.assert(
      fc.property(text, holder, (inner, hold) => {
        const form = readForm(hold(inner), publicHash, SMALL_TOKEN_FROM, undefined, SMALL_LIMITS).form;
        const token = `#s${String(inner.length)}:${referenceHash(inner)}`;
        if (inner.length > SMALL_TOKEN_FROM) {
          expect(form).toContain(token);
          expect(form).not.toContain(JSON.stringify(inner));
        } else {
          expect(form).not.toContain(token);
        }
      }),
      fuzzParameters(2000),
    );
  });

  it('write bigints past the bit limit as tokens that tell every bigint apart', () => {
    fc.assert(
      fc.property(bigIntAround(MAX_BIGINT_BITS), bigIntAround(MAX_BIGINT_BITS), (left, right) => {
        const magnitude = left < 0n ? -left : left;
        if (magnitude >= 1n << BigInt(MAX_BIGINT_BITS)) {
          expect(canonicalize(left)).toMatch(new RegExp(`^#n${String(magnitude.toString(2).length)}:[0-9a-f]{28}$`));
        } else {
          expect(canonicalize(left)).toBe(`${String(left)}n`);
        }
        expect(canonicalize(left) === canonicalize(right)).toBe(left === right);
      }),
      fuzzParameters(300),
    );
  });

  it('hash every string under every key as the reference SipHash does, long repeats included', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 600 }),
      fc.tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 7 }), fc.integer({ min: 100, max: 600 })).map(([piece, count]) => piece.repeat(count)),
    );
    const key = fc.uint8Array({ minLength: 16, maxLength: 16 }).map(hexOf);
    fc.assert(
      fc.property(text, key, (value, hashKey) => {
        expect(keyedHash(hashKey)(value)).toBe(referenceHash(value, hashKey));
      }),
      fuzzParameters(300),
    );
  });
});
