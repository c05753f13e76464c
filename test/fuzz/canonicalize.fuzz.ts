import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize, stableHash } from '../../src/index.js';
import { HOSTILE_FACTORIES } from '../support/hostile-values.js';
import { jsonReferenceForm, nearMiss } from '../support/json-equality.js';
import { reorderKeys } from '../support/reorder-keys.js';
import { anyValue, richValue, tieReferences } from './arbitraries.js';
import { fuzzParameters } from './fuzz-settings.js';

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
      fuzzParameters(1000),
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
      fuzzParameters(1000),
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
      fuzzParameters(1000),
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
      fuzzParameters(1000),
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
      fuzzParameters(2000),
    );
  });
});
