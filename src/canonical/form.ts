/**
 * Canonical forms: one deterministic text per value, so that equal values compare equal (see `canonicalize` for the
 * rules). A read walks one value with the state of that walk (budget, path, cut) held per call, so a getter or
 * `toJSON` that starts another read mid-way cannot disturb this one.
 */
import type { TextHash } from './hash.js';

/** Containers at this depth or deeper (the root is depth 0) are written as `[MaxDepth]`. */
export const MAX_DEPTH = 64;
/** At most this many values are written per value read; the next one becomes `[Truncated]`. */
export const MAX_VALUES = 200_000;
/** At most this many characters of text are read per value read. */
export const MAX_CHARACTERS = 16 * 1024 * 1024;
/** Strings longer than this are written as `#s<length>:<hash>` in every form, never escaped. */
export const LONG_STRING_LENGTH = 1024 * 1024;
/** In comparison keys of tool results and errors, and in `stableHash`, strings longer than this are hashed raw. */
export const RAW_STRING_LENGTH = 1024;
/** Bigints of more bits than this are written as `#n<bits>:<hash>`, never in decimal. */
export const MAX_BIGINT_BITS = 65_536;
/** One step's reads share this many values between them. */
export const STEP_VALUES = 2_000_000;
/** One step's reads share this many characters of text between them. */
export const STEP_CHARACTERS = 64 * 1024 * 1024;
/** Forms and strings up to this length are compared as they are; longer ones by length and hash. */
export const COMPARISON_KEY_LIMIT = 256;
export const MAX_DEPTH_MARKER = '[MaxDepth]';
export const TRUNCATED_MARKER = '[Truncated]';

/** The cut-offs of a read; tests shrink them to reach the cuts with small values. */
export interface ReadLimits {
  readonly maxDepth: number;
  readonly maxValues: number;
  readonly maxCharacters: number;
  readonly stepValues: number;
  readonly stepCharacters: number;
}

export const DEFAULT_LIMITS: ReadLimits = Object.freeze({
  maxDepth: MAX_DEPTH,
  maxValues: MAX_VALUES,
  maxCharacters: MAX_CHARACTERS,
  stepValues: STEP_VALUES,
  stepCharacters: STEP_CHARACTERS,
});

/** `#s<length>:<hash>`: a string too long to write out. No other form starts with `#` and a letter. */
export function stringToken(text: string, hash: TextHash): string {
  return `#s${text.length}:${hash(text)}`;
}

/** `#n<bits>:<hash>`: a bigint too long to write in decimal, converted in linear time through hexadecimal. */
export function bigIntToken(value: bigint, hash: TextHash): string {
  const digits = value.toString(16);
  const magnitude = value < 0n ? digits.slice(1) : digits;
  const bits = (magnitude.length - 1) * 4 + Number.parseInt(magnitude.charAt(0), 16).toString(2).length;
  return `#n${bits}:${hash(digits)}`;
}

/** A bigint fits in decimal when it has at most this many bits: below `2 ** MAX_BIGINT_BITS` in magnitude. */
export const BIGINT_BOUND = 1n << BigInt(MAX_BIGINT_BITS);

/** Where an unreadable value's placeholder starts; every placeholder is this, a number and `]`. */
export const UNREADABLE_PREFIX = '[Unreadable:';

/**
 * Numbers the placeholders of values whose reading threw, so that each is unequal to every other form. A guard
 * numbers them under the index of the step being read (`<step>.<n>`): every placeholder its saved state holds comes
 * from an earlier step, so a guard restored in another process never hands out one it already holds.
 */
export class UnreadableNumbering {
  readonly #prefix: string;
  #count: number;

  /**
   * @param prefix - what every number starts with: a guard's `<step index>.`
   * @param start - the first number
   */
  constructor(prefix: string, start = 0) {
    this.#prefix = prefix;
    this.#count = start;
  }

  next(): string {
    return `${UNREADABLE_PREFIX}${this.#prefix}${String(this.#count++)}]`;
  }
}

// `canonicalize` and `stableHash` have no run to number under: they count from a random start per copy of the
// library, so a placeholder they write is unlikely to be written again anywhere.
const PUBLIC_NUMBERING = new UnreadableNumbering('', Math.floor(Math.random() * 2 ** 48));

/** The key a form is compared by: itself when short, else `#<length>:<hash>` (no form starts with `#` and a digit). */
export function formKey(form: string, hash: TextHash): string {
  return form.length <= COMPARISON_KEY_LIMIT ? form : `#${form.length}:${hash(form)}`;
}

/** The key a string is compared by (tool names, texts): quoted when short, else its token. Never escapes a long one. */
export function stringKey(text: string, hash: TextHash): string {
  return text.length <= COMPARISON_KEY_LIMIT ? JSON.stringify(text) : stringToken(text, hash);
}

// Intrinsics captured once and always called with `.call`, so a value cannot redirect them by shadowing a method;
// each throws for an object that lacks the built-in's internal slot, so a value posing as a built-in is unreadable.
/* eslint-disable @typescript-eslint/unbound-method */
const getter = (target: object, key: PropertyKey): ((this: unknown) => unknown) =>
  Object.getOwnPropertyDescriptor(target, key)?.get as (this: unknown) => unknown;
const getPrototypeOf = Object.getPrototypeOf;
const objectKeys = Object.keys;
const isArray = Array.isArray;
const isView = ArrayBuffer.isView;
const objectToString = Object.prototype.toString;
const nativeIsError = (Error as { isError?: (value: unknown) => boolean }).isError;
const dateGetTime = Date.prototype.getTime;
const dateToISOString = Date.prototype.toISOString;
const regExpSource = getter(RegExp.prototype, 'source');
const regExpFlags = getter(RegExp.prototype, 'flags');
const byteLength = getter(ArrayBuffer.prototype, 'byteLength');
const sharedByteLength = typeof SharedArrayBuffer === 'function' ? getter(SharedArrayBuffer.prototype as object, 'byteLength') : byteLength;
const dataViewBuffer = getter(DataView.prototype, 'buffer') as (this: DataView) => ArrayBuffer;
const dataViewByteOffset = getter(DataView.prototype, 'byteOffset') as (this: DataView) => number;
const dataViewByteLength = getter(DataView.prototype, 'byteLength') as (this: DataView) => number;
const typedArrayTag = getter(getPrototypeOf(Uint8Array.prototype) as object, Symbol.toStringTag) as (this: unknown) => string | undefined;
const symbolDescription = getter(Symbol.prototype, 'description') as (this: symbol) => string | undefined;
const mapEntries = Map.prototype.entries;
const setValues = Set.prototype.values;
const UNWRAP = {
  Number: Number.prototype.valueOf,
  String: String.prototype.valueOf,
  Boolean: Boolean.prototype.valueOf,
  BigInt: BigInt.prototype.valueOf,
  Symbol: Symbol.prototype.valueOf,
} as const;
/* eslint-enable @typescript-eslint/unbound-method */

type BuiltinKind = 'Date' | 'Error' | 'Map' | 'Set' | 'RegExp' | 'ArrayBuffer' | 'SharedArrayBuffer' | keyof typeof UNWRAP;

const BUILTINS: readonly (readonly [BuiltinKind, { readonly prototype: object } | undefined])[] = [
  ['Date', Date],
  ['Map', Map],
  ['Set', Set],
  ['RegExp', RegExp],
  ['ArrayBuffer', ArrayBuffer],
  ['SharedArrayBuffer', typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer : undefined],
  ['Number', Number],
  ['String', String],
  ['Boolean', Boolean],
  ['BigInt', BigInt],
  ['Symbol', Symbol],
];
// This realm's built-ins by prototype; another realm's (node:vm, an iframe) by their `Object.prototype.toString` tag.
const kindByPrototype = new Map<unknown, BuiltinKind>();
const kindByTag = new Map<string, BuiltinKind>();
for (const [kind, constructor] of BUILTINS) {
  if (constructor === undefined) continue;
  kindByPrototype.set(constructor.prototype, kind);
  kindByTag.set(`[object ${kind}]`, kind);
}

/**
 * The built-in an object is, or claims to be. An `Error` is recognised by `Error.isError` where the engine has it;
 * elsewhere by the tag only an error's internal slot gives, unless a `Symbol.toStringTag` property speaks instead.
 */
function builtinKind(value: object, prototype: unknown): BuiltinKind | undefined {
  const local = kindByPrototype.get(prototype);
  if (local !== undefined) return local;
  if (nativeIsError?.(value) === true) return 'Error';
  const tag = objectToString.call(value);
  if (tag === '[object Error]') {
    return nativeIsError === undefined && typeof (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] !== 'string' ? 'Error' : undefined;
  }
  return kindByTag.get(tag);
}

// Stands for a property whose reading threw, until it is written; never leaves this module.
const UNREADABLE: unique symbol = Symbol('unreadable');

function readProperty(target: unknown, key: string | number): unknown {
  try {
    return (target as Record<string | number, unknown>)[key];
  } catch {
    return UNREADABLE;
  }
}

/** What one read left of a step's budget, and whether it was cut. */
export interface Budget {
  values: number;
  characters: number;
}

/** The state of one read. */
class Walk {
  readonly #limits: ReadLimits;
  readonly #hash: TextHash;
  readonly #tokenFrom: number;
  readonly #unreadable: UnreadableNumbering;
  readonly #ancestors: object[] = [];
  values: number;
  /** Characters this read may still spend: a long string counts {@link LONG_STRING_LENGTH} of them. */
  characters: number;
  /** Characters the step has left: every string counts its full length, as hashing it reads all of it. */
  stepCharacters: number;
  cut = false;
  /** The last cut was for want of characters rather than values. */
  cutForCharacters = false;
  /** The last cut for want of characters was the step's budget running out, not this read's. */
  cutByStep = false;

  constructor(limits: ReadLimits, hash: TextHash, tokenFrom: number, step: Budget, unreadable: UnreadableNumbering) {
    this.#limits = limits;
    this.#unreadable = unreadable;
    this.#hash = hash;
    this.#tokenFrom = tokenFrom;
    this.values = Math.min(limits.maxValues, step.values);
    this.characters = limits.maxCharacters;
    this.stepCharacters = step.characters;
  }

  #quote(text: string): string {
    return text.length <= this.#tokenFrom ? JSON.stringify(text) : stringToken(text, this.#hash);
  }

  /**
   * Spends the characters of a text, or cuts the read: against this read, a long string counts as
   * {@link LONG_STRING_LENGTH}, so one value can hold a string of any length; against the step, its whole length, so a
   * string shared by many calls costs each of them what hashing it again costs.
   */
  #afford(length: number): boolean {
    const cost = Math.min(length, LONG_STRING_LENGTH);
    if (cost <= this.characters && length <= this.stepCharacters) {
      this.characters -= cost;
      this.stepCharacters -= length;
      return true;
    }
    this.cut = true;
    this.cutForCharacters = true;
    this.cutByStep = length > this.stepCharacters;
    return false;
  }

  /** Writes one counted value: where the value budget is spent. */
  write(value: unknown, depth: number): string {
    if (this.values === 0) {
      this.cut = true;
      this.cutForCharacters = false;
      return TRUNCATED_MARKER;
    }
    this.values--;
    return typeof value === 'object' && value !== null ? this.#writeObject(value, depth, true) : this.#writePrimitive(value);
  }

  #writePrimitive(value: unknown): string {
    switch (typeof value) {
      case 'string':
        return this.#afford(value.length) ? this.#quote(value) : TRUNCATED_MARKER;
      case 'number':
        // As JSON writes finite numbers (-0 as 0), and NaN, Infinity, -Infinity by name.
        return String(value);
      case 'boolean':
        return String(value);
      case 'undefined':
        return 'undefined';
      case 'bigint':
        return this.#writeBigInt(value);
      case 'symbol':
        return value === UNREADABLE ? this.#unreadable.next() : this.#writeSymbol(value);
      case 'function': {
        const name = readProperty(value, 'name');
        if (name === UNREADABLE) return this.#unreadable.next();
        const text = typeof name === 'string' ? name : '';
        return this.#afford(text.length) ? `Function(${this.#quote(text)})` : TRUNCATED_MARKER;
      }
      default:
        return 'null';
    }
  }

  #writeBigInt(value: bigint): string {
    if (value < BIGINT_BOUND && value > -BIGINT_BOUND) {
      const digits = value.toString();
      return this.#afford(digits.length) ? `${digits}n` : TRUNCATED_MARKER;
    }
    // Costs as much as its decimal digits at the limit would: converting and hashing it is linear in its length.
    return this.#afford(MAX_BIGINT_BITS / 4) ? bigIntToken(value, this.#hash) : TRUNCATED_MARKER;
  }

  #writeSymbol(value: symbol): string {
    const description = symbolDescription.call(value);
    if (description === undefined) return 'Symbol()';
    return this.#afford(description.length) ? `Symbol(${this.#quote(description)})` : TRUNCATED_MARKER;
  }

  #writeObject(value: object, depth: number, allowToJSON: boolean): string {
    if (depth >= this.#limits.maxDepth) return MAX_DEPTH_MARKER;
    const ancestors = this.#ancestors;
    for (let index = 0; index < depth; index++) {
      if (ancestors[index] === value) return `[Circular:${index}]`;
    }
    ancestors[depth] = value;
    try {
      return this.#writeContents(value, depth, allowToJSON);
    } catch {
      return this.#unreadable.next();
    }
  }

  #writeContents(value: object, depth: number, allowToJSON: boolean): string {
    const prototype: unknown = getPrototypeOf(value);
    if (isArray(value)) return this.#writeList(value, depth);
    const plain = prototype === Object.prototype || prototype === null;
    const kind = plain ? undefined : builtinKind(value, prototype);
    if (kind === 'Date') return Number.isNaN(dateGetTime.call(value)) ? 'Date(Invalid)' : `Date("${dateToISOString.call(value)}")`;
    if (kind === 'Error') return `Error${this.#writeProperties(value, errorKeys(value), depth)}`;
    if (allowToJSON) {
      const toJSON: unknown = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') {
        const replacement: unknown = (toJSON as (this: object, key: string) => unknown).call(value, '');
        if (replacement !== value) {
          if (typeof replacement !== 'object' || replacement === null) return this.#writePrimitive(replacement);
          return this.#writeObject(replacement, depth, false);
        }
      }
    }
    if (kind !== undefined) return this.#writeBuiltin(value, kind, depth);
    if (!plain && isView(value)) {
      const tag = typedArrayTag.call(value);
      if (tag !== undefined) return tag + this.#writeList(value as unknown as ArrayLike<unknown>, depth);
      const view = value as DataView;
      return `DataView${this.#writeList(new Uint8Array(dataViewBuffer.call(view), dataViewByteOffset.call(view), dataViewByteLength.call(view)), depth)}`;
    }
    return this.#writeProperties(value, objectKeys(value), depth);
  }

  #writeProperties(target: object, keys: string[], depth: number): string {
    let out = '{';
    let separator = '';
    for (const key of keys.sort()) {
      const item = readProperty(target, key);
      if (item === undefined) continue;
      if (!this.#afford(key.length)) return out + separator + TRUNCATED_MARKER;
      out += `${separator}${this.#quote(key)}:${this.write(item, depth + 1)}`;
      if (this.cut) return out;
      separator = ',';
    }
    return `${out}}`;
  }

  #writeList(list: ArrayLike<unknown>, depth: number): string {
    const length = list.length;
    if (length === 0) return '[]';
    let out = `[${this.write(readProperty(list, 0), depth + 1)}`;
    for (let index = 1; index < length && !this.cut; index++) out += `,${this.write(readProperty(list, index), depth + 1)}`;
    return this.cut ? out : `${out}]`;
  }

  #writeBuiltin(value: object, kind: Exclude<BuiltinKind, 'Date' | 'Error'>, depth: number): string {
    switch (kind) {
      case 'Map':
        return this.#writeSorted('Map{', '}', mapEntries.call(value as Map<unknown, unknown>), (entry) => {
          const [key, item] = entry as [unknown, unknown];
          const written = this.write(key, depth + 1);
          return this.cut ? written : `${written}:${this.write(item, depth + 1)}`;
        });
      case 'Set':
        return this.#writeSorted('Set[', ']', setValues.call(value as Set<unknown>), (member) => this.write(member, depth + 1));
      case 'RegExp': {
        const text = `/${regExpSource.call(value) as string}/${regExpFlags.call(value) as string}`;
        return this.#afford(text.length) ? `RegExp(${this.#quote(text)})` : TRUNCATED_MARKER;
      }
      case 'ArrayBuffer':
      case 'SharedArrayBuffer':
        // Reading the length through the getter throws for an object posing as a buffer.
        (kind === 'ArrayBuffer' ? byteLength : sharedByteLength).call(value);
        return kind + this.#writeList(new Uint8Array(value as ArrayBuffer), depth);
      case 'Symbol':
        return this.#writeSymbol(UNWRAP.Symbol.call(value));
      default:
        // A boxed number, string, boolean or bigint is written as the primitive it wraps.
        return this.#writePrimitive((UNWRAP[kind] as (this: unknown) => unknown).call(value));
    }
  }

  /**
   * Entries of a `Map` or members of a `Set`, sorted by their text. Cut short, those written whole come sorted, then
   * the one holding the marker, and the bracket stays open.
   */
  #writeSorted(open: string, close: string, items: Iterable<unknown>, writeItem: (item: unknown) => string): string {
    const written: string[] = [];
    for (const item of items) {
      const text = writeItem(item);
      if (this.cut) return open + written.sort().join(',') + (written.length > 0 ? ',' : '') + text;
      written.push(text);
    }
    return open + written.sort().join(',') + close;
  }
}

/** An error's own enumerable keys, with its `name`, `message` and own `cause`. */
function errorKeys(error: object): string[] {
  const keys = objectKeys(error);
  for (const key of ['name', 'message']) if (!keys.includes(key)) keys.push(key);
  if (Object.hasOwn(error, 'cause') && !keys.includes('cause')) keys.push('cause');
  return keys;
}

/** A read's form, and how it ended. */
export interface Reading {
  readonly form: string;
  /** A budget ran out during the read: the form ends with `[Truncated]`. */
  readonly cut: boolean;
  /** It ran out because the step had less left than one value may spend. */
  readonly stepSpent: boolean;
}

/**
 * Reads one value into its canonical form, spending from a step's budget. Never throws.
 * @param value - anything
 * @param hash - the hash in tokens: the public one, or a guard's keyed one
 * @param tokenFrom - strings longer than this are written as tokens
 * @param step - what the step has left to spend, changed in place; a fresh budget when absent
 * @param limits - the cut-offs
 * @param unreadable - numbers the placeholders of values whose reading threw; the public numbering when absent
 */
export function readForm(
  value: unknown,
  hash: TextHash,
  tokenFrom: number,
  step?: Budget,
  limits: ReadLimits = DEFAULT_LIMITS,
  unreadable: UnreadableNumbering = PUBLIC_NUMBERING,
): Reading {
  const budget = step ?? { values: limits.stepValues, characters: limits.stepCharacters };
  const walk = new Walk(limits, hash, tokenFrom, budget, unreadable);
  const valuesBefore = walk.values;
  const charactersBefore = walk.stepCharacters;
  let form: string;
  try {
    form = walk.write(value, 0);
  } catch {
    // Nothing in a read is known to throw; this keeps a read from ever doing so.
    form = unreadable.next();
  }
  budget.values -= valuesBefore - walk.values;
  budget.characters -= charactersBefore - walk.stepCharacters;
  const stepSpent = walk.cut && (walk.cutForCharacters ? walk.cutByStep : valuesBefore < limits.maxValues);
  return { form, cut: walk.cut, stepSpent };
}
