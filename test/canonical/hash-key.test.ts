import { describe, expect, it } from 'vitest';
import { createHashKey, parseHashKey, randomWordsOf, seedsOfKey } from '../../src/canonical/hash-key.js';

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

describe('parseHashKey', () => {
  it('returns a valid key as it is', () => {
    const key = createHashKey();
    expect(parseHashKey(key, 'snapshot.hashKey')).toBe(key);
  });

  it('throws a TypeError naming the field for anything else, without echoing it', () => {
    const invalid: unknown[] = [undefined, null, 42, 'a'.repeat(31), 'A'.repeat(32), 'g'.repeat(32), `${'a'.repeat(32)}\n`, {}];
    for (const value of invalid) {
      expect(() => parseHashKey(value, 'snapshot.hashKey')).toThrow(TypeError);
      expect(() => parseHashKey(value, 'snapshot.hashKey')).toThrow(/^snapshot\.hashKey must be a hash key/);
    }
    expect(() => parseHashKey('x'.repeat(5), 'k')).toThrow('k must be a hash key: 32 lowercase hexadecimal characters, got a string of 5 characters.');
    expect(() => parseHashKey(7, 'k')).toThrow('got number.');
  });
});

describe('seedsOfKey', () => {
  it('reads the four words as signed 32-bit lane seeds, most significant first', () => {
    expect(seedsOfKey('00000001ffffffff80000000789abcde')).toEqual([1, -1, -0x80000000, 0x789abcde]);
  });
});
