import { jsonQuote } from './json-quote.js';
import { LAYOUT_KEYS_LIMIT, memberLayout } from './member-layout.js';
import { sortKeys } from './sort-keys.js';

/** Containers at this depth or deeper (the root is depth 0) are written as {@link MAX_DEPTH_MARKER}. */
export const MAX_DEPTH = 64;
/** At most this many values are written; the next one becomes {@link TRUNCATED_MARKER} and the form ends there. */
export const MAX_VALUES = 200_000;
/** Stands for a container nested too deeply. */
export const MAX_DEPTH_MARKER = '[MaxDepth]';
/** Ends a form whose input holds more than {@link MAX_VALUES} values. */
export const TRUNCATED_MARKER = '[Truncated]';

// Stands for a value whose reading threw until it is written; never leaves this module.
const UNREADABLE: unique symbol = Symbol('unreadable');

// Intrinsics captured once, so a value cannot redirect them by shadowing a method. They are always called with `.call`.
/* eslint-disable @typescript-eslint/unbound-method */
const getPrototypeOf = Object.getPrototypeOf;
const objectKeys = Object.keys;
const hasOwn = Object.hasOwn;
const isArray = Array.isArray;
const isView = ArrayBuffer.isView;
const objectPrototype = Object.prototype;
const arrayPrototype = Array.prototype;
const dateGetTime = Date.prototype.getTime;
const dateToISOString = Date.prototype.toISOString;
const regExpToString = RegExp.prototype.toString;
const mapEntries = Map.prototype.entries;
const setValues = Set.prototype.values;
const numberValueOf = Number.prototype.valueOf;
const stringValueOf = String.prototype.valueOf;
const booleanValueOf = Boolean.prototype.valueOf;
const bigIntValueOf = BigInt.prototype.valueOf;
const symbolValueOf = Symbol.prototype.valueOf;
const symbolDescription = Object.getOwnPropertyDescriptor(Symbol.prototype, 'description')?.get as (
  this: symbol,
) => string | undefined;
const typedArrayTag = Object.getOwnPropertyDescriptor(getPrototypeOf(Uint8Array.prototype) as object, Symbol.toStringTag)
  ?.get as (this: unknown) => string | undefined;
/* eslint-enable @typescript-eslint/unbound-method */

// Walk state. canonicalize saves and restores it, so a getter or toJSON that calls canonicalize gets its own.
let remaining = 0;
// Stryker disable BooleanLiteral,ObjectLiteral: initial values canonicalize overwrites before any read (an outer walk
// assumed by mistake only costs a fresh ancestors array, and an empty one grows as entries are set).
let cut = false;
let ancestors: (object | undefined)[] = Array.from({ length: MAX_DEPTH }, () => undefined);
let walking = false;
// Stryker restore BooleanLiteral,ObjectLiteral
let unreadableCount = 0;

/**
 * Deterministic text form of any value, the basis of every equality check the guard makes. Equal values give equal
 * forms, and values that differ give different forms except where a rule below says otherwise. Synchronous, never
 * throws, and never recurses deeper than the nesting limit, whatever the input.
 *
 * Rules:
 * - JSON-compatible values are written exactly as compact `JSON.stringify` output with object keys sorted by UTF-16
 *   code unit order: `canonicalize({ b: 1, a: 'x' })` is `{"a":"x","b":1}`. Strings (values and keys) are escaped
 *   exactly as `JSON.stringify` escapes them, lone surrogates included.
 * - Objects: own enumerable string keys, sorted; properties whose value is `undefined` are left out; symbol keys and
 *   non-enumerable properties are ignored. Keys named `__proto__`, `constructor` or `prototype` are ordinary data.
 *   Objects without a prototype and class instances are written the same way (the class is not recorded).
 * - Arrays keep their order. `undefined` (also a hole) inside an array, and at the top level, is the bare token
 *   `undefined`, distinct from `null`. Non-index properties of an array, and any `toJSON` on it, are ignored.
 * - Numbers are written as JSON writes them, so `-0` is `0`. `NaN`, `Infinity` and `-Infinity` are bare tokens, and a
 *   bigint is its digits followed by `n` (`10n`), so none of them equals a string, number or `null` that prints alike.
 * - A function is `Function("<name>")` and a symbol `Symbol("<description>")` (`Symbol()` without one), wherever they
 *   appear, object properties included.
 * - A `Date` is `Date("<ISO string>")`, an invalid one `Date(Invalid)`.
 * - An `Error` (AI SDK errors included) is `Error{...}` holding its `name`, its `message`, its own `cause` if it has
 *   one, and its own enumerable properties, keys sorted as for objects; the stack and any `toJSON` are ignored.
 * - Any other object with a `toJSON` method (`URL`, Node's `Buffer`, ...) is replaced by what `toJSON('')` returns,
 *   written by these rules except that its own `toJSON` is not called again; a `toJSON` returning its own object gives
 *   that object's properties. `toJSON` is only looked for on objects, and a property whose `toJSON` returns
 *   `undefined` is kept, as `undefined`.
 * - A `Map` is `Map{<key>:<value>,...}` and a `Set` is `Set[<member>,...]`, entries written by these rules and sorted
 *   by their text, so insertion order does not matter and neither equals `{}` or `[]`. A `Map` entry whose value is
 *   `undefined` is kept.
 * - A `RegExp` is `RegExp("/<source>/<flags>")`. A typed array is its type then its elements (`Uint8Array[1,2]`,
 *   `BigInt64Array[1n]`); a `DataView` (`DataView[...]`) and an `ArrayBuffer` (`ArrayBuffer[...]`) list their bytes.
 *   Boxed primitives are unwrapped (`Object(1)` is `1`, `Object(10n)` is `10n`). Other built-ins (`WeakMap`,
 *   `Promise`, `SharedArrayBuffer`, ...) are written as plain objects.
 * - A reference back to an object on the current path is `[Circular:<depth>]`, the depth of that ancestor (the root is
 *   0). An object met twice without a cycle is written in full both times.
 * - An object (anything but a primitive or a function) at depth 64 or deeper is `[MaxDepth]`, so at most 64 levels of
 *   nesting are written.
 * - At most 200,000 values are written: the root, every array element, property value, `Map` key and value, `Set`
 *   member, typed array element and byte counts one. The next value becomes `[Truncated]` and nothing follows it, not
 *   even closing brackets, so two huge values that agree up to the cut have the same form. (`Map` and `Set` entries
 *   are visited in insertion order up to the cut; the unfinished one is written last.)
 * - A value whose reading throws (a throwing getter, a revoked proxy, a proxy trap or `toJSON` that throws) becomes
 *   `[Unreadable:<n>]` with a process-wide counter `n`, so it never equals anything, not even itself read again. A
 *   form too long for the engine's strings makes the object being written unreadable the same way.
 * - No form starts with `#`.
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
  if (typeof value !== 'object' || value === null) return writePrimitive(value);
  const outerRemaining = remaining;
  const outerCut = cut;
  const outerAncestors = ancestors;
  const outerWalking = walking;
  // Stryker disable next-line ConditionalExpression,ObjectLiteral: a fresh (or empty, growing) ancestors array every time only costs memory.
  if (outerWalking) ancestors = Array.from({ length: MAX_DEPTH }, () => undefined);
  walking = true;
  remaining = MAX_VALUES - 1;
  cut = false;
  try {
    // Never throws: writeObject turns any failure inside it into a placeholder.
    return writeObject(value, 0, true);
  } finally {
    // Let go of the input so the walk does not keep it alive.
    if (outerWalking) ancestors = outerAncestors;
    else for (let index = 0; ancestors[index] !== undefined; index++) ancestors[index] = undefined;
    remaining = outerRemaining;
    cut = outerCut;
    walking = outerWalking;
  }
}

function writePrimitive(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return jsonQuote(value);
    case 'number':
      // As JSON writes finite numbers (-0 as 0), and NaN, Infinity, -Infinity by name.
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return 'undefined';
    case 'bigint':
      return value.toString() + 'n';
    case 'symbol':
      return value === UNREADABLE ? unreadable() : writeSymbol(value);
    case 'function':
      return writeFunction(value);
    default:
      return 'null';
  }
}

function writeSymbol(value: symbol): string {
  const description = symbolDescription.call(value);
  return description === undefined ? 'Symbol()' : 'Symbol(' + jsonQuote(description) + ')';
}

function writeFunction(value: unknown): string {
  const name = readProperty(value, 'name');
  if (name === UNREADABLE) return unreadable();
  return 'Function(' + jsonQuote(typeof name === 'string' ? name : '') + ')';
}

function unreadable(): string {
  unreadableCount++;
  return '[Unreadable:' + String(unreadableCount) + ']';
}

/** Writes one counted value: the place where the value budget is spent. */
function writeCounted(value: unknown, depth: number): string {
  if (remaining === 0) {
    cut = true;
    return TRUNCATED_MARKER;
  }
  remaining--;
  return typeof value === 'object' && value !== null ? writeObject(value, depth, true) : writePrimitive(value);
}

function readProperty(target: unknown, key: string | number): unknown {
  try {
    return (target as Record<string | number, unknown>)[key];
  } catch {
    return UNREADABLE;
  }
}

function writeObject(value: object, depth: number, allowToJSON: boolean): string {
  if (depth >= MAX_DEPTH) return MAX_DEPTH_MARKER;
  for (let index = 0; index < depth; index++) {
    if (ancestors[index] === value) return '[Circular:' + String(index) + ']';
  }
  ancestors[depth] = value;
  try {
    const prototype: unknown = getPrototypeOf(value);
    // Stryker disable ConditionalExpression,LogicalOperator,BlockStatement: fast paths for plain objects and arrays;
    // writeOther writes both to the same text, only slower.
    if (prototype === objectPrototype || prototype === null) {
      if (!allowToJSON || typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
        return writeProperties(value, objectKeys(value), depth);
      }
    } else if (prototype === arrayPrototype) {
      return writeList(value as ArrayLike<unknown>, depth);
    }
    // Stryker restore ConditionalExpression,LogicalOperator,BlockStatement
    return writeOther(value, depth, allowToJSON);
  } catch {
    return unreadable();
  }
}

function writeProperties(target: object, keys: string[], depth: number): string {
  // Stryker disable next-line ConditionalExpression: an empty key list writes '{}' through the loop below too.
  if (keys.length === 0) return '{}';
  // Stryker disable next-line ConditionalExpression,EqualityOperator: both paths write the same text; the layout cache only pays off for few keys.
  if (keys.length > LAYOUT_KEYS_LIMIT) return writeManyProperties(target, sortKeys(keys), depth);
  const childDepth = depth + 1;
  let out = '{';
  let separator = '';
  for (const member of memberLayout(keys, depth).members) {
    const item = readProperty(target, member.key);
    if (item === undefined) continue;
    out += separator + member.prefix + writeCounted(item, childDepth);
    if (cut) return out;
    separator = ',';
  }
  return out + '}';
}

/** The same without a layout: keys are quoted only as far as the value budget reaches. */
function writeManyProperties(target: object, sortedKeys: readonly string[], depth: number): string {
  const childDepth = depth + 1;
  let out = '{';
  let separator = '';
  for (const key of sortedKeys) {
    const item = readProperty(target, key);
    if (item === undefined) continue;
    out += separator + jsonQuote(key) + ':' + writeCounted(item, childDepth);
    if (cut) return out;
    separator = ',';
  }
  return out + '}';
}

function writeList(list: ArrayLike<unknown>, depth: number): string {
  const length = list.length;
  if (length === 0) return '[]';
  const childDepth = depth + 1;
  let out = '[' + writeCounted(readProperty(list, 0), childDepth);
  for (let index = 1; index < length && !cut; index++) {
    out += ',' + writeCounted(readProperty(list, index), childDepth);
  }
  return cut ? out : out + ']';
}

/** Everything but plain objects and plain arrays: the built-ins with their own forms, then `toJSON`, then properties. */
function writeOther(value: object, depth: number, allowToJSON: boolean): string {
  if (isArray(value)) return writeList(value, depth);
  if (value instanceof Date) {
    return Number.isNaN(dateGetTime.call(value)) ? 'Date(Invalid)' : 'Date("' + dateToISOString.call(value) + '")';
  }
  if (value instanceof Error) return 'Error' + writeProperties(value, errorKeys(value), depth);
  if (allowToJSON) {
    const toJSON: unknown = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      const replacement: unknown = (toJSON as (this: object, key: string) => unknown).call(value, '');
      // Stryker disable next-line ConditionalExpression: a toJSON returning its own object is written without toJSON either way.
      if (replacement !== value) {
        if (typeof replacement !== 'object' || replacement === null) return writePrimitive(replacement);
        return writeObject(replacement, depth, false);
      }
    }
  }
  if (value instanceof Map) return 'Map' + writeEntries(value, depth);
  if (value instanceof Set) return 'Set' + writeMembers(value, depth);
  if (value instanceof RegExp) return 'RegExp(' + jsonQuote(regExpToString.call(value)) + ')';
  if (isView(value)) {
    const tag = typedArrayTag.call(value);
    if (tag !== undefined) return tag + writeList(value as unknown as ArrayLike<unknown>, depth);
    return 'DataView' + writeList(new Uint8Array(value.buffer, value.byteOffset, value.byteLength), depth);
  }
  if (value instanceof ArrayBuffer) return 'ArrayBuffer' + writeList(new Uint8Array(value), depth);
  if (value instanceof Number) return String(numberValueOf.call(value));
  if (value instanceof String) return jsonQuote(stringValueOf.call(value));
  if (value instanceof Boolean) return booleanValueOf.call(value) ? 'true' : 'false';
  if (value instanceof BigInt) return bigIntValueOf.call(value).toString() + 'n';
  if (value instanceof Symbol) return writeSymbol(symbolValueOf.call(value));
  return writeProperties(value, objectKeys(value), depth);
}

function errorKeys(error: Error): string[] {
  const keys = objectKeys(error);
  if (!keys.includes('name')) keys.push('name');
  if (!keys.includes('message')) keys.push('message');
  if (hasOwn(error, 'cause') && !keys.includes('cause')) keys.push('cause');
  return keys;
}

function writeEntries(map: Map<unknown, unknown>, depth: number): string {
  const childDepth = depth + 1;
  const entries: string[] = [];
  // Stryker disable next-line StringLiteral: read only after a cut, which always sets it first.
  let partial = '';
  for (const [key, item] of mapEntries.call(map)) {
    let entry = writeCounted(key, childDepth);
    if (!cut) entry += ':' + writeCounted(item, childDepth);
    if (cut) {
      partial = entry;
      break;
    }
    entries.push(entry);
  }
  return closeSorted('{', entries, partial, '}');
}

function writeMembers(set: Set<unknown>, depth: number): string {
  const childDepth = depth + 1;
  const members: string[] = [];
  // Stryker disable next-line StringLiteral: read only after a cut, which always sets it first.
  let partial = '';
  for (const member of setValues.call(set)) {
    const text = writeCounted(member, childDepth);
    if (cut) {
      partial = text;
      break;
    }
    members.push(text);
  }
  return closeSorted('[', members, partial, ']');
}

/** Joins sorted entries; after a cut, the entry holding the marker goes last and the bracket stays open. */
function closeSorted(open: string, entries: string[], partial: string, close: string): string {
  const body = sortKeys(entries).join(',');
  if (!cut) return open + body + close;
  return open + body + (entries.length > 0 ? ',' : '') + partial;
}
