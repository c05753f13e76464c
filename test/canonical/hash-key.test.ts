import { describe, expect, it } from 'vitest';
import { createHashKey, hashOfKey, isHashKey, randomWordsOf } from '../../src/canonical/hash-key.js';
import { sipHash } from '../../src/canonical/sip-hash.js';
import { SIPHASH_1_3_128_EMPTY } from '../support/sip-hash-vectors.js';

describe('createHashKey', () => {
  it('makes 32 lowercase hex characters from four random words, a new key each time', () => {
    const key = createHashKey();
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(createHashKey()).not.toBe(key);
    expect(JSON.parse(JSON.stringify({ key }))).toEqual({ key });
    expect(
      createHashKey((words) => {
        words.set([1, 0xffffffff, 0xabc, 0]);
      }),
    ).toBe('00000001ffffffff00000abc00000000');
  });

  it('draws keys from a pool refilled from the host, every key new across refills', () => {
    const keys = Array.from({ length: 100 }, () => createHashKey());
    expect(new Set(keys).size).toBe(100);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
  });

  it('uses crypto.getRandomValues where the host has it, called on its crypto object', () => {
    const crypto = {
      getRandomValues(this: unknown, words: Uint32Array): Uint32Array {
        expect(this).toBe(crypto);
        words.fill(7);
        return words;
      },
    };
    expect(createHashKey(randomWordsOf({ crypto }))).toBe('00000007'.repeat(4));
  });

  it('falls back to Math.random where there is no crypto (Node 18)', () => {
    for (const host of [{}, { crypto: {} }]) {
      const words = new Uint32Array(64);
      randomWordsOf(host)(words);
      expect(new Set(words).size).toBeGreaterThan(60);
      expect(words.every((word) => Number.isInteger(word) && word >= 0 && word <= 0xffffffff)).toBe(true);
    }
  });
});

describe('isHashKey', () => {
  it('accepts a key createHashKey made', () => {
    expect(isHashKey(createHashKey())).toBe(true);
    expect(isHashKey('0123456789abcdef0123456789abcdef')).toBe(true);
  });

  it('refuses anything but 32 lowercase hexadecimal characters', () => {
    const invalid: unknown[] = [undefined, null, 42, 'a'.repeat(31), 'a'.repeat(33), 'A'.repeat(32), 'g'.repeat(32), `${'a'.repeat(32)}\n`, {}];
    for (const value of invalid) expect(isHashKey(value)).toBe(false);
  });
});

describe('hashOfKey', () => {
  it("is SipHash-1-3-128 keyed with the key's 16 bytes in order, its first 112 bits", () => {
    expect(hashOfKey('000102030405060708090a0b0c0d0e0f')('')).toBe(SIPHASH_1_3_128_EMPTY.slice(0, 28));
    expect(hashOfKey('00000001ffffffff80000000789abcde')('text')).toBe(sipHash('text', [0x01000000, -1, 0x80, -0x21436588]));
  });

  it('gives one hash per key, and a different one for another key', () => {
    const key = createHashKey();
    const other = createHashKey();
    expect(hashOfKey(key)).toBe(hashOfKey(key));
    expect(hashOfKey(other)('text')).not.toBe(hashOfKey(key)('text'));
    expect(hashOfKey(key)('text')).toBe(hashOfKey(key)('text'));
  });
});
