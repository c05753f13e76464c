import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/canonical/canonicalize.js';
import { createHashKey, hashOfKey } from '../../src/canonical/hash-key.js';
import { type ReadLimits, DEFAULT_LIMITS, TRUNCATED_MARKER } from '../../src/canonical/limits.js';
import { StepReader } from '../../src/canonical/step-reader.js';
import { Walker } from '../../src/canonical/walker.js';
import { hashText } from '../../src/canonical/murmur-hash.js';
import { murmurMulticollision } from '../support/murmur-multicollision.js';

const KEY = '0123456789abcdef0123456789abcdef';
const HASH = hashOfKey(KEY);
const SMALL: ReadLimits = {
  maxDepth: 6,
  maxValues: 60,
  maxCharacters: 400,
  longStringLength: 12,
  rawStringLength: 4,
  maxBigIntBits: 40,
  stepValues: 150,
  stepCharacters: 1000,
};

/** The form a fresh walk of one value gives, with the whole per-value budget. */
const fresh = (value: unknown, limits: ReadLimits, tokenFrom: number): string => new Walker(limits, HASH).read(value, tokenFrom);

/** Values that share parts: a pool of values, and containers that point into it, so objects recur in one step. */
const sharedValues = fc
  .tuple(
    fc.array(fc.jsonValue({ maxDepth: 3 }), { minLength: 1, maxLength: 4 }),
    fc.array(fc.array(fc.nat(), { maxLength: 6 }), { minLength: 1, maxLength: 6 }),
    fc.array(fc.string({ unit: 'binary', maxLength: 20 }), { maxLength: 3 }),
  )
  .map(([leaves, wiring, strings]) => {
    const pool: unknown[] = [...leaves, ...strings];
    for (const links of wiring) {
      const picked = links.map((link) => pool[link % pool.length]);
      pool.push(links.length % 2 === 0 ? picked : Object.fromEntries(picked.map((item, index) => [`k${String(index)}`, item])));
    }
    return pool;
  });

describe('StepReader: remembered forms are the forms a fresh walk writes', () => {
  const roomy: ReadLimits = { ...SMALL, maxDepth: 64, maxValues: 5000, maxCharacters: 100_000, stepValues: 100_000, stepCharacters: 10_000_000 };

  it('gives every read of a step the form a walker that remembers nothing writes after the same reads', () => {
    fc.assert(
      fc.property(sharedValues, fc.constantFrom(SMALL, roomy), fc.boolean(), (pool, limits, wrapDeep) => {
        const remembering = new Walker(limits, HASH);
        const forgetting = new Walker(limits, HASH, false);
        for (const [index, item] of pool.entries()) {
          // Meet the same objects again deeper down, where a depth cut may fall inside them.
          const value = wrapDeep ? [[[[item]]], item] : item;
          const tokenFrom = index % 2 === 0 ? limits.longStringLength : limits.rawStringLength;
          expect(remembering.read(value, tokenFrom)).toBe(forgetting.read(value, tokenFrom));
        }
        expect(remembering.truncatedReads).toBe(forgetting.truncatedReads);
        expect(remembering.stepBudgetSpent).toBe(forgetting.stepBudgetSpent);
      }),
      { numRuns: 500 },
    );
  });
});

describe('StepReader: the keys at the top of the last form', () => {
  const reader = (): StepReader => new StepReader(KEY);

  it('lists the keys of an object written member by member, in the order written, and nothing for other tops', () => {
    const steps = reader();
    steps.rawForm({ b: 1, a: { z: 2 }, c: undefined });
    expect(steps.topKeys).toEqual(['a', 'b', 'c']);
    steps.rawForm(Object.assign(new Error('boom'), { code: 7 }));
    expect(steps.topKeys).toEqual(['code', 'message', 'name']);
    steps.rawForm({ toJSON: () => ({ y: 1, x: 2 }) });
    expect(steps.topKeys).toEqual(['x', 'y']);
    for (const top of [[{ a: 1 }], 'text', 42, new Map([['error', 1]]), new Date(0), null, undefined, { toJSON: () => 'text' }]) {
      steps.rawForm(top);
      expect(steps.topKeys).toBeUndefined();
    }
  });

  it('lists nothing for an object written from memory, whose members were not walked again', () => {
    // Large enough to be remembered (see REMEMBER_FROM_VALUES), read twice with the same cut-offs.
    const shared = { error: 'x', ok: false, rows: Array.from({ length: 40 }, (_, index) => index) };
    const steps = reader();
    steps.rawForm([shared]);
    steps.rawForm(shared);
    expect(steps.topKeys).toBeUndefined();
    // A fresh reader walks it.
    const other = reader();
    other.rawForm(shared);
    expect(other.topKeys).toEqual(['error', 'ok', 'rows']);
  });

  it('lists every key a form has at its top level, on any value', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 8 }), (value) => {
        const steps = reader();
        const form = steps.rawForm(value);
        const parsed = JSON.parse(form) as Record<string, unknown>;
        expect(steps.topKeys).toBeDefined();
        for (const key of Object.keys(parsed)) expect(steps.topKeys).toContain(key);
      }),
      { numRuns: 200 },
    );
  });
});

describe('StepReader: keys', () => {
  it('gives two values equal keys exactly when their canonical forms are equal', () => {
    const text = fc.string({ unit: 'binary', maxLength: 9 });
    const value = fc.oneof(text, fc.array(text, { maxLength: 3 }), fc.dictionary(text, text, { maxKeys: 3 }), fc.constant('abcde'));
    fc.assert(
      fc.property(value, value, (left, right) => {
        const reader = new StepReader(KEY, { ...SMALL, maxValues: 1000, stepValues: 100_000, stepCharacters: 100_000 });
        const sameForm = fresh(left, SMALL, SMALL.longStringLength) === fresh(right, SMALL, SMALL.longStringLength);
        expect(reader.key(left) === reader.key(right)).toBe(sameForm);
      }),
      { numRuns: 1000 },
    );
  });

  it('hashes long strings in results raw, with the reader key, and never lets a token equal a quoted string', () => {
    const reader = new StepReader(KEY, SMALL);
    const long = 'x"y\\z';
    expect(reader.key(long)).toBe(`#s5:${HASH(long)}`);
    expect(reader.key([long])).toBe(`[#s5:${HASH(long)}]`);
    expect(reader.key('abcd')).toBe('"abcd"');
    expect(reader.key(reader.key(long))).not.toBe(reader.key(long));
    expect(reader.form(long)).toBe(JSON.stringify(long));
  });

  it('gives a string too long for any form the same token in arguments and in results', () => {
    const reader = new StepReader(KEY, SMALL);
    const long = 'a'.repeat(13);
    expect(reader.form(long)).toBe(reader.key(long));
    expect(reader.form({ text: long })).toBe(reader.key({ text: long }));
  });

  it('keeps short forms and hashes long ones with the reader key', () => {
    const reader = new StepReader(KEY, SMALL);
    const short = 'f'.repeat(256);
    expect(reader.formKey(short)).toBe(short);
    const long = 'f'.repeat(257);
    expect(reader.formKey(long)).toBe(`#257:${HASH(long)}`);
    const list = Array.from({ length: 100 }, (_, index) => index);
    expect(new StepReader(KEY).key(list)).toBe(`#${String(JSON.stringify(list).length)}:${HASH(JSON.stringify(list))}`);
  });

  it('keys strings for names and texts: quoted when short, a keyed token when long, costing nothing', () => {
    const reader = new StepReader(KEY, SMALL);
    expect(reader.stringKey('search')).toBe('"search"');
    const long = 'n'.repeat(300);
    expect(reader.stringKey(long)).toBe(`#s300:${HASH(long)}`);
    expect(reader.truncated).toBe(0);
    const huge = 'N'.repeat(2 ** 22);
    expect(reader.stringKey(huge)).toMatch(/^#s4194304:[0-9a-f]{28}$/);
  });

  it('compares the same way in two readers with the same key, and differently with another key', () => {
    const value = { text: 'w'.repeat(2000) };
    expect(new StepReader(KEY).key(value)).toBe(new StepReader(KEY).key(value));
    expect(new StepReader(createHashKey()).key(value)).not.toBe(new StepReader(KEY).key(value));
    expect(new StepReader(KEY).form(value)).toBe(canonicalize(value));
  });
});

describe('StepReader: comparisons no one can forge without the key', () => {
  it('tells apart strings that collide under MurmurHash3 with any seeds, as results, forms and names', () => {
    const strings = murmurMulticollision(1_500, 3);
    for (let round = 0; round < 5; round++) {
      const key = createHashKey();
      const seeds = [round, round * 7919, -round, 0x12345678 ^ round] as const;
      expect(new Set(strings.map((text) => hashText(text, seeds))).size).toBe(1);
      const reader = new StepReader(key);
      expect(new Set(strings.map((text) => reader.key(text))).size).toBe(strings.length);
      expect(new Set(strings.map((text) => reader.key({ page: text }))).size).toBe(strings.length);
      expect(new Set(strings.map((text) => reader.stringKey(text))).size).toBe(strings.length);
      expect(new Set(strings.map((text) => reader.formKey(text))).size).toBe(strings.length);
    }
  });

  it('gives distinct strings longer than 256 code units distinct keys', () => {
    const reader = new StepReader(createHashKey());
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 257, maxLength: 400 }), fc.string({ unit: 'binary', minLength: 257, maxLength: 400 }), (one, other) => {
        fc.pre(one !== other);
        expect(reader.stringKey(one)).not.toBe(reader.stringKey(other));
        expect(reader.formKey(one)).not.toBe(reader.formKey(other));
      }),
    );
  });
});

describe('StepReader: one budget per step', () => {
  it('shares the budget between every read and reports the cut', () => {
    const reader = new StepReader(KEY, SMALL);
    const fifty = Array.from({ length: 49 }, () => 0);
    for (let read = 0; read < 3; read++) expect(reader.form(fifty)).toBe(`[${fifty.join(',')}]`);
    expect([reader.truncated, reader.budgetSpent]).toEqual([0, false]);
    expect(reader.key(1)).toBe(TRUNCATED_MARKER);
    expect(reader.form({ a: 1 })).toBe(TRUNCATED_MARKER);
    expect([reader.truncated, reader.budgetSpent]).toEqual([2, true]);
  });

  // Real sizes from the red-team report: seconds on a busy machine, so twice the 60 s every test gets.
  it('reads 1,000 calls sharing one sparse 1M-slot array in bounded time', { timeout: 120_000 }, () => {
    const sparse = new Array<number>(1_000_000);
    sparse[999_999] = 1;
    const reader = new StepReader(KEY);
    const start = performance.now();
    const forms = Array.from({ length: 1000 }, () => reader.form({ data: sparse }));
    expect(performance.now() - start).toBeLessThan(10_000);
    expect(reader.budgetSpent).toBe(true);
    expect(reader.truncated).toBe(1000);
    expect(forms.filter((form) => form === TRUNCATED_MARKER).length).toBeGreaterThan(980);
  });

  it('reads a step whose results share one large object once, writing each the same', () => {
    const shared = { hits: Array.from({ length: 5000 }, (_, index) => ({ id: index, title: `hit ${String(index)}` })) };
    const reader = new StepReader(KEY);
    const keys = Array.from({ length: 100 }, () => reader.key({ result: shared }));
    expect(new Set(keys).size).toBe(1);
    expect(reader.truncated).toBe(0);
    expect(keys[0]).toBe(new StepReader(KEY).key({ result: shared }));
  });

  it('uses the documented limits by default', () => {
    const reader = new StepReader(KEY);
    expect(reader.form('x'.repeat(DEFAULT_LIMITS.longStringLength))).toHaveLength(DEFAULT_LIMITS.longStringLength + 2);
    expect(reader.key('x'.repeat(DEFAULT_LIMITS.rawStringLength))).toMatch(/^#1026:[0-9a-f]{28}$/);
    expect(reader.key('x'.repeat(DEFAULT_LIMITS.rawStringLength + 1))).toMatch(/^#s1025:/);
  });
});
