import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/canonical/canonicalize.js';
import {
  COMPARISON_KEY_LIMIT,
  HASH_LENGTH,
  comparisonKey,
  hashString,
  stableHash,
  stringKey,
} from '../../src/canonical/stable-hash.js';
import { referenceHex, referenceMurmur3, utf16le, utf8 } from '../support/reference-murmur.js';

const expectedUtf8 = (text: string): string => referenceHex(referenceMurmur3(utf8(text), 0x9747b28c));
const expectedUtf16 = (text: string): string => referenceHex(referenceMurmur3(utf16le(text), 0x4f1bbcdc));

describe('hashString', () => {
  it('is 28 lowercase hex characters', () => {
    for (const text of ['', 'a', 'agent loop detection', '\ud800', 'x'.repeat(100_000)]) {
      expect(hashString(text)).toMatch(/^[0-9a-f]{28}$/);
    }
    expect(HASH_LENGTH).toBe(28);
  });

  it('is the first 112 bits of MurmurHash3_x86_128 over the UTF-8 bytes, seed 0x9747b28c', () => {
    expect(hashString('')).toBe(expectedUtf8(''));
    // Every tail length and a few whole blocks.
    const ascii = 'The quick brown fox jumps over the lazy dog, again and again.';
    for (let length = 0; length <= ascii.length; length++) {
      expect(hashString(ascii.slice(0, length))).toBe(expectedUtf8(ascii.slice(0, length)));
    }
    const multiByte = ['é', 'naïve café', '€ and ¥', 'emoji \u{1F600}\u{1F680}', '日本語のテキスト'];
    multiByte.push('\u0000\u007f\u0080\u07ff\u0800\uffff');
    for (const text of multiByte) {
      expect(hashString(text)).toBe(expectedUtf8(text));
    }
  });

  it('stays MurmurHash3 across the encoder rounds of a long string, multi-byte characters at the seams', () => {
    const samples = [
      'a'.repeat(65_535) + '€' + 'b'.repeat(100),
      'a'.repeat(65_534) + '\u{1F600}' + 'c'.repeat(17),
      'é'.repeat(40_000),
      '\u{1F600}'.repeat(40_000),
      'x'.repeat(3 * 65_536 + 7),
      'mixed ü € \u{1F600} text\n'.repeat(20_000),
    ];
    for (const text of samples) expect(hashString(text)).toBe(expectedUtf8(text));
  });

  it('hashes a string with a lone surrogate over its UTF-16 code units with its own seed', () => {
    const samples = [
      '\ud800',
      'a\udc00b',
      'pair \u{1F600} then lone \ud83d',
      '\udc00\ud800',
      'z'.repeat(40_000) + '\ud800' + 'y'.repeat(40_000),
    ];
    for (const text of samples) expect(hashString(text)).toBe(expectedUtf16(text));
  });

  it('keeps strings apart that UTF-8 would merge', () => {
    // TextEncoder turns a lone surrogate into U+FFFD.
    expect(hashString('\ud800')).not.toBe(hashString('\ufffd'));
    expect(hashString('\ud800')).not.toBe(hashString('\udbff'));
  });

  it('differs for nearby strings', () => {
    const seen = new Set<string>();
    for (let index = 0; index < 2000; index++) seen.add(hashString(`{"query":"item ${String(index)}"}`));
    seen.add(hashString(''));
    seen.add(hashString(' '));
    expect(seen.size).toBe(2002);
  });
});

describe('stableHash', () => {
  it('is the hash of the canonical form where no string is longer than 1,024 code units', () => {
    const values: unknown[] = [{ b: 1, a: [1, 2] }, 'text', undefined, new Map([[1, 2]]), Number.NaN, 10n, 'y'.repeat(1024)];
    for (const value of values) expect(stableHash(value)).toBe(hashString(canonicalize(value)));
  });

  it('keeps its values for inputs it handled before', () => {
    // Pinned: a change here changes every stored stableHash.
    expect(stableHash({ query: 'agent loop detection', limit: 10 })).toBe(hashString('{"limit":10,"query":"agent loop detection"}'));
    expect(hashString('{"limit":10,"query":"agent loop detection"}')).toBe(
      expectedUtf8('{"limit":10,"query":"agent loop detection"}'),
    );
  });

  it('hashes a longer string raw, as its token, wherever it is', () => {
    const long = 'a"\n'.repeat(400);
    expect(long).toHaveLength(1200);
    const token = `#s1200:${hashString(long)}`;
    expect(stableHash(long)).toBe(hashString(token));
    expect(stableHash({ text: long, n: 1 })).toBe(hashString(`{"n":1,"text":${token}}`));
    expect(stableHash(new Map([[long, long]]))).toBe(hashString(`Map{${token}:${token}}`));
    expect(stableHash({ [long]: 1 })).toBe(hashString(`{${token}:1}`));
    expect(stableHash(long)).not.toBe(stableHash(long + 'x'));
    expect(stableHash(long)).not.toBe(stableHash(JSON.stringify(long)));
  });

  it('ignores key order and separates look-alikes', () => {
    expect(stableHash({ a: 1, b: { c: [1, 2] } })).toBe(stableHash({ b: { c: [1, 2] }, a: 1 }));
    const lookAlikes: unknown[] = [null, Number.NaN, 'NaN', undefined, 10, 10n, '10', {}, new Map(), [], new Set()];
    expect(new Set(lookAlikes.map(stableHash)).size).toBe(lookAlikes.length);
    expect(stableHash({ a: "1',b:'2" })).not.toBe(stableHash({ a: '1', b: '2' }));
  });
});

describe('stringKey', () => {
  it('is the JSON-quoted string up to 256 code units, its token beyond', () => {
    expect(stringKey('search')).toBe('"search"');
    expect(stringKey('say "hi"')).toBe('"say \\"hi\\""');
    const longest = 'n'.repeat(256);
    expect(stringKey(longest)).toBe(`"${longest}"`);
    expect(stringKey(longest + 'n')).toBe(`#s257:${hashString(longest + 'n')}`);
  });
});

describe('comparisonKey', () => {
  it(`keeps forms of up to ${String(COMPARISON_KEY_LIMIT)} characters as they are`, () => {
    expect(comparisonKey('')).toBe('');
    expect(comparisonKey('{"a":1}')).toBe('{"a":1}');
    const longest = '"' + 'x'.repeat(COMPARISON_KEY_LIMIT - 2) + '"';
    expect(longest).toHaveLength(256);
    expect(comparisonKey(longest)).toBe(longest);
  });

  it('replaces longer forms by # then their length and hash', () => {
    const form = '"' + 'x'.repeat(COMPARISON_KEY_LIMIT - 1) + '"';
    expect(form).toHaveLength(257);
    expect(comparisonKey(form)).toBe(`#257:${hashString(form)}`);
    expect(comparisonKey(form)).toMatch(/^#257:[0-9a-f]{28}$/);
  });

  it('never lets a kept form look like a hashed one', () => {
    const hashed = comparisonKey(canonicalize('y'.repeat(300)));
    expect(hashed.startsWith('#')).toBe(true);
    expect(canonicalize(hashed).startsWith('#')).toBe(false);
    expect(comparisonKey(canonicalize(hashed))).not.toBe(hashed);
  });
});
