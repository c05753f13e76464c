import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/canonical/canonicalize.js';
import { type ReadLimits, DEFAULT_LIMITS, TRUNCATED_MARKER } from '../../src/canonical/limits.js';
import { PUBLIC_SEEDS, hashText, publicHash } from '../../src/canonical/murmur-hash.js';
import { stableHash } from '../../src/canonical/stable-hash.js';
import { Walker } from '../../src/canonical/walker.js';

/** Limits small enough to reach in a test; the defaults' own values are tested in limits.test.ts. */
const SMALL: ReadLimits = {
  maxDepth: 8,
  maxValues: 50,
  maxCharacters: 100,
  longStringLength: 40,
  rawStringLength: 10,
  maxBigIntBits: 64,
  stepValues: 120,
  stepCharacters: 250,
};

const token = (text: string): string => `#s${String(text.length)}:${hashText(text, PUBLIC_SEEDS)}`;
const read = (value: unknown, limits: ReadLimits = SMALL, tokenFrom = limits.longStringLength): string =>
  new Walker(limits, publicHash).read(value, tokenFrom);

describe('Walker: long strings and huge bigints', () => {
  it('writes a string longer than the limit as its token, in every place a string goes', () => {
    const long = 'q"'.repeat(25);
    expect(read(long)).toBe(token(long));
    expect(read({ [long]: long })).toBe(`{${token(long)}:${token(long)}}`);
    expect(read(new Set([long]))).toBe(`Set[${token(long)}]`);
    expect(read(Object(long))).toBe(token(long));
    expect(read(Symbol(long))).toBe(`Symbol(${token(long)})`);
    expect(read(Object.defineProperty(() => 1, 'name', { value: long }))).toBe(`Function(${token(long)})`);
    expect(read(new RegExp(long))).toBe(`RegExp(${token(`/${long}/`)})`);
    const fits = 'q'.repeat(40);
    expect(read(fits)).toBe(JSON.stringify(fits));
  });

  it('writes a bigint of more bits than the limit as its token, in linear time', () => {
    expect(read(2n ** 64n - 1n)).toBe('18446744073709551615n');
    expect(read(-(2n ** 64n) + 1n)).toBe('-18446744073709551615n');
    expect(read(2n ** 64n)).toBe(`#n65:${hashText((2n ** 64n).toString(16), PUBLIC_SEEDS)}`);
    expect(read(-(2n ** 64n))).toBe(`#n65:${hashText((-(2n ** 64n)).toString(16), PUBLIC_SEEDS)}`);
    expect(read([Object(2n ** 70n)])).toBe(`[#n71:${hashText((2n ** 70n).toString(16), PUBLIC_SEEDS)}]`);
  });

  // Real sizes from the red-team report: seconds on a busy machine, so twice the 60 s every test gets.
  it('hashes a 16 MiB bigint and a 100 MB string of control characters at the top level without throwing', { timeout: 120_000 }, () => {
    const huge = 2n ** BigInt(2 ** 27) - 12_345n;
    const start = performance.now();
    expect(canonicalize(huge)).toMatch(/^#n134217728:[0-9a-f]{28}$/);
    expect(performance.now() - start).toBeLessThan(5000);
    const controls = '\u0001'.repeat(100 * 2 ** 20);
    expect(canonicalize(controls)).toBe(token(controls));
    expect(stableHash(controls)).toMatch(/^[0-9a-f]{28}$/);
    expect(canonicalize({ nested: controls })).toBe(`{"nested":${token(controls)}}`);
  });

  it('hashes a long string met again in a read only once', () => {
    const long = 'z'.repeat(41);
    expect(read([long, long, 'other'.repeat(9), long], { ...SMALL, maxCharacters: 1000 })).toBe(`[${token(long)},${token(long)},${token('other'.repeat(9))},${token(long)}]`);
  });
});

describe('Walker: the character budget', () => {
  it('cuts at the string that would pass it, counting each string by its length', () => {
    const ten = 'x'.repeat(10);
    // 10 strings of 10 fit 100 characters exactly; the 11th is cut.
    expect(read(Array.from({ length: 10 }, () => ten))).toBe(JSON.stringify(Array.from({ length: 10 }, () => ten)));
    expect(read(Array.from({ length: 11 }, () => ten))).toBe(`[${Array.from({ length: 10 }, () => JSON.stringify(ten)).join(',')},${TRUNCATED_MARKER}`);
  });

  it('counts what escaping adds as nothing, and a token as the long-string limit', () => {
    const quotes = '"'.repeat(40);
    expect(read([quotes, quotes])).toBe(`[${JSON.stringify(quotes)},${JSON.stringify(quotes)}]`);
    const long = 'L'.repeat(1000);
    expect(read([long, long])).toBe(`[${token(long)},${token(long)}]`);
    expect(read([long, long, long])).toBe(`[${token(long)},${token(long)},${TRUNCATED_MARKER}`);
  });

  it('counts property names, cutting at the name that would pass it', () => {
    const key = 'k'.repeat(30);
    const value = { [`${key}1`]: 1, [`${key}2`]: 2, [`${key}3`]: 3, [`${key}4`]: 4 };
    expect(read(value)).toBe(`{"${key}1":1,"${key}2":2,"${key}3":3,${TRUNCATED_MARKER}`);
    expect(read({ [`${key}1`]: undefined, [`${key}2`]: undefined, [`${key}3`]: 1, [`${key}4`]: 2 })).toBe(
      `{"${key}3":1,"${key}4":2}`,
    );
  });

  it('counts descriptions, names, regular expressions and bigint digits', () => {
    const name = 'n'.repeat(39);
    const named = Object.defineProperty(() => 1, 'name', { value: name });
    expect(read([named, named, named])).toBe(`[Function("${name}"),Function("${name}"),${TRUNCATED_MARKER}`);
    expect(read([Symbol(name), Symbol(name), Symbol(name)])).toBe(`[Symbol("${name}"),Symbol("${name}"),${TRUNCATED_MARKER}`);
    const pattern = new RegExp('r'.repeat(35));
    expect(read([pattern, pattern, pattern])).toBe(`[RegExp("/${'r'.repeat(35)}/"),RegExp("/${'r'.repeat(35)}/"),${TRUNCATED_MARKER}`);
    const digits = String(2n ** 63n);
    expect(digits).toHaveLength(19);
    expect(read(Array.from({ length: 6 }, () => 2n ** 63n))).toBe(
      `[${Array.from({ length: 5 }, () => `${digits}n`).join(',')},${TRUNCATED_MARKER}`,
    );
    // A token costs the bits the limit allows, over four: 16 characters each here.
    const tokenForm = `#n65:${hashText((2n ** 64n).toString(16), PUBLIC_SEEDS)}`;
    expect(read(Array.from({ length: 7 }, () => 2n ** 64n))).toBe(`[${Array.from({ length: 6 }, () => tokenForm).join(',')},${TRUNCATED_MARKER}`);
    expect(read(Array.from({ length: 40 }, () => Symbol()))).toBe(`[${Array.from({ length: 40 }, () => 'Symbol()').join(',')}]`);
  });

  // Real sizes from the red-team report: seconds on a busy machine, so twice the 60 s every test gets.
  it('bounds 130,000 references to one 2 KB string by characters, not values', { timeout: 120_000 }, () => {
    const text = 'c'.repeat(2048);
    const start = performance.now();
    const form = canonicalize(Array.from({ length: 130_000 }, () => text));
    expect(performance.now() - start).toBeLessThan(5000);
    expect(form.endsWith(`,${TRUNCATED_MARKER}`)).toBe(true);
    expect(form.split(',')).toHaveLength(DEFAULT_LIMITS.maxCharacters / 2048 + 1);
  });
});

describe('Walker: remembered forms', () => {
  it('writes an object met again exactly as a new walk would, at any depth', () => {
    const shared = { rows: Array.from({ length: 20 }, (_, index) => ({ index })) };
    const deep = (levels: number, inner: unknown): unknown => (levels === 0 ? inner : { down: deep(levels - 1, inner) });
    const limits: ReadLimits = { ...SMALL, maxValues: 10_000, maxCharacters: 10_000, stepValues: 100_000, stepCharacters: 100_000 };
    const walker = new Walker(limits, publicHash);
    for (const levels of [0, 1, 4, 5, 6, 7]) {
      const value = [shared, deep(levels, shared)];
      expect(walker.read(value, limits.longStringLength), String(levels)).toBe(read(value, limits));
    }
  });

  it('writes it again when the budget left would cut it', () => {
    const shared = Array.from({ length: 20 }, (_, index) => index);
    expect(read([shared, shared, shared])).toBe(`[[${shared.join(',')}],[${shared.join(',')}],[${shared.slice(0, 6).join(',')},${TRUNCATED_MARKER}`);
    const limits: ReadLimits = { ...SMALL, maxValues: 1000, maxCharacters: 3000, longStringLength: 2000, stepCharacters: 5000 };
    const long = { t: 'a'.repeat(1100) };
    const quoted = JSON.stringify(long.t);
    expect(read([long, long, long], limits)).toBe(`[{"t":${quoted}},{"t":${quoted}},{"t":${TRUNCATED_MARKER}`);
    const text = { text: 'w'.repeat(40) };
    const many = Array.from({ length: 3 }, () => text);
    expect(read(many)).toBe(`[{"text":"${'w'.repeat(40)}"},{"text":"${'w'.repeat(40)}"},{"text":${TRUNCATED_MARKER}`);
  });

  it('does not remember forms holding a cycle, a depth cut or an unreadable value', () => {
    const pad = Array.from({ length: 20 }, () => 0);
    const cyclic: Record<string, unknown> = { pad };
    cyclic.self = cyclic;
    expect(read([cyclic, { inner: cyclic }])).toBe(
      `[{"pad":[${pad.join(',')}],"self":[Circular:1]},{"inner":{"pad":[${pad.join(',')}],"self":[Circular:2]}}]`,
    );
    const hostile = {
      pad: Array.from({ length: 20 }, () => 0),
      get broken(): number {
        throw new Error('no');
      },
    };
    const [first, second] = read([hostile, hostile]).match(/\[Unreadable:\d+\]/g) ?? [];
    expect(first).not.toBe(second);
  });

  it('calls the getters and toJSON of an object met again only once', () => {
    let calls = 0;
    const value = {
      pad: Array.from({ length: 20 }, () => 0),
      toJSON() {
        calls++;
        return { pad: this.pad };
      },
    };
    read([value, value, value], { ...SMALL, maxValues: 1000, stepValues: 1000 });
    expect(calls).toBe(1);
  });
});

describe('Walker: the step budget', () => {
  it('shares the step budget between reads and says when a read was cut by it', () => {
    const walker = new Walker(SMALL, publicHash);
    const forty = Array.from({ length: 39 }, () => 0);
    expect(walker.read(forty, 40)).toBe(`[${forty.join(',')}]`);
    expect(walker.read(forty, 40)).toBe(`[${forty.join(',')}]`);
    expect(walker.truncatedReads).toBe(0);
    expect(walker.stepBudgetSpent).toBe(false);
    // 80 of 120 spent: the third read may spend 40 instead of 50.
    expect(walker.read(forty, 40)).toBe(`[${forty.join(',')}]`);
    expect(walker.read(1, 40)).toBe(TRUNCATED_MARKER);
    expect(walker.truncatedReads).toBe(1);
    expect(walker.stepBudgetSpent).toBe(true);
  });

  it('tells a cut by the per-value limit from a cut by the step', () => {
    const walker = new Walker(SMALL, publicHash);
    walker.read(Array.from({ length: 60 }, () => 0), 40);
    expect([walker.truncatedReads, walker.stepBudgetSpent]).toEqual([1, false]);
    walker.read(['x'.repeat(40), 'x'.repeat(40), 'x'.repeat(40)], 40);
    expect([walker.truncatedReads, walker.stepBudgetSpent]).toEqual([2, false]);
    // 170 of the step's 250 characters are left: two strings of 40 still fit, three do not.
    walker.read(['y'.repeat(40), 'y'.repeat(40)], 40);
    expect([walker.truncatedReads, walker.stepBudgetSpent]).toEqual([2, false]);
    walker.read(['z'.repeat(40), 'z'.repeat(40), 'z'.repeat(40)], 40);
    expect([walker.truncatedReads, walker.stepBudgetSpent]).toEqual([3, true]);
  });

  it('lets go of what it read, while it is kept for later reads', async () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const walker = new Walker(SMALL, publicHash);
    const read = (): WeakRef<object> => {
      const inner = { b: [{ c: 1 }] };
      walker.read({ a: inner }, 40);
      return new WeakRef(inner);
    };
    const reference = read();
    // A WeakRef keeps its target until the current job ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    expect(reference.deref()).toBeUndefined();
    expect(walker.read({ d: 2 }, 40)).toBe('{"d":2}');
  });
});

describe('Walker: never throws', () => {
  it('turns a failure nothing foresaw into an unreadable value rather than an exception', () => {
    const failing = new Proxy(SMALL, {
      get(target, key): unknown {
        if (key === 'maxBigIntBits') throw new RangeError('unforeseen');
        return Reflect.get(target, key);
      },
    });
    expect(read(1n, failing)).toMatch(/^\[Unreadable:\d+\]$/);
    expect(read({ a: 1n }, failing)).toMatch(/^\[Unreadable:\d+\]$/);
  });
});
