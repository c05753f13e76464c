import { describe, expect, it } from 'vitest';
import { PUBLIC_SEEDS, hashText } from '../../src/canonical/murmur-hash.js';
import { hashString } from '../../src/canonical/stable-hash.js';
import { murmurMulticollision } from '../support/murmur-multicollision.js';
import { type Lanes, referenceHex, referenceMurmur3, utf16le, utf8 } from '../support/reference-murmur.js';

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

describe('hashText under secret seeds', () => {
  it('is not a keyed hash: strings built without the seeds collide under all of them (why the guard keys SipHash)', () => {
    const strings = murmurMulticollision(300, 3);
    expect(new Set(strings).size).toBe(8);
    for (const seeds of [PUBLIC_SEEDS, [1, 2, 3, 4], [-0x80000000, 0x7fffffff, 0, 0x2545f491]] as const) {
      expect(new Set(strings.map((text) => hashText(text, seeds))).size).toBe(1);
    }
  });
});
