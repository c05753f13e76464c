/**
 * The one hash family, SipHash-1-3-128 over UTF-16LE code units, checked against the BigInt reference in
 * test/support/sip-hash-reference.ts (itself checked against the published vectors here): `stableHash` under the public
 * key, a guard's comparisons under a random key of its run.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHashKey, isHashKey, keyedHash, publicHash } from '../../src/canonical/hash.js';
import { canonicalize, createGuard, stableHash, type GuardStep } from '../../src/index.js';
import { bytesOfHex, hexOf, PUBLIC_KEY, referenceHash, referenceSipHash } from '../support/sip-hash-reference.js';
import { SIPHASH_1_3_128_EMPTY, SIPHASH_1_3_64, SIPHASH_2_4_128 } from '../support/sip-hash-vectors.js';

/** The key 00 01 ... 0f of the published vectors. */
const VECTOR_KEY = '000102030405060708090a0b0c0d0e0f';
const messageOfLength = (length: number): Uint8Array => Uint8Array.from({ length }, (_, index) => index);

describe('the reference implementation these tests trust', () => {
  it('gives the published SipHash-1-3 (64-bit) and SipHash-2-4 (128-bit) vectors, and SipHash-1-3-128 of nothing', () => {
    const key = bytesOfHex(VECTOR_KEY);
    for (let length = 0; length < 64; length++) {
      const out64 = referenceSipHash(messageOfLength(length), key, 1, 3, 8);
      expect(hexOf(out64.slice().reverse()), `SipHash-1-3 of ${String(length)} bytes`).toBe(SIPHASH_1_3_64[length]);
      expect(hexOf(referenceSipHash(messageOfLength(length), key, 2, 4, 16)), `SipHash-2-4 of ${String(length)} bytes`).toBe(SIPHASH_2_4_128[length]);
    }
    expect(hexOf(referenceSipHash(new Uint8Array(0), key, 1, 3, 16))).toBe(SIPHASH_1_3_128_EMPTY);
  });
});

describe('stableHash', () => {
  it("is the first 112 bits of SipHash-1-3-128 of the canonical form's UTF-16LE code units under the public key", () => {
    // Forms of every length from 1 to 9, so every tail of a 4-unit block, and a few whole blocks past it.
    const values: unknown[] = [0, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000];
    values.push('', '\ud800', 'lone \udc00 low', '\u{1F600}', { query: 'agent loop detection', limit: 10 }, [undefined, 10n, new Map([[1, 2]])]);
    values.push('x'.repeat(1024), 'é'.repeat(127), 'é'.repeat(128));
    for (const value of values) {
      const form = canonicalize(value);
      expect(stableHash(value), form.slice(0, 40)).toBe(referenceHash(form, PUBLIC_KEY));
    }
    expect(values.slice(0, 9).map((value) => canonicalize(value).length)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(stableHash({ query: 'agent loop detection', limit: 10 })).toMatch(/^[0-9a-f]{28}$/);
  });

  it('hashes the empty text as the reference does (the one-byte message 0), under the public key and the vectors key', () => {
    expect(publicHash('')).toBe(referenceHash('', PUBLIC_KEY));
    expect(keyedHash(VECTOR_KEY)('')).toBe(hexOf(referenceSipHash(Uint8Array.of(0), bytesOfHex(VECTOR_KEY), 1, 3, 16)).slice(0, 28));
    expect(keyedHash(VECTOR_KEY)('')).not.toBe(SIPHASH_1_3_128_EMPTY.slice(0, 28));
  });

  it('hashes a string longer than 1,024 code units raw, as its token, wherever it is', () => {
    const long = 'a"\n\ud800'.repeat(300);
    expect(long).toHaveLength(1200);
    const token = `#s1200:${referenceHash(long)}`;
    expect(stableHash(long)).toBe(referenceHash(token));
    expect(stableHash({ text: long, n: 1 })).toBe(referenceHash(`{"n":1,"text":${token}}`));
    expect(stableHash(new Map([[long, long]]))).toBe(referenceHash(`Map{${token}:${token}}`));
    expect(stableHash({ [long]: 1 })).toBe(referenceHash(`{${token}:1}`));
    expect(stableHash(long)).not.toBe(stableHash(`${long}x`));
    expect(stableHash(long)).not.toBe(stableHash(token));
    // canonicalize still writes it out.
    expect(canonicalize(long)).toBe(JSON.stringify(long));
  });

  it('ignores key order and separates values that print alike', () => {
    expect(stableHash({ a: 1, b: { c: [1, 2] } })).toBe(stableHash({ b: { c: [1, 2] }, a: 1 }));
    const lookAlikes: unknown[] = [null, Number.NaN, 'NaN', undefined, 10, 10n, '10', {}, new Map(), [], new Set(), '', '\ud800', '\ufffd'];
    expect(new Set(lookAlikes.map(stableHash)).size).toBe(lookAlikes.length);
  });
});

describe('keyedHash', () => {
  it('gives what the reference gives for any string under any key', () => {
    const key = fc.uint8Array({ minLength: 16, maxLength: 16 }).map(hexOf);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), key, (text, hashKey) => {
        expect(keyedHash(hashKey)(text)).toBe(referenceHash(text, hashKey));
      }),
      { numRuns: 200 },
    );
  });

  it('depends on every byte of the key, and gives back the same hash for a key met again', () => {
    const hashes = new Set<string>();
    for (let byte = 0; byte < 16; byte++) {
      const key = `${'00'.repeat(byte)}01${'00'.repeat(15 - byte)}`;
      hashes.add(keyedHash(key)('text'));
    }
    hashes.add(keyedHash('0'.repeat(32))('text'));
    expect(hashes.size).toBe(17);
    const first = keyedHash(VECTOR_KEY);
    expect(keyedHash(VECTOR_KEY)).toBe(first);
    expect(keyedHash(PUBLIC_KEY)('text')).toBe(publicHash('text'));
    expect(keyedHash(VECTOR_KEY)('text')).toBe(first('text'));
  });
});

describe('createHashKey and isHashKey', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('makes a new key of 32 lowercase hex characters each time, which isHashKey accepts', () => {
    const keys = Array.from({ length: 50 }, () => createHashKey());
    expect(new Set(keys).size).toBe(50);
    for (const key of keys) {
      expect(key).toMatch(/^[0-9a-f]{32}$/);
      expect(isHashKey(key)).toBe(true);
    }
  });

  it('draws the key from crypto.getRandomValues, called on its crypto object, four words in order', () => {
    const crypto = {
      getRandomValues(this: unknown, words: Uint32Array): Uint32Array {
        expect(this).toBe(crypto);
        words.set([1, 0xffffffff, 0xabc, 0]);
        return words;
      },
    };
    vi.stubGlobal('crypto', crypto);
    expect(createHashKey()).toBe('00000001ffffffff00000abc00000000');
  });

  it('falls back to Math.random where there is no crypto (Node 18)', () => {
    for (const crypto of [undefined, {}]) {
      vi.stubGlobal('crypto', crypto);
      const random = vi.spyOn(Math, 'random').mockReturnValueOnce(0).mockReturnValueOnce(0.5).mockReturnValueOnce(0.999_999_999_9).mockReturnValueOnce(0.25);
      expect(createHashKey()).toBe('0000000080000000ffffffff40000000');
      expect(random).toHaveBeenCalledTimes(4);
      random.mockRestore();
    }
  });

  it('refuses anything but 32 lowercase hexadecimal characters', () => {
    const invalid: unknown[] = [undefined, null, 42, 'a'.repeat(31), 'a'.repeat(33), 'A'.repeat(32), 'g'.repeat(32), `${'a'.repeat(32)}\n`, {}, ['a'.repeat(32)]];
    for (const value of invalid) expect(isHashKey(value)).toBe(false);
  });
});

describe('a guard compares with a key of its own run', () => {
  const longResult = { page: 'r'.repeat(5000) };
  const stepWith = (result: unknown): GuardStep => ({ toolCalls: [{ name: 'fetch', args: { url: 'u' }, result }] });

  it('draws a new key for each run, and keeps it across a snapshot', () => {
    const one = createGuard().snapshot();
    const other = createGuard().snapshot();
    expect(isHashKey(one.hashKey)).toBe(true);
    expect(other.hashKey).not.toBe(one.hashKey);
    expect(one.hashKey).not.toBe(PUBLIC_KEY);
    const restored = createGuard({}, { snapshot: JSON.parse(JSON.stringify(one)) as unknown });
    expect(restored.snapshot().hashKey).toBe(one.hashKey);
  });

  it('takes a long result repeated for a repeat, in one process or across a snapshot, and one changed at its end for a new one', () => {
    const options = { repeatedToolCall: { threshold: 3, requireIdenticalResults: true } };
    const guard = createGuard(options);
    expect(guard.check(stepWith(longResult)).stop).toBe(false);
    expect(guard.check(stepWith({ page: 'r'.repeat(5000) })).stop).toBe(false);
    const restored = createGuard(options, { snapshot: JSON.parse(JSON.stringify(guard.snapshot())) as unknown });
    const verdict = restored.check(stepWith({ page: 'r'.repeat(5000) }));
    expect(verdict.stop && verdict.reason).toBe('repeated-tool-call');
    const changing = createGuard(options);
    for (const last of ['a', 'b', 'c']) expect(changing.check(stepWith({ page: 'r'.repeat(4999) + last })).stop).toBe(false);
  });
});
