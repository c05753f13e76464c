import { LONG_STRING_LENGTH, RAW_STRING_LENGTH, readForm } from './form.js';
import { publicHash } from './hash.js';

/**
 * Deterministic text form of any value, the basis of every equality check the guard makes: equal values give equal
 * forms. Synchronous, never throws, and bounded whatever the input. The rules in short (all of them, with the limits,
 * are in docs/detection.md, "How values are compared"):
 * - JSON data is compact `JSON.stringify` output with object keys sorted by UTF-16 code unit; `undefined` properties
 *   are left out, `undefined` in an array is the bare token `undefined`.
 * - `NaN`, `Infinity`, bigints (`10n`), functions, symbols, `Date`, `Error`, `Map`, `Set`, `RegExp`, typed arrays,
 *   buffers and boxed primitives have forms of their own, so none equals a string or plain object that prints alike;
 *   built-ins are recognised by their internal slots, so those from another realm are written like local ones.
 *   Any other object with `toJSON` is replaced by what it returns.
 * - A reference back to an ancestor is `[Circular:<depth>]`; nesting past 64 levels is `[MaxDepth]`; past 200,000
 *   values or 2^24 characters of text the rest is `[Truncated]`, with nothing after it.
 * - A string longer than 2^20 code units is `#s<length>:<hash>`, a bigint of more than 65,536 bits `#n<bits>:<hash>`
 *   (the hash as in `stableHash`); no other form starts with `#`.
 * - A value whose reading throws (a getter, a revoked proxy, a `toJSON`) is `[Unreadable:<n>]`, numbered from a random
 *   start per process, so it equals nothing, not even itself read again.
 *
 * @example
 * ```ts
 * canonicalize({ query: 'agent loop detection', limit: 10 }); // '{"limit":10,"query":"agent loop detection"}'
 * canonicalize([undefined, Number.NaN, 10n, new Date(0)]); // '[undefined,NaN,10n,Date("1970-01-01T00:00:00.000Z")]'
 * canonicalize(new Map([['b', 1], ['a', 2]])); // 'Map{"a":2,"b":1}'
 * ```
 *
 * @param value - anything
 * @returns the canonical form
 */
export function canonicalize(value: unknown): string {
  return readForm(value, publicHash, LONG_STRING_LENGTH).form;
}

/**
 * A 112-bit hash of a value's canonical form, 28 lowercase hex characters: SipHash-1-3-128 of the form's UTF-16 code
 * units under a fixed public key, except that strings longer than 1,024 code units are hashed raw, as their
 * `#s<length>:<hash>` token, rather than escaped first. Values with the same canonical form have the same hash, in
 * every process. Not collision-resistant against someone who wants a collision: the key is public. (The guard's own
 * comparisons use a random key per run.)
 * @param value - anything
 * @returns 28 lowercase hex characters
 */
export function stableHash(value: unknown): string {
  return publicHash(readForm(value, publicHash, RAW_STRING_LENGTH).form);
}
