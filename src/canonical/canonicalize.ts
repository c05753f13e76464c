import { LONG_STRING_LENGTH, RAW_STRING_LENGTH, readForm } from './form.js';
import { publicHash } from './hash.js';

/**
 * Deterministic text form of any value, the basis of every equality check the guard makes. Equal values give equal
 * forms, and values that differ give different forms except where a rule below says otherwise. Synchronous, never
 * throws, and never recurses deeper than the nesting limit, whatever the input.
 *
 * Rules:
 * - JSON-compatible values are written exactly as compact `JSON.stringify` output with object keys sorted by UTF-16
 *   code unit order: `canonicalize({ b: 1, a: 'x' })` is `{"a":"x","b":1}`. Strings (values and keys) are escaped
 *   exactly as `JSON.stringify` escapes them, lone surrogates included.
 * - A string longer than 1,048,576 (2^20) UTF-16 code units, wherever it appears (a value, a key, a description, a
 *   name), is written as the token `#s<length>:<hash>` instead: its length, and the 28-hex-digit hash of its raw text
 *   (SipHash-1-3 under a fixed public key, see `stableHash`). Such a string is never escaped, so the work stays linear in its length.
 * - Objects: own enumerable string keys, sorted; properties whose value is `undefined` are left out; symbol keys and
 *   non-enumerable properties are ignored. Keys named `__proto__`, `constructor` or `prototype` are ordinary data.
 *   Objects without a prototype and class instances are written the same way (the class is not recorded).
 * - Arrays keep their order. `undefined` (also a hole) inside an array, and at the top level, is the bare token
 *   `undefined`, distinct from `null`. Non-index properties of an array, and any `toJSON` on it, are ignored.
 * - Numbers are written as JSON writes them, so `-0` is `0`. `NaN`, `Infinity` and `-Infinity` are bare tokens, and a
 *   bigint is its digits followed by `n` (`10n`), so none of them equals a string, number or `null` that prints alike.
 *   A bigint of more than 65,536 bits is the token `#n<bits>:<hash>` instead: its bit length, and the hash of its
 *   hexadecimal digits (sign included), converted in linear time.
 * - A function is `Function("<name>")` and a symbol `Symbol("<description>")` (`Symbol()` without one), wherever they
 *   appear, object properties included.
 * - Built-ins are recognised by their internal slots, not by `instanceof`, so those made in another realm (`node:vm`,
 *   an iframe, a test environment) are written like local ones. An object posing as one (a prototype or a
 *   `Symbol.toStringTag` that claims a kind its slots do not back) is unreadable, as below.
 * - A `Date` is `Date("<ISO string>")`, an invalid one `Date(Invalid)`.
 * - An `Error` (AI SDK errors included) is `Error{...}` holding its `name`, its `message`, its own `cause` if it has
 *   one, and its own enumerable properties, keys sorted as for objects; the stack and any `toJSON` are ignored. An error
 *   is recognised by `Error.isError` where the engine has it; elsewhere (Node 18 to 22) by its internal tag, which an
 *   error that carries its own `Symbol.toStringTag` hides: such an error is written as a plain object.
 * - Any other object with a `toJSON` method (`URL`, Node's `Buffer`, ...) is replaced by what `toJSON('')` returns,
 *   written by these rules except that its own `toJSON` is not called again; a `toJSON` returning its own object gives
 *   that object's properties. `toJSON` is only looked for on objects, and a property whose `toJSON` returns
 *   `undefined` is kept, as `undefined`.
 * - A `Map` is `Map{<key>:<value>,...}` and a `Set` is `Set[<member>,...]`, entries written by these rules and sorted
 *   by their text, so insertion order does not matter and neither equals `{}` or `[]`. A `Map` entry whose value is
 *   `undefined` is kept.
 * - A `RegExp` is `RegExp("/<source>/<flags>")`. A typed array is its type then its elements (`Uint8Array[1,2]`,
 *   `BigInt64Array[1n]`); a `DataView` (`DataView[...]`), an `ArrayBuffer` (`ArrayBuffer[...]`) and a
 *   `SharedArrayBuffer` (`SharedArrayBuffer[...]`) list their bytes. Boxed primitives are unwrapped (`Object(1)` is
 *   `1`, `Object(10n)` is `10n`). Other built-ins (`WeakMap`, `Promise`, ...) are written as plain objects.
 * - A reference back to an object on the current path is `[Circular:<depth>]`, the depth of that ancestor (the root is
 *   0). An object met twice without a cycle is written in full both times (a form already written may be reused, with
 *   the same text; getters and `toJSON` of an object met again are then not called again).
 * - An object (anything but a primitive or a function) at depth 64 or deeper is `[MaxDepth]`, so at most 64 levels of
 *   nesting are written.
 * - At most 200,000 values are written: the root, every array element, property value, `Map` key and value, `Set`
 *   member, typed array element and byte counts one. At most 16,777,216 (2^24) characters of text are read: every
 *   string value, property name written, symbol description, function name and regular expression counts its length
 *   (a string written as a token counts 2^20), a bigint its decimal digits (a token counts 16,384). The value or
 *   property name that would pass either budget becomes `[Truncated]` and nothing follows it, not even closing
 *   brackets, so two huge values that agree up to the cut have the same form. (`Map` and `Set` entries are visited in
 *   insertion order up to the cut; the unfinished one is written last.)
 * - A value whose reading throws (a throwing getter, a revoked proxy, a proxy trap or `toJSON` that throws) becomes
 *   `[Unreadable:<n>]`, numbered from a random start per process, so it never equals anything, not even itself read
 *   again, nor a placeholder written in another process.
 * - A form starts with `#` only when it is a token (`#s` or `#n`), never with `#` and a digit, so a form never equals
 *   a hashed comparison key (`#<length>:<hash>`).
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
