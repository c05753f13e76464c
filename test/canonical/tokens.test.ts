import { describe, expect, it } from 'vitest';
import { hashOfKey } from '../../src/canonical/hash-key.js';
import { PUBLIC_SEEDS, hashText, publicHash } from '../../src/canonical/murmur-hash.js';
import { RecentTokens, bigIntBound, bigIntToken, stringToken } from '../../src/canonical/tokens.js';

const KEYED = hashOfKey('000102030405060708090a0b0c0d0e0f');

describe('stringToken', () => {
  it('is #s, the length in code units, and the hash of the raw text', () => {
    expect(stringToken('a"b', publicHash)).toBe(`#s3:${hashText('a"b', PUBLIC_SEEDS)}`);
    expect(stringToken('\u{1F600}', KEYED)).toBe(`#s2:${KEYED('\u{1F600}')}`);
    expect(stringToken('x', KEYED)).not.toBe(stringToken('x', publicHash));
  });
});

describe('bigIntToken', () => {
  it('is #n, the bit length of the magnitude, and the hash of the hex digits with their sign', () => {
    expect(bigIntToken(1n, KEYED)).toBe(`#n1:${KEYED('1')}`);
    expect(bigIntToken(0xfn, KEYED)).toBe(`#n4:${KEYED('f')}`);
    expect(bigIntToken(0x10n, KEYED)).toBe(`#n5:${KEYED('10')}`);
    expect(bigIntToken(-(2n ** 70n), KEYED)).toBe(`#n71:${KEYED('-' + (2n ** 70n).toString(16))}`);
    expect(bigIntToken(2n ** 70n, KEYED)).not.toBe(bigIntToken(-(2n ** 70n), KEYED));
  });
});

describe('bigIntBound', () => {
  it('is 2 ** bits, built again only for another bit count', () => {
    expect(bigIntBound(8)).toBe(256n);
    expect(bigIntBound(8)).toBe(256n);
    expect(bigIntBound(3)).toBe(8n);
    expect(bigIntBound(100)).toBe(2n ** 100n);
  });
});

describe('RecentTokens', () => {
  it('remembers the last four values and their tokens', () => {
    const recent = new RecentTokens();
    expect(recent.find('a')).toBeUndefined();
    for (const value of ['a', 'b', 'c', 'd', 5n]) recent.remember(value, `token ${String(value)}`);
    expect(recent.find('a')).toBeUndefined();
    expect(recent.find('b')).toBe('token b');
    expect(recent.find('e')).toBeUndefined();
    expect(recent.find(5n)).toBe('token 5');
    // Equal values are found whether or not they are the same string in memory.
    expect(recent.find(['d'].join(''))).toBe('token d');
  });
});
