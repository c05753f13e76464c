/* eslint-disable @typescript-eslint/non-nullable-type-assertion-style --
   Word and byte indices stay within the buffer. The strict config forbids `!`; a cast says it. */
import { createByteFeed, HEX_BYTES } from './byte-feed.js';
import { isWellFormed } from './well-formed.js';

/**
 * A SipHash key: its 16 bytes as four little-endian 32-bit words, in order (so `k0` is the first two, `k1` the last two).
 */
export type SipKey = readonly [number, number, number, number];

/** A SipHash variant: compression rounds per 8-byte block, then finalization rounds. */
export type SipRounds = readonly [compression: number, finalization: number];

/** SipHash-1-3, the variant Rust's standard `HashMap` uses against hash flooding: what the guard's comparisons use. */
export const SIPHASH_1_3: SipRounds = [1, 3];

/** SipHash-2-4, the variant the SipHash paper recommends as a MAC. */
export const SIPHASH_2_4: SipRounds = [2, 4];

const feed = createByteFeed(8, (wordCount) => {
  mixBlocks(wordCount, compressionRounds);
});
const { bytes, words, prepareWords } = feed;
/** Compression rounds of the hash being worked out, for the feed's blocks. */
let compressionRounds = 1;

// The state, four 64-bit words as high and low 32-bit halves: JavaScript has no 64-bit integers but BigInt, which
// allocates.
let v0h = 0;
let v0l = 0;
let v1h = 0;
let v1l = 0;
let v2h = 0;
let v2l = 0;
let v3h = 0;
let v3l = 0;

/**
 * SipHash-128 (the 128-bit output variant of Aumasson and Bernstein's keyed hash) of a string, as the first 112 bits of
 * its output, 28 lowercase hex characters in the order of the output's bytes. A well-formed string is hashed over its
 * UTF-8 bytes, exactly as the reference hashes a byte string. A string with a lone surrogate has no UTF-8 form; it is
 * hashed over the byte `0xff` followed by its UTF-16LE code units, and as `0xff` never occurs in UTF-8, no string of
 * one kind is hashed over the bytes of a string of the other. SipHash takes the length in, so every string has a
 * message of its own, and without the key no one can tell which strings collide.
 * @param text - the string to hash
 * @param key - the secret key
 * @param rounds - the variant; {@link SIPHASH_1_3} by default
 * @returns 28 lowercase hex characters
 */
export function sipHash(text: string, key: SipKey, rounds: SipRounds = SIPHASH_1_3): string {
  const [k0l, k0h, k1l, k1h] = key;
  v0h = k0h ^ 0x736f6d65;
  v0l = k0l ^ 0x70736575;
  // The 128-bit variant starts v1 with 0xee in its lowest byte.
  v1h = k1h ^ 0x646f7261;
  v1l = k1l ^ 0x6e646f6d ^ 0xee;
  v2h = k0h ^ 0x6c796765;
  v2l = k0l ^ 0x6e657261;
  v3h = k1h ^ 0x74656462;
  v3l = k1l ^ 0x79746573;
  compressionRounds = rounds[0];
  let total: number;
  if (isWellFormed(text)) total = feed.utf8(text, 0);
  else {
    bytes[0] = 0xff;
    total = 1 + feed.utf16(text, 1);
  }
  return finish(total, rounds[0], rounds[1]);
}

/** Mixes `wordCount / 2` 64-bit message words from the buffer, each with `rounds` SipRounds. */
function mixBlocks(wordCount: number, rounds: number): void {
  let a = v0h;
  let b = v0l;
  let c = v1h;
  let d = v1l;
  let e = v2h;
  let f = v2l;
  let g = v3h;
  let h = v3l;
  let low: number;
  let swap: number;
  for (let index = 0; index < wordCount; index += 2) {
    const messageLow = words[index] as number;
    const messageHigh = words[index + 1] as number;
    g ^= messageHigh;
    h ^= messageLow;
    for (let round = 0; round < rounds; round++) {
      // A 64-bit addition adds the low halves, then the high halves and the carry out of the low ones: the top bit of
      // `(x & y) | ((x | y) & ~sum)`. Worked out with bit operations, not a comparison, as the carry is a coin toss that
      // a branch would mispredict half the time (the comparison made long strings 40% slower).
      // v0 += v1; v1 <<<= 13; v1 ^= v0; v0 <<<= 32 (a swap of halves, done by writing them crosswise).
      low = (b + d) | 0;
      a = (a + c + (((b & d) | ((b | d) & ~low)) >>> 31)) | 0;
      b = low;
      swap = (c << 13) | (d >>> 19);
      d = ((d << 13) | (c >>> 19)) ^ b;
      c = swap ^ a;
      swap = a;
      a = b;
      b = swap;
      // v2 += v3; v3 <<<= 16; v3 ^= v2
      low = (f + h) | 0;
      e = (e + g + (((f & h) | ((f | h) & ~low)) >>> 31)) | 0;
      f = low;
      swap = (g << 16) | (h >>> 16);
      h = ((h << 16) | (g >>> 16)) ^ f;
      g = swap ^ e;
      // v0 += v3; v3 <<<= 21; v3 ^= v0
      low = (b + h) | 0;
      a = (a + g + (((b & h) | ((b | h) & ~low)) >>> 31)) | 0;
      b = low;
      swap = (g << 21) | (h >>> 11);
      h = ((h << 21) | (g >>> 11)) ^ b;
      g = swap ^ a;
      // v2 += v1; v1 <<<= 17; v1 ^= v2; v2 <<<= 32
      low = (f + d) | 0;
      e = (e + c + (((f & d) | ((f | d) & ~low)) >>> 31)) | 0;
      f = low;
      swap = (c << 17) | (d >>> 15);
      d = ((d << 17) | (c >>> 15)) ^ f;
      c = swap ^ e;
      swap = e;
      e = f;
      f = swap;
    }
    a ^= messageHigh;
    b ^= messageLow;
  }
  v0h = a;
  v0l = b;
  v1h = c;
  v1l = d;
  v2h = e;
  v2l = f;
  v3h = g;
  v3l = h;
}

/** The last block (the tail, zero-padded, and the length's low byte), then the two halves of the output. */
function finish(total: number, compression: number, finalization: number): string {
  bytes.fill(0, feed.tail, 7);
  bytes[7] = total & 0xff;
  prepareWords(8);
  mixBlocks(2, compression);
  // Finalization rounds are rounds over a zero message word.
  words[0] = 0;
  words[1] = 0;
  v2l ^= 0xee;
  mixBlocks(2, finalization);
  const firstLow = v0l ^ v1l ^ v2l ^ v3l;
  const firstHigh = v0h ^ v1h ^ v2h ^ v3h;
  v1l ^= 0xdd;
  mixBlocks(2, finalization);
  const secondLow = v0l ^ v1l ^ v2l ^ v3l;
  const secondHigh = v0h ^ v1h ^ v2h ^ v3h;
  // 112 bits: the first 14 of the 16 output bytes, each 64-bit half written little-endian as the reference does.
  return hex(firstLow) + hex(firstHigh) + hex(secondLow) + (HEX_BYTES[secondHigh & 0xff] as string) + (HEX_BYTES[(secondHigh >>> 8) & 0xff] as string);
}

/** A 32-bit word's bytes, least significant first. */
function hex(word: number): string {
  return (
    (HEX_BYTES[word & 0xff] as string) +
    (HEX_BYTES[(word >>> 8) & 0xff] as string) +
    (HEX_BYTES[(word >>> 16) & 0xff] as string) +
    (HEX_BYTES[word >>> 24] as string)
  );
}
