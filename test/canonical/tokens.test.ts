import { describe, expect, it } from 'vitest';
import { PUBLIC_SEEDS, hashText } from '../../src/canonical/murmur-hash.js';
import { RecentTokens, bigIntBound, bigIntToken, stringToken } from '../../src/canonical/tokens.js';

const SEEDS = [1, 2, 3, 4] as const;

describe('stringToken', () => {
  it('is #s, the length in code units, and the hash of the raw text', () => {
    expect(stringToken('a"b', PUBLIC_SEEDS)).toBe(`#s3:${hashText('a"b', PUBLIC_SEEDS)}`);
    expect(stringToken('\u{1F600}', SEEDS)).toBe(`#s2:${hashText('\u{1F600}', SEEDS)}`);
    expect(stringToken('x', SEEDS)).not.toBe(stringToken('x', PUBLIC_SEEDS));
  });
});

describe('bigIntToken', () => {
  it('is #n, the bit length of the magnitude, and the hash of the hex digits with their sign', () => {
    expect(bigIntToken(1n, SEEDS)).toBe(`#n1:${hashText('1', SEEDS)}`);
    expect(bigIntToken(0xfn, SEEDS)).toBe(`#n4:${hashText('f', SEEDS)}`);
    expect(bigIntToken(0x10n, SEEDS)).toBe(`#n5:${hashText('10', SEEDS)}`);
    expect(bigIntToken(-(2n ** 70n), SEEDS)).toBe(`#n71:${hashText('-' + (2n ** 70n).toString(16), SEEDS)}`);
    expect(bigIntToken(2n ** 70n, SEEDS)).not.toBe(bigIntToken(-(2n ** 70n), SEEDS));
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
