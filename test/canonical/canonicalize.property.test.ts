import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import safeStableStringify from 'safe-stable-stringify';
import { describe, expect, it } from 'vitest';
import { publicHash } from '../../src/canonical/hash.js';
import { canonicalize, stableHash } from '../../src/index.js';
import { referenceHash } from '../support/sip-hash-reference.js';

const everything = {
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withTypedArray: true,
  withSparseArray: true,
  stringUnit: 'binary',
} as const;

const json = fc.jsonValue({ stringUnit: 'binary' });

/** The same value with every object's keys inserted in another order (reversed, or rotated by `shift`). */
function reorderKeys(value: unknown, shift: number): unknown {
  if (Array.isArray(value)) return value.map((item) => reorderKeys(item, shift));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const turn = shift % Math.max(entries.length, 1);
  const rotated = shift % 2 === 0 ? entries.reverse() : [...entries.slice(turn), ...entries.slice(0, turn)];
  const copy: Record<string, unknown> = {};
  for (const [key, item] of rotated) {
    // defineProperty, so a key named __proto__ stays an own property.
    const descriptor = { value: reorderKeys(item, shift), enumerable: true, writable: true, configurable: true };
    Object.defineProperty(copy, key, descriptor);
  }
  return copy;
}

/** `outer` with `inner` put under the key `slot` of one of its objects (or of a new root), chosen by `choice`. */
function embed(outer: unknown, choice: number, inner: unknown): unknown {
  const holders: Record<string, unknown>[] = [];
  const collect = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return;
    if (!Array.isArray(value)) holders.push(value as Record<string, unknown>);
    for (const item of Object.values(value)) collect(item);
  };
  const copy = { root: JSON.parse(JSON.stringify(outer)) as unknown };
  collect(copy);
  const holder = holders[choice % holders.length] ?? copy;
  Object.defineProperty(holder, 'slot', { value: inner, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** JSON's view of a JSON value: -0 becomes 0. */
const normalise = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

describe('canonicalize properties', () => {
  it('never throws, and always gives a string that does not start with #', () => {
    fc.assert(
      fc.property(fc.anything(everything), (value) => {
        const form = canonicalize(value);
        expect(typeof form).toBe('string');
        expect(form.startsWith('#')).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('gives equal values built separately the same form', () => {
    fc.assert(
      fc.property(fc.clone(fc.anything(everything), 2), ([left, right]) => {
        expect(canonicalize(left)).toBe(canonicalize(right));
      }),
      { numRuns: 500 },
    );
  });

  it('ignores the order keys were inserted in', () => {
    fc.assert(
      fc.property(json, fc.nat(), (value, shift) => {
        expect(canonicalize(reorderKeys(value, shift))).toBe(canonicalize(value));
      }),
      { numRuns: 500 },
    );
  });

  it('ignores the order Map entries and Set members were inserted in', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(json, json), { selector: ([key]) => key }), (entries) => {
        const reversed = [...entries].reverse();
        expect(canonicalize(new Map(reversed))).toBe(canonicalize(new Map(entries)));
        const members = entries.map(([key]) => key);
        expect(canonicalize(new Set([...members].reverse()))).toBe(canonicalize(new Set(members)));
      }),
    );
  });

  it('writes JSON values as compact JSON with sorted keys, the same text safe-stable-stringify writes', () => {
    fc.assert(
      fc.property(json, (value) => {
        const form = canonicalize(value);
        expect(form).toBe(safeStableStringify(value));
        expect(JSON.parse(form)).toEqual(normalise(value));
      }),
      { numRuns: 500 },
    );
  });

  it('gives different JSON values different forms', () => {
    fc.assert(
      fc.property(json, json, (left, right) => {
        const same = isDeepStrictEqual(normalise(left), normalise(right));
        expect(canonicalize(left) === canonicalize(right)).toBe(same);
      }),
      { numRuns: 1000 },
    );
  });

  it('never makes a value with an unreadable part equal to anything, itself read again included', () => {
    const unreadable = fc.constantFrom<() => unknown>(
      () => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      },
      () => ({
        get broken(): never {
          throw new Error('no');
        },
      }),
      () => ({ toJSON: (): never => { throw new Error('no'); } }),
    );
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.nat(), unreadable, fc.anything(everything), (outer, choice, make, other) => {
        const value = embed(outer, choice, make());
        const form = canonicalize(value);
        expect(form).toMatch(/\[Unreadable:\d+\]/);
        expect(canonicalize(value)).not.toBe(form);
        expect(canonicalize(other)).not.toBe(form);
        expect(stableHash(value)).not.toBe(stableHash(value));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a string apart from every other value that could print like it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.anything(everything), (text, other) => {
        fc.pre(text !== other && !(other instanceof String));
        expect(canonicalize(text)).not.toBe(canonicalize(other));
      }),
      { numRuns: 500 },
    );
  });
});

describe('stableHash properties', () => {
  it('is 28 lowercase hex characters, and the hash of the canonical form when that holds no long string', () => {
    fc.assert(
      fc.property(fc.anything(everything), (value) => {
        const hash = stableHash(value);
        expect(hash).toMatch(/^[0-9a-f]{28}$/);
        const form = canonicalize(value);
        // A form of at most 1,024 characters holds no string of more (those are hashed raw; see hash.test.ts).
        if (form.length <= 1024) expect(hash).toBe(publicHash(form));
      }),
      { numRuns: 300 },
    );
  });

  it('hashes any string, lone surrogates included, as the reference SipHash does under the public key', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(publicHash(text)).toBe(referenceHash(text));
      }),
      { numRuns: 200 },
    );
  });

  it('separates different strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (left, right) => {
        fc.pre(left !== right);
        expect(publicHash(left)).not.toBe(publicHash(right));
      }),
      { numRuns: 1000 },
    );
  });
});
