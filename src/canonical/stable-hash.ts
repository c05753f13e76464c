import { formKeyWith, stringKeyWith } from './comparison-key.js';
import { DEFAULT_LIMITS, RAW_STRING_LENGTH } from './limits.js';
import { PUBLIC_SEEDS, hashText, publicHash } from './murmur-hash.js';
import { Walker } from './walker.js';

export { HASH_LENGTH } from './murmur-hash.js';

export { COMPARISON_KEY_LIMIT } from './comparison-key.js';

/**
 * Non-cryptographic 112-bit hash of a string, as 28 lowercase hex characters: the first 112 bits of MurmurHash3 x86_128
 * (seed `0x9747b28c`) over the string's UTF-8 bytes. A string with a lone surrogate has no UTF-8 form; it is hashed
 * over its UTF-16LE code units with seed `0x4f1bbcdc` instead. For equality checks, not for security: the seed is
 * public, so anyone can build two strings with the same hash.
 * @param text - the string to hash
 * @returns 28 lowercase hex characters
 */
export function hashString(text: string): string {
  return hashText(text, PUBLIC_SEEDS);
}

/**
 * The hash of a value's canonical form, 28 lowercase hex characters. Values with the same canonical form have the same
 * hash; see `canonicalize` for when that is. It is `hashString(canonicalize(value))` except that strings longer than
 * 1,024 code units are hashed raw, as their `#s<length>:<hash>` token, rather than escaped first (so long texts hash
 * fast, and strings that differ only in what escaping would add still hash apart). Deterministic across processes, and
 * not collision-resistant (the seed is public).
 * @param value - anything
 * @returns 28 lowercase hex characters
 */
export function stableHash(value: unknown): string {
  return hashString(new Walker(DEFAULT_LIMITS, publicHash).read(value, RAW_STRING_LENGTH));
}

/**
 * A key to compare canonical forms by: the form itself when it is at most 256 characters long, otherwise
 * `#<length>:<hashString(form)>`. No canonical form starts with `#` and a digit, so the two kinds never meet. The guard
 * itself compares by keyed hashes (see `StepReader`); this one uses the public seed.
 * @param form - a canonical form
 * @returns the form, or its length and hash
 */
export function comparisonKey(form: string): string {
  return formKeyWith(form, publicHash);
}

/**
 * A key to compare a string by, for tool names and texts: its JSON-quoted text when it is at most 256 code units long,
 * otherwise `#s<length>:<hashString(text)>`. Never escapes or copies more than 256 code units of a longer string.
 * @param text - the string
 * @returns the quoted string, or its length and hash
 */
export function stringKey(text: string): string {
  return stringKeyWith(text, publicHash);
}
