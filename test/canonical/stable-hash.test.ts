import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/canonical/canonicalize.js';
import { PUBLIC_SEEDS, hashText } from '../../src/canonical/murmur-hash.js';
import {
  COMPARISON_KEY_LIMIT,
  HASH_LENGTH,
  comparisonKey,
  hashString,
  stableHash,
  stringKey,
} from '../../src/canonical/stable-hash.js';

type Lanes = readonly [number, number, number, number];

/** MurmurHash3_x86_128 written straight from Austin Appleby's C reference, byte by byte, as an independent check. */
function referenceMurmur3(bytes: Uint8Array, seed: number | Lanes): Lanes {
  const c1 = 0x239b961b;
  const c2 = 0xab0e9789;
  const c3 = 0x38b34ae5;
  const c4 = 0xa1e38b93;
  const rotl = (x: number, r: number): number => (x << r) | (x >>> (32 - r));
  const byte = (index: number): number => bytes[index] ?? 0;
  const word = (index: number): number =>
    byte(index) | (byte(index + 1) << 8) | (byte(index + 2) << 16) | (byte(index + 3) << 24);
  // The reference starts every lane at one seed; a key gives each lane its own.
  const lanes: Lanes = typeof seed === 'number' ? [seed, seed, seed, seed] : seed;
  let h1 = lanes[0] | 0;
  let h2 = lanes[1] | 0;
  let h3 = lanes[2] | 0;
  let h4 = lanes[3] | 0;
  const blocks = bytes.length >> 4;
  for (let block = 0; block < blocks; block++) {
    let k1 = word(block * 16);
    let k2 = word(block * 16 + 4);
    let k3 = word(block * 16 + 8);
    let k4 = word(block * 16 + 12);
    k1 = Math.imul(rotl(Math.imul(k1, c1), 15), c2);
    h1 ^= k1;
    h1 = rotl(h1, 19);
    h1 = (h1 + h2) | 0;
    h1 = (Math.imul(h1, 5) + 0x561ccd1b) | 0;
    k2 = Math.imul(rotl(Math.imul(k2, c2), 16), c3);
    h2 ^= k2;
    h2 = rotl(h2, 17);
    h2 = (h2 + h3) | 0;
    h2 = (Math.imul(h2, 5) + 0x0bcaa747) | 0;
    k3 = Math.imul(rotl(Math.imul(k3, c3), 17), c4);
    h3 ^= k3;
    h3 = rotl(h3, 15);
    h3 = (h3 + h4) | 0;
    h3 = (Math.imul(h3, 5) + 0x96cd1c35) | 0;
    k4 = Math.imul(rotl(Math.imul(k4, c4), 18), c1);
    h4 ^= k4;
    h4 = rotl(h4, 13);
    h4 = (h4 + h1) | 0;
    h4 = (Math.imul(h4, 5) + 0x32ac3b17) | 0;
  }
  const tail = blocks * 16;
  let k1 = 0;
  let k2 = 0;
  let k3 = 0;
  let k4 = 0;
  // The reference's fall-through switch over the tail length, as a ladder of conditions.
  const rest = bytes.length & 15;
  if (rest >= 15) k4 ^= byte(tail + 14) << 16;
  if (rest >= 14) k4 ^= byte(tail + 13) << 8;
  if (rest >= 13) {
    k4 ^= byte(tail + 12);
    h4 ^= Math.imul(rotl(Math.imul(k4, c4), 18), c1);
  }
  if (rest >= 12) k3 ^= byte(tail + 11) << 24;
  if (rest >= 11) k3 ^= byte(tail + 10) << 16;
  if (rest >= 10) k3 ^= byte(tail + 9) << 8;
  if (rest >= 9) {
    k3 ^= byte(tail + 8);
    h3 ^= Math.imul(rotl(Math.imul(k3, c3), 17), c4);
  }
  if (rest >= 8) k2 ^= byte(tail + 7) << 24;
  if (rest >= 7) k2 ^= byte(tail + 6) << 16;
  if (rest >= 6) k2 ^= byte(tail + 5) << 8;
  if (rest >= 5) {
    k2 ^= byte(tail + 4);
    h2 ^= Math.imul(rotl(Math.imul(k2, c2), 16), c3);
  }
  if (rest >= 4) k1 ^= byte(tail + 3) << 24;
  if (rest >= 3) k1 ^= byte(tail + 2) << 16;
  if (rest >= 2) k1 ^= byte(tail + 1) << 8;
  if (rest >= 1) {
    k1 ^= byte(tail);
    h1 ^= Math.imul(rotl(Math.imul(k1, c1), 15), c2);
  }
  const fmix = (h: number): number => {
    let x = h ^ (h >>> 16);
    x = Math.imul(x, 0x85ebca6b);
    x ^= x >>> 13;
    x = Math.imul(x, 0xc2b2ae35);
    return x ^ (x >>> 16);
  };
  h1 ^= bytes.length;
  h2 ^= bytes.length;
  h3 ^= bytes.length;
  h4 ^= bytes.length;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h3 = fmix(h3);
  h4 = fmix(h4);
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  return [h1, h2, h3, h4];
}

function referenceHex(lanes: Lanes): string {
  return lanes
    .map((lane) => (lane >>> 0).toString(16).padStart(8, '0'))
    .join('')
    .slice(0, HASH_LENGTH);
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

function utf16le(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  for (let index = 0; index < text.length; index++) {
    bytes[index * 2] = text.charCodeAt(index) & 0xff;
    bytes[index * 2 + 1] = text.charCodeAt(index) >>> 8;
  }
  return bytes;
}

const expectedUtf8 = (text: string): string => referenceHex(referenceMurmur3(utf8(text), 0x9747b28c));
const expectedUtf16 = (text: string): string => referenceHex(referenceMurmur3(utf16le(text), 0x4f1bbcdc));

describe('the reference implementation used by these tests', () => {
  it("passes SMHasher's verification value for MurmurHash3_x86_128 (0xB3ECE62A)", () => {
    const key = new Uint8Array(256);
    const hashes = new Uint8Array(16 * 256);
    for (let length = 0; length < 256; length++) {
      key[length] = length;
      const lanes = referenceMurmur3(key.subarray(0, length), 256 - length);
      lanes.forEach((lane, laneIndex) => {
        for (let byte = 0; byte < 4; byte++) hashes[length * 16 + laneIndex * 4 + byte] = (lane >>> (byte * 8)) & 0xff;
      });
    }
    expect(referenceMurmur3(hashes, 0)[0] >>> 0).toBe(0xb3ece62a);
  });

  it('gives all zeros for empty input with seed 0', () => {
    expect(referenceMurmur3(new Uint8Array(0), 0)).toEqual([0, 0, 0, 0]);
  });
});

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

describe('hashText with lane seeds', () => {
  const lanes: Lanes = [0x01234567, -0x76543211, 0x7fffffff, 0];
  const shift = 0x9747b28c ^ 0x4f1bbcdc;

  it('starts each lane of MurmurHash3 x86_128 at its own seed', () => {
    for (const text of ['', 'a', 'The quick brown fox jumps over the lazy dog', 'é€\u{1F600}'.repeat(50), 'x'.repeat(70_000)]) {
      expect(hashText(text, lanes)).toBe(referenceHex(referenceMurmur3(utf8(text), lanes)));
    }
  });

  it('moves every lane by the same difference for text with a lone surrogate', () => {
    const text = 'lone \ud800 here';
    const moved: Lanes = [lanes[0] ^ shift, lanes[1] ^ shift, lanes[2] ^ shift, lanes[3] ^ shift];
    expect(hashText(text, lanes)).toBe(referenceHex(referenceMurmur3(utf16le(text), moved)));
  });

  it('is hashString with the public seeds, and differs with other seeds', () => {
    expect(PUBLIC_SEEDS).toEqual([0x9747b28c, 0x9747b28c, 0x9747b28c, 0x9747b28c]);
    expect(hashText('agent', PUBLIC_SEEDS)).toBe(hashString('agent'));
    expect(hashText('agent', lanes)).not.toBe(hashString('agent'));
    expect(hashText('agent', [1, 2, 3, 4])).not.toBe(hashText('agent', [1, 2, 3, 5]));
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
