/**
 * The one hash family: SipHash-1-3 with 128-bit output (Aumasson and Bernstein's keyed hash, the variant Rust's
 * `HashMap` uses against hash flooding), over a string's bytes (see `sipHash`), written as the first 112 bits of
 * its output, 28 lowercase hex characters. A guard keys it with a random key of its run, so someone who controls tool
 * output but not the key cannot build two values the guard takes for one; `canonicalize` and `stableHash` key it with
 * a fixed public key, so their hashes are the same in every process (and anyone can build collisions against them).
 */

/** A hash of a string as 28 lowercase hex characters. */
export type TextHash = (text: string) => string;

/**
 * A key for a run's comparisons: 128 random bits as 32 lowercase hex characters, so it can be saved in a snapshot and a
 * guard restored elsewhere compares as the one that saved it. Whoever reads the key can build collisions at will.
 */
export type HashKey = string;

const HASH_KEY = /^[0-9a-f]{32}$/;

/** The key of the public hash: the first 16 bytes of the digits of pi. */
const PUBLIC_KEY: HashKey = '243f6a8885a308d313198a2e03707344';

/** Whether a value read back from a snapshot is a key. */
export function isHashKey(value: unknown): value is HashKey {
  return typeof value === 'string' && HASH_KEY.test(value);
}

/**
 * A new random key, from `crypto.getRandomValues` where the host has it (browsers, Node 19 and later, edge runtimes),
 * else `Math.random` (Node 18 has no global `crypto`), which is not cryptographic.
 */
export function createHashKey(): HashKey {
  const words = new Uint32Array(4);
  const crypto = (globalThis as { crypto?: { getRandomValues?: (array: Uint32Array) => unknown } }).crypto;
  if (typeof crypto?.getRandomValues === 'function') crypto.getRandomValues(words);
  else for (let index = 0; index < 4; index++) words[index] = Math.floor(Math.random() * 0x1_0000_0000);
  return Array.from(words, (word) => word.toString(16).padStart(8, '0')).join('');
}

/** A key's 16 bytes as four little-endian 32-bit words, in order. */
type KeyWords = readonly [number, number, number, number];

// A code unit past 255: the string needs two bytes per code unit.
const BEYOND_ONE_BYTE = /[\u0100-\uffff]/;

/**
 * The message words after a string's full blocks: the code units left over, the byte that says how code units were
 * written, zero padding, and the message's length in bytes (its low byte) last, as SipHash ends a message.
 */
function lastWords(text: string, from: number, oneByte: boolean): number[] {
  const bytes: number[] = [];
  for (let at = from; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    bytes.push(unit & 0xff);
    if (!oneByte) bytes.push(unit >>> 8);
  }
  bytes.push(oneByte ? 0 : 1);
  while (bytes.length % 8 !== 7) bytes.push(0);
  bytes.push((text.length * (oneByte ? 1 : 2) + 1) & 0xff);
  const words: number[] = [];
  for (let at = 0; at < bytes.length; at += 4) words.push((bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16) | ((bytes[at + 3] ?? 0) << 24));
  return words;
}

/**
 * SipHash-1-3-128 of a string's bytes: one byte per code unit when every code unit fits in one (most text), else its
 * UTF-16LE code units, followed by a byte that says which, so no two strings share a message. JavaScript has no
 * 64-bit integers but BigInt, which allocates, so each state word is a high and a low 32-bit half, and a 64-bit
 * addition carries the top bit of `(x & y) | ((x | y) & ~sum)` from the low halves into the high ones. One loop runs
 * the full blocks, then the last words and the finalization rounds, so the state stays in local variables.
 * @returns the first 112 bits of the output, as hex in the output's byte order
 */
function sipHash(text: string, [k0l, k0h, k1l, k1h]: KeyWords): string {
  let a = k0h ^ 0x736f6d65;
  let b = k0l ^ 0x70736575;
  let c = k1h ^ 0x646f7261;
  let d = k1l ^ 0x6e646f6d ^ 0xee;
  let e = k0h ^ 0x6c796765;
  let f = k0l ^ 0x6e657261;
  let g = k1h ^ 0x74656462;
  let h = k1l ^ 0x79746573;
  const oneByte = !BEYOND_ONE_BYTE.test(text);
  const perBlock = oneByte ? 8 : 4;
  const whole = text.length - (text.length % perBlock);
  const last = lastWords(text, whole, oneByte);
  let at = 0;
  let extra = 0;
  let first = '';
  for (;;) {
    let messageLow: number;
    let messageHigh: number;
    if (at < whole) {
      if (oneByte) {
        messageLow = text.charCodeAt(at) | (text.charCodeAt(at + 1) << 8) | (text.charCodeAt(at + 2) << 16) | (text.charCodeAt(at + 3) << 24);
        messageHigh = text.charCodeAt(at + 4) | (text.charCodeAt(at + 5) << 8) | (text.charCodeAt(at + 6) << 16) | (text.charCodeAt(at + 7) << 24);
      } else {
        messageLow = text.charCodeAt(at) | (text.charCodeAt(at + 1) << 16);
        messageHigh = text.charCodeAt(at + 2) | (text.charCodeAt(at + 3) << 16);
      }
      at += perBlock;
    } else {
      // The last words, then three finalization rounds, the first half of the output, and three more.
      if (extra === last.length) f ^= 0xee;
      else if (extra === last.length + 6) {
        first = hex(b ^ d ^ f ^ h) + hex(a ^ c ^ e ^ g);
        d ^= 0xdd;
      } else if (extra === last.length + 12) break;
      messageLow = last[extra] ?? 0;
      messageHigh = last[extra + 1] ?? 0;
      extra += 2;
    }
    g ^= messageHigh;
    h ^= messageLow;
    let low = (b + d) | 0;
    a = (a + c + (((b & d) | ((b | d) & ~low)) >>> 31)) | 0;
    b = low;
    let swap = (c << 13) | (d >>> 19);
    d = ((d << 13) | (c >>> 19)) ^ b;
    c = swap ^ a;
    swap = a;
    a = b;
    b = swap;
    low = (f + h) | 0;
    e = (e + g + (((f & h) | ((f | h) & ~low)) >>> 31)) | 0;
    f = low;
    swap = (g << 16) | (h >>> 16);
    h = ((h << 16) | (g >>> 16)) ^ f;
    g = swap ^ e;
    low = (b + h) | 0;
    a = (a + g + (((b & h) | ((b | h) & ~low)) >>> 31)) | 0;
    b = low;
    swap = (g << 21) | (h >>> 11);
    h = ((h << 21) | (g >>> 11)) ^ b;
    g = swap ^ a;
    low = (f + d) | 0;
    e = (e + c + (((f & d) | ((f | d) & ~low)) >>> 31)) | 0;
    f = low;
    swap = (c << 17) | (d >>> 15);
    d = ((d << 17) | (c >>> 15)) ^ f;
    c = swap ^ e;
    swap = e;
    e = f;
    f = swap;
    a ^= messageHigh;
    b ^= messageLow;
  }
  return first + (hex(b ^ d ^ f ^ h) + hex(a ^ c ^ e ^ g)).slice(0, 12);
}

/** A 32-bit word as 8 hex digits, least significant byte first (the order SipHash writes its output). */
function hex(word: number): string {
  let out = '';
  for (let shift = 0; shift < 32; shift += 8) out += ((word >>> shift) & 0xff).toString(16).padStart(2, '0');
  return out;
}

/** The four words of a key's 16 bytes, each read little-endian. */
function keyWords(key: HashKey): KeyWords {
  const word = (index: number): number => Number.parseInt(key.slice(index * 8, index * 8 + 8).replace(/(..)(..)(..)(..)/, '$4$3$2$1'), 16) | 0;
  return [word(0), word(1), word(2), word(3)];
}

let lastKey: HashKey | undefined;
let lastHash: TextHash | undefined;

/**
 * The hash a key stands for. A guard reads every step with one key, so the last one parsed is kept.
 * @param key - a key from {@link createHashKey} or a snapshot
 */
export function keyedHash(key: HashKey): TextHash {
  if (key !== lastKey || lastHash === undefined) {
    const words = keyWords(key);
    lastKey = key;
    lastHash = (text) => sipHash(text, words);
  }
  return lastHash;
}

const PUBLIC_WORDS = keyWords(PUBLIC_KEY);

/** The hash of `canonicalize` and `stableHash`: SipHash under the fixed public key, the same in every process. */
export const publicHash: TextHash = (text) => sipHash(text, PUBLIC_WORDS);
