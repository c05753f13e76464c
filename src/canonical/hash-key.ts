import { type SipKey, sipHash } from './sip-hash.js';
import type { TextHash } from './text-hash.js';

/**
 * A secret key for the guard's own comparisons: 128 random bits as 32 lowercase hex characters, so it can be saved
 * in a snapshot as plain JSON and a guard restored elsewhere compares the same way. It keys SipHash-1-3 (see
 * {@link hashOfKey}), which hashes every tool result, error, tool name and text the guard compares by hash.
 *
 * What it gives: SipHash is a pseudorandom function designed against hash flooding, so someone who controls tool output
 * but not the key cannot build two values the guard takes for one (as anyone can in milliseconds against the public
 * seed of `stableHash`, and as anyone could against MurmurHash3 with a secret seed: its block function lets chosen
 * differences cancel whatever the seed). What it does not give: SipHash-1-3 is the fast variant (Rust's `HashMap`
 * uses it), not the 2-4 its authors recommend as a MAC; the comparison keys are 112 bits of its output; whoever reads
 * the key (from a snapshot, say) can build collisions at will; and the key is only as unpredictable as its random
 * source (not cryptographic on Node 18, see {@link randomWordsOf}).
 */
export type HashKey = string;

const HASH_KEY_PATTERN = /^[0-9a-f]{32}$/;

/** Fills an array with random 32-bit words. */
export type RandomWords = (words: Uint32Array) => void;

/**
 * The best random source a global object offers: `crypto.getRandomValues` where there is one (browsers, Node 19 and
 * later, edge runtimes), otherwise `Math.random` (Node 18 has no global `crypto`), which is not cryptographic.
 * @param host - the global object, or a stand-in in tests
 * @returns a source of random words
 */
export function randomWordsOf(host: { crypto?: { getRandomValues?: unknown } }): RandomWords {
  const crypto = host.crypto;
  const getRandomValues = crypto?.getRandomValues;
  if (typeof getRandomValues === 'function') {
    return (words) => {
      (getRandomValues as (this: unknown, array: Uint32Array) => Uint32Array).call(crypto, words);
    };
  }
  return (words) => {
    for (let index = 0; index < words.length; index++) words[index] = Math.floor(Math.random() * 0x1_0000_0000);
  };
}

const POOL_WORDS = 64;
const pool = new Uint32Array(POOL_WORDS);
let pooled = 0;
let hostRandom: RandomWords | undefined;

/**
 * The host's best source, drawn from a pool refilled 64 words at a time: asking the host for randomness costs far
 * more than the four words a key needs, and a guard is made per run.
 */
function pooledRandom(words: Uint32Array): void {
  for (let index = 0; index < words.length; index++) {
    if (pooled === 0) {
      (hostRandom ??= randomWordsOf(globalThis))(pool);
      pooled = POOL_WORDS;
    }
    // eslint-disable-next-line @typescript-eslint/non-nullable-type-assertion-style -- pooled stays within the pool; the strict config forbids `!`.
    words[index] = pool[--pooled] as number;
  }
}

/**
 * A new random key.
 * @param random - where the 128 bits come from; the host's best source by default
 * @returns 32 lowercase hex characters
 */
export function createHashKey(random: RandomWords = pooledRandom): HashKey {
  const words = new Uint32Array(4);
  random(words);
  let key = '';
  for (const word of words) key += word.toString(16).padStart(8, '0');
  return key;
}

/**
 * Whether a value read back from a snapshot is a key: 32 lowercase hex characters.
 * @param value - what was read
 * @returns `true` for a key
 */
export function isHashKey(value: unknown): value is HashKey {
  return typeof value === 'string' && HASH_KEY_PATTERN.test(value);
}

/**
 * The keyed hash a key stands for: SipHash-1-3 with 128-bit output, keyed with the key's 16 bytes in order, its first
 * 112 bits as 28 hex characters (so a keyed token is as long as a public one).
 * @param key - a key from {@link createHashKey} or {@link isHashKey}
 * @returns the hash
 */
export function hashOfKey(key: HashKey): TextHash {
  // A guard reads every step with one key: parse it once, not per step.
  if (last?.key !== key) {
    const byte = (index: number): number => Number.parseInt(key.slice(index * 2, index * 2 + 2), 16);
    const word = (index: number): number => byte(index * 4) | (byte(index * 4 + 1) << 8) | (byte(index * 4 + 2) << 16) | (byte(index * 4 + 3) << 24);
    const sipKey: SipKey = [word(0), word(1), word(2), word(3)];
    last = { key, hash: (text) => sipHash(text, sipKey) };
  }
  return last.hash;
}

let last: { readonly key: HashKey; readonly hash: TextHash } | undefined;
