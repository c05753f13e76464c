import { type BuiltinKind, builtinKind } from './brand.js';
import { jsonQuote } from './json-quote.js';
import { memberLayout } from './member-layout.js';
import { sortKeys } from './sort-keys.js';
import { unreadablePlaceholder } from './unreadable.js';

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
const getter = (target: object, key: PropertyKey): unknown => Object.getOwnPropertyDescriptor(target, key)?.get;
const getPrototypeOf = Object.getPrototypeOf;
const objectKeys = Object.keys;
const hasOwn = Object.hasOwn;
const isArray = Array.isArray;
const isView = ArrayBuffer.isView;
const objectPrototype = Object.prototype;
const arrayPrototype = Array.prototype;
const dateGetTime = Date.prototype.getTime;
const dateToISOString = Date.prototype.toISOString;
const regExpSource = getter(RegExp.prototype, 'source') as (this: RegExp) => string;
const regExpFlags = getter(RegExp.prototype, 'flags') as (this: RegExp) => string;
const arrayBufferByteLength = getter(ArrayBuffer.prototype, 'byteLength') as (this: object) => number;
// Stryker disable next-line ConditionalExpression: without SharedArrayBuffer no object is of that kind, so the getter is never called.
const sharedArrayBufferByteLength =
  typeof SharedArrayBuffer === 'function' ? getter(SharedArrayBuffer.prototype as object, 'byteLength') : undefined;
const dataViewBuffer = getter(DataView.prototype, 'buffer') as (this: DataView) => ArrayBuffer;
const dataViewByteOffset = getter(DataView.prototype, 'byteOffset') as (this: DataView) => number;
const dataViewByteLength = getter(DataView.prototype, 'byteLength') as (this: DataView) => number;
const mapEntries = Map.prototype.entries;
const setValues = Set.prototype.values;
const numberValueOf = Number.prototype.valueOf;
const stringValueOf = String.prototype.valueOf;
const booleanValueOf = Boolean.prototype.valueOf;
const bigIntValueOf = BigInt.prototype.valueOf;
const symbolValueOf = Symbol.prototype.valueOf;
const symbolDescription = getter(Symbol.prototype, 'description') as (this: symbol) => string | undefined;
const typedArrayTag = getter(getPrototypeOf(Uint8Array.prototype) as object, Symbol.toStringTag) as (
  this: unknown,
) => string | undefined;
/* eslint-enable @typescript-eslint/unbound-method */

/**
 * One walk over one value: the value budget left, whether the walk was cut, and the objects on the current path. Each
 * walk has its own, so a getter or `toJSON` that starts another walk mid-way cannot disturb this one.
 */
export class Walker {
  private remaining = MAX_VALUES - 1;
  private cut = false;
  private readonly ancestors: object[] = [];

  /**
   * Writes a value's canonical form (see `canonicalize` for the rules). Never throws.
   * @param value - anything
   * @returns the canonical form
   */
  write(value: unknown): string {
    if (typeof value !== 'object' || value === null) return this.writePrimitive(value);
    try {
      // Never throws: writeObject turns any failure inside it into a placeholder.
      return this.writeObject(value, 0, true);
    } finally {
      // Let go of the value, so a walker kept for later reads does not keep it alive.
      this.ancestors.length = 0;
    }
  }

  private writePrimitive(value: unknown): string {
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
        return value === UNREADABLE ? unreadablePlaceholder() : writeSymbol(value);
      case 'function':
        return writeFunction(value);
      default:
        return 'null';
    }
  }

  /** Writes one counted value: the place where the value budget is spent. */
  private writeCounted(value: unknown, depth: number): string {
    if (this.remaining === 0) {
      this.cut = true;
      return TRUNCATED_MARKER;
    }
    this.remaining--;
    return typeof value === 'object' && value !== null ? this.writeObject(value, depth, true) : this.writePrimitive(value);
  }

  private writeObject(value: object, depth: number, allowToJSON: boolean): string {
    if (depth >= MAX_DEPTH) return MAX_DEPTH_MARKER;
    const ancestors = this.ancestors;
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
          return this.writeProperties(value, objectKeys(value), depth);
        }
      } else if (prototype === arrayPrototype) {
        return this.writeList(value as ArrayLike<unknown>, depth);
      }
      // Stryker restore ConditionalExpression,LogicalOperator,BlockStatement
      return this.writeOther(value, prototype, depth, allowToJSON);
    } catch {
      return unreadablePlaceholder();
    }
  }

  /** The one property loop: members in the order the layout gives, each prefixed with its quoted key. */
  private writeProperties(target: object, keys: string[], depth: number): string {
    const layout = memberLayout(keys, depth);
    const sortedKeys = layout.keys;
    const prefixes = layout.prefixes;
    const childDepth = depth + 1;
    let out = '{';
    let separator = '';
    for (let index = 0; index < sortedKeys.length; index++) {
      // eslint-disable-next-line @typescript-eslint/non-nullable-type-assertion-style -- index < length; the strict config forbids `!`.
      const key = sortedKeys[index] as string;
      const item = readProperty(target, key);
      if (item === undefined) continue;
      out += separator + (prefixes[index] ?? jsonQuote(key) + ':') + this.writeCounted(item, childDepth);
      if (this.cut) return out;
      separator = ',';
    }
    return out + '}';
  }

  private writeList(list: ArrayLike<unknown>, depth: number): string {
    const length = list.length;
    if (length === 0) return '[]';
    const childDepth = depth + 1;
    let out = '[' + this.writeCounted(readProperty(list, 0), childDepth);
    for (let index = 1; index < length && !this.cut; index++) {
      out += ',' + this.writeCounted(readProperty(list, index), childDepth);
    }
    return this.cut ? out : out + ']';
  }

  /** Everything but plain objects and plain arrays: the built-ins with their own forms, then `toJSON`, then properties. */
  private writeOther(value: object, prototype: unknown, depth: number, allowToJSON: boolean): string {
    if (isArray(value)) return this.writeList(value, depth);
    const kind = builtinKind(value, prototype);
    if (kind === 'Date') {
      return Number.isNaN(dateGetTime.call(value)) ? 'Date(Invalid)' : 'Date("' + dateToISOString.call(value) + '")';
    }
    if (kind === 'Error') return 'Error' + this.writeProperties(value, errorKeys(value), depth);
    if (allowToJSON) {
      const toJSON: unknown = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') {
        const replacement: unknown = (toJSON as (this: object, key: string) => unknown).call(value, '');
        // Stryker disable next-line ConditionalExpression: a toJSON returning its own object is written without toJSON either way.
        if (replacement !== value) {
          if (typeof replacement !== 'object' || replacement === null) return this.writePrimitive(replacement);
          return this.writeObject(replacement, depth, false);
        }
      }
    }
    if (kind !== undefined) return this.writeBuiltin(value, kind, depth);
    if (isView(value)) {
      const tag = typedArrayTag.call(value);
      if (tag !== undefined) return tag + this.writeList(value as unknown as ArrayLike<unknown>, depth);
      const view = value as DataView;
      const bytes = new Uint8Array(dataViewBuffer.call(view), dataViewByteOffset.call(view), dataViewByteLength.call(view));
      return 'DataView' + this.writeList(bytes, depth);
    }
    return this.writeProperties(value, objectKeys(value), depth);
  }

  /** A built-in that `toJSON` does not take precedence over; each intrinsic used throws for an object posing as one. */
  private writeBuiltin(value: object, kind: BuiltinKind, depth: number): string {
    switch (kind) {
      case 'Map':
        return 'Map' + this.writeEntries(value as Map<unknown, unknown>, depth);
      case 'Set':
        return 'Set' + this.writeMembers(value as Set<unknown>, depth);
      case 'RegExp':
        return 'RegExp(' + jsonQuote(writeRegExp(value as RegExp)) + ')';
      case 'ArrayBuffer':
        arrayBufferByteLength.call(value);
        return 'ArrayBuffer' + this.writeList(new Uint8Array(value as ArrayBuffer), depth);
      case 'SharedArrayBuffer':
        (sharedArrayBufferByteLength as (this: object) => number).call(value);
        return 'SharedArrayBuffer' + this.writeList(new Uint8Array(value as SharedArrayBuffer), depth);
      case 'Number':
        return String(numberValueOf.call(value));
      case 'String':
        return jsonQuote(stringValueOf.call(value));
      case 'Boolean':
        return booleanValueOf.call(value) ? 'true' : 'false';
      case 'BigInt':
        return bigIntValueOf.call(value).toString() + 'n';
      default:
        return writeSymbol(symbolValueOf.call(value));
    }
  }

  private writeEntries(map: Map<unknown, unknown>, depth: number): string {
    const childDepth = depth + 1;
    const entries: string[] = [];
    // Stryker disable next-line StringLiteral: read only after a cut, which always sets it first.
    let partial = '';
    for (const [key, item] of mapEntries.call(map)) {
      let entry = this.writeCounted(key, childDepth);
      if (!this.cut) entry += ':' + this.writeCounted(item, childDepth);
      if (this.cut) {
        partial = entry;
        break;
      }
      entries.push(entry);
    }
    return this.closeSorted('{', entries, partial, '}');
  }

  private writeMembers(set: Set<unknown>, depth: number): string {
    const childDepth = depth + 1;
    const members: string[] = [];
    // Stryker disable next-line StringLiteral: read only after a cut, which always sets it first.
    let partial = '';
    for (const member of setValues.call(set)) {
      const text = this.writeCounted(member, childDepth);
      if (this.cut) {
        partial = text;
        break;
      }
      members.push(text);
    }
    return this.closeSorted('[', members, partial, ']');
  }

  /** Joins sorted entries; after a cut, the entry holding the marker goes last and the bracket stays open. */
  private closeSorted(open: string, entries: string[], partial: string, close: string): string {
    const body = sortKeys(entries).join(',');
    if (!this.cut) return open + body + close;
    return open + body + (entries.length > 0 ? ',' : '') + partial;
  }
}

function writeSymbol(value: symbol): string {
  const description = symbolDescription.call(value);
  return description === undefined ? 'Symbol()' : 'Symbol(' + jsonQuote(description) + ')';
}

/**
 * As `RegExp.prototype.toString` writes a regular expression, but reading the source through its getter, which throws
 * for anything but a regular expression (`RegExp.prototype` itself, the one exception, has no tag to be taken for one).
 */
function writeRegExp(value: RegExp): string {
  return '/' + regExpSource.call(value) + '/' + regExpFlags.call(value);
}

function writeFunction(value: unknown): string {
  const name = readProperty(value, 'name');
  if (name === UNREADABLE) return unreadablePlaceholder();
  return 'Function(' + jsonQuote(typeof name === 'string' ? name : '') + ')';
}


function readProperty(target: unknown, key: string | number): unknown {
  try {
    return (target as Record<string | number, unknown>)[key];
  } catch {
    return UNREADABLE;
  }
}

function errorKeys(error: object): string[] {
  const keys = objectKeys(error);
  if (!keys.includes('name')) keys.push('name');
  if (!keys.includes('message')) keys.push('message');
  if (hasOwn(error, 'cause') && !keys.includes('cause')) keys.push('cause');
  return keys;
}
