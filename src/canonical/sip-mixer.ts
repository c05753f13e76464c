/* eslint-disable @typescript-eslint/non-nullable-type-assertion-style --
   Word indices stay within the buffer. The strict config forbids `!`; a cast says it. */
import { CHUNK_BYTES } from './byte-feed.js';
import { littleEndianWords } from './little-endian-words.js';

/**
 * SipHash's state and rounds, over message bytes staged in memory it owns: one in WebAssembly where the host can run
 * it (see `createWasmSipMixer`), this module's in JavaScript otherwise. Both give the same bytes for the same calls.
 */
export interface SipMixer {
  /** Which one this is, for tests and benchmarks. */
  readonly kind: 'wasm' | 'script';
  /** The staging memory: a byte feed's buffer at its front, `CHUNK_BYTES + 8` bytes long or more. */
  readonly bytes: Uint8Array;
  /** The 16 output bytes of the last {@link SipMixer.finish}, in the reference's order. */
  readonly output: Uint8Array;
  /** Starts a hash: the 128-bit variant's state for a key given as four little-endian 32-bit words. */
  begin(k0Low: number, k0High: number, k1Low: number, k1High: number): void;
  /** Mixes the first `byteCount` bytes of {@link SipMixer.bytes} (a multiple of 8) as 64-bit little-endian message words, `rounds` SipRounds each. */
  mix(byteCount: number, rounds: number): void;
  /** Finalization with `rounds` SipRounds per half, its output written to {@link SipMixer.output}. */
  finish(rounds: number): void;
}

/** The 128-bit variant starts v1 with this in its lowest byte, and XORs it into v2 before finalization. */
export const OUTPUT_128 = 0xee;
/** XORed into v1 before the output's second half. */
export const SECOND_HALF = 0xdd;

/**
 * The mixer in JavaScript, for hosts without WebAssembly (Node with `--jitless`, pages and workers whose policy
 * forbids compiling it). JavaScript has no 64-bit integers but BigInt, which allocates, so each state word is kept as
 * a high and a low 32-bit half.
 * @returns a mixer with memory of its own
 */
export function createScriptSipMixer(): SipMixer {
  const buffer = new ArrayBuffer(CHUNK_BYTES + 8);
  const bytes = new Uint8Array(buffer);
  const words = new Int32Array(buffer);
  const prepareWords = littleEndianWords(bytes);
  const output = new Uint8Array(16);
  let v0h = 0;
  let v0l = 0;
  let v1h = 0;
  let v1l = 0;
  let v2h = 0;
  let v2l = 0;
  let v3h = 0;
  let v3l = 0;

  /** Mixes `wordCount / 2` 64-bit message words from the buffer, each with `rounds` SipRounds. */
  function mixWords(wordCount: number, rounds: number): void {
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
        // A 64-bit addition adds the low halves, then the high halves and the carry out of the low ones: the top bit
        // of `(x & y) | ((x | y) & ~sum)`. Worked out with bit operations, not a comparison, as the carry is a coin toss
        // that a branch would mispredict half the time (the comparison made long strings 40% slower).
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

  /** Writes the XOR of the four state words, little-endian, at `offset` of the output. */
  function writeHalf(offset: number): void {
    const low = v0l ^ v1l ^ v2l ^ v3l;
    const high = v0h ^ v1h ^ v2h ^ v3h;
    for (let index = 0; index < 4; index++) {
      output[offset + index] = low >>> (index * 8);
      output[offset + 4 + index] = high >>> (index * 8);
    }
  }

  return {
    kind: 'script',
    bytes,
    output,
    begin(k0Low, k0High, k1Low, k1High) {
      v0h = k0High ^ 0x736f6d65;
      v0l = k0Low ^ 0x70736575;
      v1h = k1High ^ 0x646f7261;
      v1l = k1Low ^ 0x6e646f6d ^ OUTPUT_128;
      v2h = k0High ^ 0x6c796765;
      v2l = k0Low ^ 0x6e657261;
      v3h = k1High ^ 0x74656462;
      v3l = k1Low ^ 0x79746573;
    },
    mix(byteCount, rounds) {
      prepareWords(byteCount);
      mixWords(byteCount >> 2, rounds);
    },
    finish(rounds) {
      // Finalization rounds are rounds over a zero message word; the message is all mixed in by now.
      words[0] = 0;
      words[1] = 0;
      v2l ^= OUTPUT_128;
      mixWords(2, rounds);
      writeHalf(0);
      v1l ^= SECOND_HALF;
      mixWords(2, rounds);
      writeHalf(8);
    },
  };
}
