/* eslint-disable @typescript-eslint/non-nullable-type-assertion-style --
   Word and byte indices stay within the buffer. The strict config forbids `!`; a cast says it. */
import { type ByteFeed, createByteFeed, HEX_BYTES } from './byte-feed.js';
import type { TextHash } from './text-hash.js';
import { createWasmMurmurBlocks, LANES_OFFSET, type WasmMurmurBlocks } from './wasm-murmur-blocks.js';
import { isWellFormed } from './well-formed.js';

// MurmurHash3 x86_128 constants (Austin Appleby's reference).
const C1 = 0x239b961b;
const C2 = 0xab0e9789;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93;
// Separate seeds keep the two encodings apart: a string with lone surrogates cannot be encoded as UTF-8, so it is
// hashed as UTF-16 code units instead, and the seeds make an equal byte stream from the other encoding irrelevant.
// With lane seeds of its own, a key moves to the UTF-16 lanes by the same difference.
const UTF8_SEED = 0x9747b28c;
const UTF16_SEED = 0x4f1bbcdc;
const UTF16_SHIFT = UTF8_SEED ^ UTF16_SEED;

/** The starting values of MurmurHash3 x86_128's four 32-bit lanes (the reference starts all four at one seed). */
export type LaneSeeds = readonly [number, number, number, number];

/** The public seeds: `0x9747b28c` in every lane, as {@link hashText} has always been used. */
export const PUBLIC_SEEDS: LaneSeeds = [UTF8_SEED, UTF8_SEED, UTF8_SEED, UTF8_SEED];

/** {@link hashText} with {@link PUBLIC_SEEDS}: the deterministic hash of `canonicalize` and `stableHash`. */
export const publicHash: TextHash = (text) => hashText(text, PUBLIC_SEEDS);

/** Length of {@link hashText}'s result. */
export const HASH_LENGTH = 28;

/** A MurmurHash3 x86_128 of strings: see {@link hashText}. */
export type MurmurHash = (text: string, seeds: LaneSeeds) => string;

/**
 * MurmurHash3 x86_128 with its block loop in WebAssembly where `blocks` is given, in JavaScript otherwise. Both give
 * the same hashes.
 * @param blocks - the block loop in WebAssembly, if the host has one
 * @returns the hash function
 */
export function createMurmurHash(blocks: WasmMurmurBlocks | undefined): MurmurHash {
  let h1 = 0;
  let h2 = 0;
  let h3 = 0;
  let h4 = 0;

  function mixBlocks(words: Int32Array, wordCount: number): void {
    let a = h1;
    let b = h2;
    let c = h3;
    let d = h4;
    for (let index = 0; index < wordCount; index += 4) {
      let k1 = words[index] as number;
      let k2 = words[index + 1] as number;
      let k3 = words[index + 2] as number;
      let k4 = words[index + 3] as number;
      k1 = Math.imul(k1, C1);
      k1 = Math.imul((k1 << 15) | (k1 >>> 17), C2);
      a ^= k1;
      a = (a << 19) | (a >>> 13);
      a = (Math.imul(a + b, 5) + 0x561ccd1b) | 0;
      k2 = Math.imul(k2, C2);
      k2 = Math.imul((k2 << 16) | (k2 >>> 16), C3);
      b ^= k2;
      b = (b << 17) | (b >>> 15);
      b = (Math.imul(b + c, 5) + 0x0bcaa747) | 0;
      k3 = Math.imul(k3, C3);
      k3 = Math.imul((k3 << 17) | (k3 >>> 15), C4);
      c ^= k3;
      c = (c << 15) | (c >>> 17);
      c = (Math.imul(c + d, 5) + 0x96cd1c35) | 0;
      k4 = Math.imul(k4, C4);
      k4 = Math.imul((k4 << 18) | (k4 >>> 14), C1);
      d ^= k4;
      d = (d << 13) | (d >>> 19);
      d = (Math.imul(d + a, 5) + 0x32ac3b17) | 0;
    }
    h1 = a;
    h2 = b;
    h3 = c;
    h4 = d;
  }

  const feed: ByteFeed =
    blocks === undefined
      ? createByteFeed(16, (byteCount) => {
          feed.prepareWords(byteCount);
          mixBlocks(feed.words, byteCount >> 2);
        })
      : createByteFeed(16, blocks.mix, blocks.bytes.buffer as ArrayBuffer);

  /** The last 0 to 15 bytes, at the front of the buffer: zero-padded they mix like the reference's byte-wise tail. */
  function mixTail(): void {
    const { bytes, words, tail } = feed;
    // Stryker disable ConditionalExpression,EqualityOperator: the tail is zero-padded, and a zero word mixes in as 0
    // (imul and rotate keep 0 at 0), so mixing a word of padding, or an empty tail, leaves the state as it was.
    if (tail === 0) return;
    bytes.fill(0, tail, 16);
    feed.prepareWords(16);
    if (tail > 12) h4 ^= Math.imul(rotate(Math.imul(words[3] as number, C4), 18), C1);
    if (tail > 8) h3 ^= Math.imul(rotate(Math.imul(words[2] as number, C3), 17), C4);
    if (tail > 4) h2 ^= Math.imul(rotate(Math.imul(words[1] as number, C2), 16), C3);
    // Stryker restore ConditionalExpression,EqualityOperator
    h1 ^= Math.imul(rotate(Math.imul(words[0] as number, C1), 15), C2);
  }

  function finish(length: number): string {
    h1 ^= length;
    h2 ^= length;
    h3 ^= length;
    h4 ^= length;
    h1 = (h1 + h2 + h3 + h4) | 0;
    h2 = (h2 + h1) | 0;
    h3 = (h3 + h1) | 0;
    h4 = (h4 + h1) | 0;
    h1 = finalMix(h1);
    h2 = finalMix(h2);
    h3 = finalMix(h3);
    h4 = finalMix(h4);
    h1 = (h1 + h2 + h3 + h4) | 0;
    h2 = (h2 + h1) | 0;
    h3 = (h3 + h1) | 0;
    h4 = (h4 + h1) | 0;
    // 112 bits: all of the first three lanes and the high half of the fourth.
    return hex(h1) + hex(h2) + hex(h3) + (HEX_BYTES[h4 >>> 24] as string) + (HEX_BYTES[(h4 >>> 16) & 0xff] as string);
  }

  return (text, seeds) => {
    const wellFormed = isWellFormed(text);
    const shift = wellFormed ? 0 : UTF16_SHIFT;
    h1 = seeds[0] ^ shift;
    h2 = seeds[1] ^ shift;
    h3 = seeds[2] ^ shift;
    h4 = seeds[3] ^ shift;
    blocks?.begin(h1, h2, h3, h4);
    const total = wellFormed ? feed.utf8(text, 0) : feed.utf16(text, 0);
    if (blocks !== undefined) {
      blocks.lanes();
      const bytes = feed.bytes;
      h1 = littleEndianWord(bytes, LANES_OFFSET);
      h2 = littleEndianWord(bytes, LANES_OFFSET + 4);
      h3 = littleEndianWord(bytes, LANES_OFFSET + 8);
      h4 = littleEndianWord(bytes, LANES_OFFSET + 12);
    }
    mixTail();
    return finish(total);
  };
}

let chosen: MurmurHash | undefined;

/**
 * Non-cryptographic 112-bit hash of a string, as 28 lowercase hex characters: the first 112 bits of MurmurHash3 x86_128
 * over the string's UTF-8 bytes, its four lanes started at `seeds`. A string with a lone surrogate has no UTF-8 form;
 * it is hashed over its UTF-16LE code units instead, each lane seed XORed with `0x9747b28c ^ 0x4f1bbcdc` (so with
 * {@link PUBLIC_SEEDS} its lanes start at `0x4f1bbcdc`). Fast, and not collision-resistant, even with secret seeds:
 * pairs of blocks whose differences cancel inside the block function collide whatever the seeds, which is why the
 * guard's own comparisons use SipHash (see `hashOfKey`). The blocks are mixed in WebAssembly where the host allows it
 * (chosen at the first call), in JavaScript otherwise, with the same results.
 * @param text - the string to hash
 * @param seeds - the four lane seeds
 * @returns 28 lowercase hex characters
 */
export function hashText(text: string, seeds: LaneSeeds): string {
  return (chosen ??= createMurmurHash(createWasmMurmurBlocks()))(text, seeds);
}

/** The 32-bit word at `offset`, least significant byte first (as WebAssembly stores it on every machine). */
function littleEndianWord(bytes: Uint8Array, offset: number): number {
  return (bytes[offset] as number) | ((bytes[offset + 1] as number) << 8) | ((bytes[offset + 2] as number) << 16) | ((bytes[offset + 3] as number) << 24);
}

function finalMix(lane: number): number {
  let mixed = lane ^ (lane >>> 16);
  mixed = Math.imul(mixed, 0x85ebca6b);
  mixed ^= mixed >>> 13;
  mixed = Math.imul(mixed, 0xc2b2ae35);
  return mixed ^ (mixed >>> 16);
}

function rotate(word: number, bits: number): number {
  return (word << bits) | (word >>> (32 - bits));
}

function hex(word: number): string {
  return (
    (HEX_BYTES[word >>> 24] as string) +
    (HEX_BYTES[(word >>> 16) & 0xff] as string) +
    (HEX_BYTES[(word >>> 8) & 0xff] as string) +
    (HEX_BYTES[word & 0xff] as string)
  );
}
