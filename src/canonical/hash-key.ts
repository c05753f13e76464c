import type { LaneSeeds } from './murmur-hash.js';

/**
 * A secret key for the guard's own comparisons: 128 random bits as 32 lowercase hex characters, so it can be saved
 * in a snapshot as plain JSON and a guard restored elsewhere compares the same way. Its four 32-bit words seed the four
 * lanes of the hash (see {@link seedsOfKey}).
 *
 * What it gives: someone who controls tool output but not the key cannot build two values with the same comparison
 * key offline, as they can against the public seed of `stableHash` in milliseconds. What it does not give: MurmurHash3
 * is not a MAC; its keyed form resists precomputed collisions, not a cryptanalyst who can watch many of the guard's
 * hashes, and the key is only as unpredictable as its random source.
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
 * The four lane seeds a key stands for: its 32-bit words, most significant first.
 * @param key - a key from {@link createHashKey} or {@link parseHashKey}
 * @returns the lane seeds
 */
export function seedsOfKey(key: HashKey): LaneSeeds {
  // A guard reads every step with one key: parse it once, not per step.
  if (key === lastKey) return lastSeeds;
  const word = (index: number): number => Number.parseInt(key.slice(index * 8, index * 8 + 8), 16) | 0;
  lastSeeds = [word(0), word(1), word(2), word(3)];
  lastKey = key;
  return lastSeeds;
}

let lastKey = '';
let lastSeeds: LaneSeeds = [0, 0, 0, 0];
