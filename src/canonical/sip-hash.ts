/* eslint-disable @typescript-eslint/non-nullable-type-assertion-style --
   Byte indices stay within the output. The strict config forbids `!`; a cast says it. */
import { createByteFeed, HEX_BYTES } from './byte-feed.js';
import { createScriptSipMixer, type SipMixer } from './sip-mixer.js';
import type { WasmHost } from './wasm-instance.js';
import { createWasmSipMixer } from './wasm-sip-mixer.js';
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

/** A SipHash-128 of strings over one mixer: see {@link sipHash}. */
export type SipHash = (text: string, key: SipKey, rounds?: SipRounds) => string;

/**
 * SipHash-128 over a mixer's memory. The mixer is the whole of the arithmetic; this is the message: the string's
 * bytes, the last block and the output's hex.
 * @param mixer - the state and rounds, in WebAssembly or JavaScript
 * @returns the hash function
 */
export function createSipHash(mixer: SipMixer): SipHash {
  let compression = 1;
  const feed = createByteFeed(
    8,
    (byteCount) => {
      mixer.mix(byteCount, compression);
    },
    mixer.bytes.buffer as ArrayBuffer,
  );
  const { bytes } = feed;
  const { output } = mixer;
  return (text, key, rounds = SIPHASH_1_3) => {
    mixer.begin(key[0], key[1], key[2], key[3]);
    compression = rounds[0];
    let total: number;
    if (isWellFormed(text)) total = feed.utf8(text, 0);
    else {
      bytes[0] = 0xff;
      total = 1 + feed.utf16(text, 1);
    }
    // The last block: the tail, zero-padded, and the length's low byte.
    bytes.fill(0, feed.tail, 7);
    bytes[7] = total & 0xff;
    mixer.mix(8, compression);
    mixer.finish(rounds[1]);
    // 112 bits: the first 14 of the 16 output bytes.
    let hex = '';
    for (let index = 0; index < 14; index++) hex += HEX_BYTES[output[index] as number] as string;
    return hex;
  };
}

let chosen: SipHash | undefined;

/**
 * The mixer a host runs fastest: WebAssembly where it can, JavaScript otherwise.
 * @param host - the global object, or a stand-in in tests
 * @returns a new mixer
 */
export function bestSipMixer(host?: WasmHost): SipMixer {
  return createWasmSipMixer(host) ?? createScriptSipMixer();
}

/**
 * SipHash-128 (the 128-bit output variant of Aumasson and Bernstein's keyed hash) of a string, as the first 112 bits of
 * its output, 28 lowercase hex characters in the order of the output's bytes. A well-formed string is hashed over its
 * UTF-8 bytes, exactly as the reference hashes a byte string. A string with a lone surrogate has no UTF-8 form; it is
 * hashed over the byte `0xff` followed by its UTF-16LE code units, and as `0xff` never occurs in UTF-8, no string of
 * one kind is hashed over the bytes of a string of the other. SipHash takes the length in, so every string has a
 * message of its own, and without the key no one can tell which strings collide. The arithmetic runs in WebAssembly
 * where the host allows it (chosen at the first call), in JavaScript otherwise, with the same results.
 * @param text - the string to hash
 * @param key - the secret key
 * @param rounds - the variant; {@link SIPHASH_1_3} by default
 * @returns 28 lowercase hex characters
 */
export function sipHash(text: string, key: SipKey, rounds: SipRounds = SIPHASH_1_3): string {
  return (chosen ??= createSipHash(bestSipMixer()))(text, key, rounds);
}
