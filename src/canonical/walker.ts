/* eslint-disable @typescript-eslint/non-nullable-type-assertion-style --
   Indices stay below the arrays' lengths. The strict config forbids `!`; a cast says it. */
import { type BuiltinKind, builtinKind } from './brand.js';
import { jsonQuote } from './json-quote.js';
import { type ReadLimits, MAX_DEPTH_MARKER, TRUNCATED_MARKER } from './limits.js';
import { memberLayout } from './member-layout.js';
import { sortKeys } from './sort-keys.js';
import type { TextHash } from './text-hash.js';
import { RecentTokens, bigIntBound, bigIntToken, stringToken } from './tokens.js';
import { unreadablePlaceholder } from './unreadable.js';

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

/** A form written before, with what writing it cost, so writing it again can spend the same. */
interface Remembered {
  readonly form: string;
  readonly values: number;
  readonly characters: number;
  /** How many levels below the object its deepest container sits. */
  readonly height: number;
}

// Objects whose form cost less than this are written again rather than remembered: remembering costs more.
const REMEMBER_FROM_VALUES = 16;
const REMEMBER_FROM_CHARACTERS = 1024;

/**
 * Reads values into canonical forms (see `canonicalize` for the rules) against one budget: each read may spend up to
 * the per-value limits, and all reads together up to the step limits. The state of a read (what is left of the budget,
 * whether it was cut, the objects on the current path) lives here, so a getter or `toJSON` that starts another read
 * mid-way, on its own walker, cannot disturb this one.
 *
 * An object met again by the same walker is written from memory instead of walked again, spending the budget its first
 * walk spent, where that gives exactly the form a new walk would: only forms without a cycle marker, a depth cut, a
 * truncation or an unreadable value are remembered (they do not depend on where the object sits), only where the
 * budget left covers them, and only where the depth left leaves their deepest container uncut. Values are taken not to
 * change while a walker reads them: getters and `toJSON` of a remembered object are not called again.
 */
export class Walker {
  readonly #limits: ReadLimits;
  readonly #hash: TextHash;
  readonly #remembers: boolean;
  readonly #longStringLength: number;
  #stepValues: number;
  #stepCharacters: number;
  #values = 0;
  #characters = 0;
  #cut = false;
  #tokenFrom = 0;
  /** Marks written that tie a form to its place: cycles, depth cuts, unreadable values. */
  #marks = 0;
  #deepest = 0;
  #ancestors: object[] = [];
  #memo: Map<object, Remembered> | undefined;
  // Made when first needed: most reads remember no form and meet no long string, and a walker is made per call.
  #memos: Map<number, Map<object, Remembered>> | undefined;
  #recentTokens: RecentTokens | undefined;
  /** Whether the last cut was for want of characters rather than values. */
  #cutForCharacters = false;
  /** How many reads were cut short by a budget. */
  truncatedReads = 0;
  /** Whether a read was cut short because the step had less left than one value may spend. */
  stepBudgetSpent = false;
  /**
   * The keys of the object the last read wrote at its top, in the order written, when it wrote them member by member:
   * a plain object, a class instance, an error's members, what `toJSON` returned. `undefined` when the top was
   * anything else or was written from memory. A key of the form's top level is one of these (or, when the read was
   * cut, of those before the cut), so a reader looking for a top-level key can rule it out without scanning the form.
   */
  topKeys: readonly string[] | undefined = undefined;

  /**
   * @param limits - the cut-offs
   * @param hash - the hash in tokens: the public one, or a guard's keyed one
   * @param remembers - whether forms are remembered; `false` only to show that remembering changes no form
   */
  constructor(limits: ReadLimits, hash: TextHash, remembers = true) {
    this.#limits = limits;
    this.#hash = hash;
    this.#remembers = remembers;
    this.#longStringLength = limits.longStringLength;
    this.#stepValues = limits.stepValues;
    this.#stepCharacters = limits.stepCharacters;
  }

  /**
   * Writes one value's form, spending from the step's budget. Never throws.
   * @param value - anything
   * @param tokenFrom - strings longer than this are written as tokens
   * @returns the form
   */
  read(value: unknown, tokenFrom: number): string {
    this.#start(tokenFrom);
    const values = this.#values;
    const characters = this.#characters;
    let form: string;
    try {
      form = this.#writeCounted(value, 0);
    } catch {
      // Nothing in a read is known to throw; this is the last line that keeps a read from ever doing so.
      form = this.#unreadable();
    } finally {
      // Let go of the value, so a walker kept for later reads does not keep it alive. A new array, because truncating
      // this one is a call into the engine's runtime: about 27 ns a read, a tenth of reading small arguments.
      this.#ancestors = [];
    }
    this.#stepValues -= values - this.#values;
    this.#stepCharacters -= characters - this.#characters;
    if (this.#cut) {
      this.truncatedReads++;
      const stepLimited = this.#cutForCharacters ? characters < this.#limits.maxCharacters : values < this.#limits.maxValues;
      if (stepLimited) this.stepBudgetSpent = true;
    }
    return form;
  }

  /** Sets up a read: its budget, the smaller of the per-value limits and what the step has left. */
  #start(tokenFrom: number): void {
    this.#values = Math.min(this.#limits.maxValues, this.#stepValues);
    this.#characters = Math.min(this.#limits.maxCharacters, this.#stepCharacters);
    this.#cut = false;
    this.topKeys = undefined;
    this.#tokenFrom = tokenFrom;
    this.#memo = this.#memos?.get(tokenFrom);
  }

  /**
   * Writes a string as it appears in forms of this read: quoted, or as a token when longer than the read allows.
   * Spends nothing.
   * @param text - the string
   * @returns its form
   */
  quote(text: string): string {
    if (text.length <= this.#tokenFrom) return jsonQuote(text);
    const recentTokens = (this.#recentTokens ??= new RecentTokens());
    let token = recentTokens.find(text);
    if (token === undefined) {
      token = stringToken(text, this.#hash);
      recentTokens.remember(text, token);
    }
    return token;
  }

  #unreadable(): string {
    this.#marks++;
    return unreadablePlaceholder();
  }

  /** Ends the read: the value about to be written is replaced by the marker, and nothing follows it. */
  #truncate(): string {
    this.#cut = true;
    this.#cutForCharacters = false;
    return TRUNCATED_MARKER;
  }

  /** Spends the characters of a text, or cuts the read when they are not left. */
  #afford(length: number): boolean {
    const cost = length < this.#longStringLength ? length : this.#longStringLength;
    if (cost > this.#characters) {
      this.#cut = true;
      this.#cutForCharacters = true;
      return false;
    }
    this.#characters -= cost;
    return true;
  }

  /** Writes one counted value: the place where the value budget is spent. */
  #writeCounted(value: unknown, depth: number): string {
    if (this.#values === 0) return this.#truncate();
    this.#values--;
    return typeof value === 'object' && value !== null ? this.#writeObject(value, depth, true) : this.#writePrimitive(value);
  }

  #writePrimitive(value: unknown): string {
    switch (typeof value) {
      case 'string':
        return this.#writeString(value);
      case 'number':
        // As JSON writes finite numbers (-0 as 0), and NaN, Infinity, -Infinity by name.
        return String(value);
      case 'boolean':
        return value ? 'true' : 'false';
      case 'undefined':
        return 'undefined';
      case 'bigint':
        return this.#writeBigInt(value);
      case 'symbol':
        return value === UNREADABLE ? this.#unreadable() : this.#writeSymbol(value);
      case 'function':
        return this.#writeFunction(value);
      default:
        return 'null';
    }
  }

  #writeString(text: string): string {
    return this.#afford(text.length) ? this.quote(text) : TRUNCATED_MARKER;
  }

  #writeBigInt(value: bigint): string {
    const bound = bigIntBound(this.#limits.maxBigIntBits);
    if (value < bound && value > -bound) {
      const digits = value.toString();
      return this.#afford(digits.length) ? digits + 'n' : TRUNCATED_MARKER;
    }
    // Costs as much as its decimal digits at the limit would: converting and hashing it is linear in its length.
    if (!this.#afford(this.#limits.maxBigIntBits / 4)) return TRUNCATED_MARKER;
    const recentTokens = (this.#recentTokens ??= new RecentTokens());
    let token = recentTokens.find(value);
    if (token === undefined) {
      token = bigIntToken(value, this.#hash);
      recentTokens.remember(value, token);
    }
    return token;
  }

  #writeSymbol(value: symbol): string {
    const description = symbolDescription.call(value);
    if (description === undefined) return 'Symbol()';
    return this.#afford(description.length) ? 'Symbol(' + this.quote(description) + ')' : TRUNCATED_MARKER;
  }

  #writeFunction(value: unknown): string {
    const name = readProperty(value, 'name');
    if (name === UNREADABLE) return this.#unreadable();
    const text = typeof name === 'string' ? name : '';
    return this.#afford(text.length) ? 'Function(' + this.quote(text) + ')' : TRUNCATED_MARKER;
  }

  #writeObject(value: object, depth: number, allowToJSON: boolean): string {
    const maxDepth = this.#limits.maxDepth;
    if (depth >= maxDepth) {
      this.#marks++;
      return MAX_DEPTH_MARKER;
    }
    const ancestors = this.#ancestors;
    for (let index = 0; index < depth; index++) {
      if (ancestors[index] === value) {
        this.#marks++;
        return '[Circular:' + String(index) + ']';
      }
    }
    const memo = this.#memo;
    if (memo !== undefined && allowToJSON) {
      const remembered = memo.get(value);
      if (remembered !== undefined && this.#fits(remembered, depth)) return remembered.form;
    }
    ancestors[depth] = value;
    const values = this.#values;
    const characters = this.#characters;
    const marks = this.#marks;
    const outerDeepest = this.#deepest;
    this.#deepest = depth;
    let form: string;
    try {
      form = this.#writeContents(value, depth, allowToJSON);
    } catch {
      form = this.#unreadable();
    }
    if (!this.#cut && this.#marks === marks && allowToJSON) this.#remember(value, form, values, characters, depth);
    if (outerDeepest > this.#deepest) this.#deepest = outerDeepest;
    return form;
  }

  /** Whether a remembered form is what a new walk here would write; if so, spends what that walk would spend. */
  #fits(remembered: Remembered, depth: number): boolean {
    const deepest = depth + remembered.height;
    if (deepest >= this.#limits.maxDepth || remembered.values > this.#values || remembered.characters > this.#characters) {
      return false;
    }
    this.#values -= remembered.values;
    this.#characters -= remembered.characters;
    if (deepest > this.#deepest) this.#deepest = deepest;
    return true;
  }

  /** Remembers a form that is worth it, given the budget left when its object's walk began. */
  #remember(value: object, form: string, valuesBefore: number, charactersBefore: number, depth: number): void {
    const values = valuesBefore - this.#values;
    const characters = charactersBefore - this.#characters;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator: which forms are remembered only changes speed; a remembered form is the form.
    if (!this.#remembers || (values < REMEMBER_FROM_VALUES && characters < REMEMBER_FROM_CHARACTERS)) return;
    let memo = this.#memo;
    if (memo === undefined) {
      memo = new Map();
      (this.#memos ??= new Map()).set(this.#tokenFrom, memo);
      this.#memo = memo;
    }
    memo.set(value, { form, values, characters, height: this.#deepest - depth });
  }

  #writeContents(value: object, depth: number, allowToJSON: boolean): string {
    const prototype: unknown = getPrototypeOf(value);
    // Stryker disable ConditionalExpression,LogicalOperator,BlockStatement: fast paths for plain objects and arrays;
    // writeOther writes both to the same text, only slower.
    if (prototype === objectPrototype || prototype === null) {
      if (!allowToJSON || typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
        return this.#writeProperties(value, objectKeys(value), depth);
      }
    } else if (prototype === arrayPrototype) {
      return this.#writeList(value as ArrayLike<unknown>, depth);
    }
    // Stryker restore ConditionalExpression,LogicalOperator,BlockStatement
    return this.#writeOther(value, prototype, depth, allowToJSON);
  }

  /** The one property loop: members in the order the layout gives, each prefixed with its quoted key. */
  #writeProperties(target: object, keys: string[], depth: number): string {
    const layout = memberLayout(keys, depth);
    const sortedKeys = layout.keys;
    const prefixes = layout.prefixes;
    const childDepth = depth + 1;
    if (depth === 0) this.topKeys = sortedKeys;
    let out = '{';
    let separator = '';
    for (let index = 0; index < sortedKeys.length; index++) {
      const key = sortedKeys[index] as string;
      const item = readProperty(target, key);
      if (item === undefined) continue;
      if (!this.#afford(key.length)) return out + separator + TRUNCATED_MARKER;
      const prefix = key.length <= this.#tokenFrom ? (prefixes[index] ?? jsonQuote(key) + ':') : this.quote(key) + ':';
      out += separator + prefix + this.#writeCounted(item, childDepth);
      if (this.#cut) return out;
      separator = ',';
    }
    return out + '}';
  }

  #writeList(list: ArrayLike<unknown>, depth: number): string {
    const length = list.length;
    if (length === 0) return '[]';
    const childDepth = depth + 1;
    let out = '[' + this.#writeCounted(readProperty(list, 0), childDepth);
    for (let index = 1; index < length && !this.#cut; index++) {
      out += ',' + this.#writeCounted(readProperty(list, index), childDepth);
    }
    return this.#cut ? out : out + ']';
  }

  /** Everything but plain objects and plain arrays: the built-ins with their own forms, then `toJSON`, then properties. */
  #writeOther(value: object, prototype: unknown, depth: number, allowToJSON: boolean): string {
    if (isArray(value)) return this.#writeList(value, depth);
    const kind = builtinKind(value, prototype);
    if (kind === 'Date') {
      return Number.isNaN(dateGetTime.call(value)) ? 'Date(Invalid)' : 'Date("' + dateToISOString.call(value) + '")';
    }
    if (kind === 'Error') return 'Error' + this.#writeProperties(value, errorKeys(value), depth);
    if (allowToJSON) {
      const toJSON: unknown = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') {
        const replacement: unknown = (toJSON as (this: object, key: string) => unknown).call(value, '');
        // Stryker disable next-line ConditionalExpression: a toJSON returning its own object is written without toJSON either way.
        if (replacement !== value) {
          if (typeof replacement !== 'object' || replacement === null) return this.#writePrimitive(replacement);
          return this.#writeObject(replacement, depth, false);
        }
      }
    }
    if (kind !== undefined) return this.#writeBuiltin(value, kind, depth);
    if (isView(value)) {
      const tag = typedArrayTag.call(value);
      if (tag !== undefined) return tag + this.#writeList(value as unknown as ArrayLike<unknown>, depth);
      const view = value as DataView;
      const bytes = new Uint8Array(dataViewBuffer.call(view), dataViewByteOffset.call(view), dataViewByteLength.call(view));
      return 'DataView' + this.#writeList(bytes, depth);
    }
    return this.#writeProperties(value, objectKeys(value), depth);
  }

  /** A built-in that `toJSON` does not take precedence over; each intrinsic used throws for an object posing as one. */
  #writeBuiltin(value: object, kind: BuiltinKind, depth: number): string {
    switch (kind) {
      case 'Map':
        return this.#writeEntries(value as Map<unknown, unknown>, depth);
      case 'Set':
        return this.#writeMembers(value as Set<unknown>, depth);
      case 'RegExp': {
        const text = writeRegExp(value as RegExp);
        return this.#afford(text.length) ? 'RegExp(' + this.quote(text) + ')' : TRUNCATED_MARKER;
      }
      case 'ArrayBuffer':
        arrayBufferByteLength.call(value);
        return 'ArrayBuffer' + this.#writeList(new Uint8Array(value as ArrayBuffer), depth);
      case 'SharedArrayBuffer':
        (sharedArrayBufferByteLength as (this: object) => number).call(value);
        return 'SharedArrayBuffer' + this.#writeList(new Uint8Array(value as SharedArrayBuffer), depth);
      case 'Number':
        return String(numberValueOf.call(value));
      case 'String':
        return this.#writeString(stringValueOf.call(value));
      case 'Boolean':
        return booleanValueOf.call(value) ? 'true' : 'false';
      case 'BigInt':
        return this.#writeBigInt(bigIntValueOf.call(value));
      default:
        return this.#writeSymbol(symbolValueOf.call(value));
    }
  }

  #writeEntries(map: Map<unknown, unknown>, depth: number): string {
    const childDepth = depth + 1;
    const entries: string[] = [];
    for (const [key, item] of mapEntries.call(map)) {
      let entry = this.#writeCounted(key, childDepth);
      if (!this.#cut) entry += ':' + this.#writeCounted(item, childDepth);
      if (this.#cut) return cutSorted('Map{', entries, entry);
      entries.push(entry);
    }
    return 'Map{' + sortKeys(entries).join(',') + '}';
  }

  #writeMembers(set: Set<unknown>, depth: number): string {
    const childDepth = depth + 1;
    const members: string[] = [];
    for (const member of setValues.call(set)) {
      const text = this.#writeCounted(member, childDepth);
      if (this.#cut) return cutSorted('Set[', members, text);
      members.push(text);
    }
    return 'Set[' + sortKeys(members).join(',') + ']';
  }
}

/**
 * The entries of a `Map` or `Set` cut short: those written whole, sorted, then the one holding the marker, and the
 * bracket left open.
 */
function cutSorted(open: string, entries: string[], partial: string): string {
  return open + sortKeys(entries).join(',') + (entries.length > 0 ? ',' : '') + partial;
}

/**
 * As `RegExp.prototype.toString` writes a regular expression, but reading the source through its getter, which throws
 * for anything but a regular expression (`RegExp.prototype` itself, the one exception, has no tag to be taken for one).
 */
function writeRegExp(value: RegExp): string {
  return '/' + regExpSource.call(value) + '/' + regExpFlags.call(value);
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
