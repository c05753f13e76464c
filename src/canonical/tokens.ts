import type { TextHash } from './text-hash.js';

/*
 * Tokens stand for values too long to write out: `#s<length>:<hash>` for a string (its length in UTF-16 code units
 * and the hash of its raw text) and `#n<bits>:<hash>` for a bigint (its bit length and the hash of its hexadecimal
 * digits, sign included). The hash is 28 fixed hex characters (public or keyed, see `TextHash`), so a token is always followed by an unambiguous end.
 * No quoted string, number, bigint, marker or container form starts with `#`, and comparison keys that hash a whole
 * form start with `#` and a digit, so a token can only ever equal the token of the same value.
 */

/**
 * The token of a string.
 * @param text - the string
 * @param hash - the hash of the walk: public, or the guard's keyed one
 * @returns `#s<length>:<hash>`
 */
export function stringToken(text: string, hash: TextHash): string {
  return '#s' + String(text.length) + ':' + hash(text);
}

/**
 * The token of a bigint, converted in linear time (a power-of-two radix).
 * @param value - the bigint
 * @param hash - the hash of the walk: public, or the guard's keyed one
 * @returns `#n<bits>:<hash>`
 */
export function bigIntToken(value: bigint, hash: TextHash): string {
  const digits = value.toString(16);
  const magnitude = value < 0n ? digits.slice(1) : digits;
  const bits = (magnitude.length - 1) * 4 + Number.parseInt(magnitude.charAt(0), 16).toString(2).length;
  return '#n' + String(bits) + ':' + hash(digits);
}

let boundBits = 0;
let bound = 1n;

/**
 * `2 ** bits`: the smallest magnitude with more than `bits` bits. The last one asked for is kept, as building it
 * allocates `bits / 8` bytes.
 * @param bits - a bit count
 * @returns the bound
 */
export function bigIntBound(bits: number): bigint {
  if (bits !== boundBits) {
    bound = 1n << BigInt(bits);
    boundBits = bits;
  }
  return bound;
}

/**
 * The last few tokens written, by the value they stand for, so a long string or bigint met again in a read is not
 * hashed again. Looking one up compares with `===`: the same string is found at once, and an equal one in no more time
 * than hashing it would take.
 */
export class RecentTokens {
  readonly #values: (string | bigint | undefined)[] = [];
  readonly #tokens: string[] = [];
  #next = 0;

  /**
   * The token remembered for a value.
   * @param value - a string or bigint
   * @returns its token, or `undefined`
   */
  find(value: string | bigint): string | undefined {
    const index = this.#values.indexOf(value);
    return index === -1 ? undefined : this.#tokens[index];
  }

  /**
   * Remembers a token, forgetting the oldest of four.
   * @param value - the string or bigint
   * @param token - its token
   */
  remember(value: string | bigint, token: string): void {
    this.#values[this.#next] = value;
    this.#tokens[this.#next] = token;
    this.#next = (this.#next + 1) % RECENT_TOKENS;
  }
}

const RECENT_TOKENS = 4;
