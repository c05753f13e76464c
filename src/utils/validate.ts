/**
 * The checks behind the two kinds of `TypeError` the guard raises for its caller's mistakes: an option that does not
 * fit, and a snapshot field that does not fit. Each names the path of the value and what it should be.
 */
import { isFiniteNumber, isSafeInteger } from './read.js';

/** A short description of a value for an error message: strings quoted (and shortened), containers by kind. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return value.length > 60 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  if (typeof value === 'function') return 'a function';
  let isArray = false;
  try {
    isArray = Array.isArray(value);
  } catch {
    // A revoked proxy can no longer be told from an ordinary object.
  }
  return isArray ? 'an array' : `a value of type ${typeof value}`;
}

/** Throws the error a function raises when its caller passed something it cannot take: what it takes, and what came. */
export function argumentError(takes: string, value: unknown): never {
  throw new TypeError(`agent-loopguard: ${takes}, got ${describeValue(value)}.`);
}

/** Whether a value is an object a function can read fields of: not `null`, not a primitive, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  try {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Throws the one kind of error invalid options raise. */
export function optionError(path: string, expected: string, value: unknown): never {
  throw new TypeError(`agent-loopguard: option "${path}" must be ${expected}, got ${describeValue(value)}.`);
}

/**
 * A plain object whose keys are all known, copied into a record without a prototype: only its own properties are
 * read, so an option inherited from a polluted `Object.prototype` is never applied.
 */
export function expectObject(path: string, value: unknown, known: readonly string[]): Record<string, unknown> {
  let keys: string[] | undefined;
  try {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) keys = Object.keys(value);
  } catch {
    // A revoked proxy, or an `ownKeys` trap that throws: not an object that can be read.
  }
  if (keys === undefined) optionError(path === '' ? 'options' : path, 'an object', value);
  const record = Object.create(null) as Record<string, unknown>;
  for (const key of keys) {
    const keyPath = path === '' ? key : `${path}.${key}`;
    if (!known.includes(key)) throw new TypeError(`agent-loopguard: unknown option "${keyPath}" (known: ${known.join(', ')}).`);
    try {
      record[key] = (value as Record<string, unknown>)[key];
    } catch {
      throw new TypeError(`agent-loopguard: option "${keyPath}" could not be read: reading it threw.`);
    }
  }
  return record;
}

/** An integer from `min` to `max`, or `fallback` when absent. Integers past 2^53 - 1 cannot be counted to exactly. */
export function integerOption(path: string, value: unknown, min: number, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!isSafeInteger(value) || value < min || value > max) {
    optionError(path, max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`, value);
  }
  return value;
}

/** The items of an array option, at most `maxItems`, copied, so freezing never touches the caller's array. */
export function listOption(path: string, value: unknown, maxItems: number, expected: string): unknown[] {
  let length: unknown;
  try {
    if (Array.isArray(value)) length = (value as unknown[]).length;
  } catch {
    // A revoked proxy: reported below as not an array.
  }
  if (typeof length !== 'number') optionError(path, expected, value);
  if (length > maxItems) optionError(path, `${expected} of at most ${maxItems} items`, value);
  return Array.from(value as unknown[]);
}

/** A boolean, or `fallback` when absent. */
export function booleanOption(path: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') optionError(path, 'true or false', value);
  return value;
}

/** A finite number greater than 0. */
export function positiveNumber(path: string, value: unknown): number {
  if (!isFiniteNumber(value) || value <= 0) optionError(path, 'a finite number greater than 0', value);
  return value;
}

/** A warning ratio: greater than 0 and at most 1. */
export function ratioOption(path: string, value: unknown): number {
  if (typeof value !== 'number' || !(value > 0 && value <= 1)) optionError(path, 'a number greater than 0 and at most 1', value);
  return value;
}

/** Why a value read from a snapshot does not fit: the one kind of error a refused snapshot raises. */
export function savedError(path: string, expected: string, value: unknown): never {
  refusedField(path, expected, describeValue(value));
}

/** The error of {@link savedError}, for a field described rather than shown: one that could not be read as a value. */
function refusedField(path: string, expected: string, got: string): never {
  throw new TypeError(`agent-loopguard: snapshot field "${path}" must be ${expected}, got ${got}.`);
}

/**
 * A check of one value read back from a snapshot: the value as its type, or a `TypeError` naming `path` and what it
 * should have been. Checks compose (`record`, `list`, `nullable`), so a detector's saved state is checked by a
 * declaration of its shape.
 */
export type Check<Value> = (value: unknown, path: string) => Value;

/** An object's own properties, or an error naming `path`. */
export function savedObject(value: unknown, path: string): Readonly<Record<string, unknown>> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) savedError(path, 'an object', value);
  return value as Record<string, unknown>;
}

/** An array of at most `maxItems` items, or an error naming `path`. */
export function savedArray(value: unknown, path: string, maxItems = Number.MAX_SAFE_INTEGER): readonly unknown[] {
  if (!Array.isArray(value)) savedError(path, 'an array', value);
  if (value.length > maxItems) savedError(path, `an array of at most ${maxItems} items`, value);
  return value as unknown[];
}

/** An integer from `min` to `max`. */
export function integer(min = 0, max = Number.MAX_SAFE_INTEGER): Check<number> {
  return (value, path) => {
    if (!isSafeInteger(value) || value < min || value > max) savedError(path, `an integer from ${min} to ${max}`, value);
    return value;
  };
}

/** A finite number. */
export const finite: Check<number> = (value, path) => {
  if (!isFiniteNumber(value)) savedError(path, 'a finite number', value);
  return value;
};

/** A finite number of at least 0: a total. */
export const amount: Check<number> = (value, path) => {
  if (!isFiniteNumber(value) || value < 0) savedError(path, 'a finite number of at least 0', value);
  return value;
};

/** A string. */
export const text: Check<string> = (value, path) => {
  if (typeof value !== 'string') savedError(path, 'a string', value);
  return value;
};

/** A boolean. */
export const flag: Check<boolean> = (value, path) => {
  if (typeof value !== 'boolean') savedError(path, 'true or false', value);
  return value;
};

/** `null`, or what `check` accepts: how a snapshot writes "nothing yet". */
export function nullable<Value>(check: Check<Value>): Check<Value | null> {
  return (value, path) => (value === null ? null : check(value, path));
}

/** An array of at most `maxItems` items, each checked. */
export function list<Value>(check: Check<Value>, maxItems?: number): Check<Value[]> {
  return (value, path) => savedArray(value, path, maxItems).map((item, index) => check(item, `${path}[${index}]`));
}

/** An object with these fields, each checked (others are ignored); at the top of a snapshot, `path` is `''`. */
export function record<Shape extends Record<string, Check<unknown>>>(shape: Shape): Check<{ [Key in keyof Shape]: ReturnType<Shape[Key]> }> {
  return (value, path) => {
    const object = savedObject(value, path === '' ? 'snapshot' : path);
    const checked: Record<string, unknown> = {};
    for (const [key, check] of Object.entries(shape)) checked[key] = check(object[key], path === '' ? key : `${path}.${key}`);
    return checked as { [Key in keyof Shape]: ReturnType<Shape[Key]> };
  };
}

/** `null`, as a detector that keeps no state saves it. */
export const nothing: Check<null> = (value, path) => {
  if (value !== null) savedError(path, 'null (the detector keeps no state)', value);
  return null;
};

/** Deepest nesting a snapshot may hold: a history step's values are copied 64 levels deep, a few levels down. */
export const MAX_SAVED_DEPTH = 100;

/** The value of an own data property, read through its descriptor so that no getter or proxy trap runs code of its own. */
function ownData(target: object, key: string, path: string): unknown {
  let descriptor: PropertyDescriptor | undefined;
  try {
    descriptor = Object.getOwnPropertyDescriptor(target, key);
  } catch {
    refusedField(path, 'a readable data property', 'a property whose reading threw');
  }
  if (descriptor === undefined) return undefined;
  if (!('value' in descriptor)) refusedField(path, 'a data property', 'a getter or setter');
  return descriptor.value;
}

/**
 * A copy of a value read back from a snapshot as plain JSON data: objects (of `Object`'s prototype or none) and
 * arrays, strings, finite numbers, booleans and `null`. Own data properties are read through their descriptors, so
 * no getter is ever called; an object's properties that are `undefined` are left out, as JSON leaves them out.
 * Anything else (a getter, a bigint, a cycle, `NaN`, a `Date`, a proxy whose traps throw, nesting deeper than
 * {@link MAX_SAVED_DEPTH}) is refused with a `TypeError` naming its field.
 * @param path - the field's path, `''` for the snapshot itself
 */
export function savedJson(value: unknown, path: string, ancestors: object[] = []): unknown {
  const here = path === '' ? 'snapshot' : path;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) savedError(here, 'a finite number (a snapshot is JSON)', value);
      return value;
    case 'object':
      break;
    default:
      savedError(here, 'JSON data (a string, number, boolean, null, array or object)', value);
  }
  if (value === null) return null;
  if (ancestors.includes(value)) savedError(here, 'JSON data without cycles', value);
  if (ancestors.length >= MAX_SAVED_DEPTH) savedError(here, `JSON data at most ${MAX_SAVED_DEPTH} levels deep`, value);
  let isArray = false;
  let prototype: unknown;
  try {
    isArray = Array.isArray(value);
    prototype = Object.getPrototypeOf(value);
  } catch {
    refusedField(here, 'JSON data', 'a value whose reading threw');
  }
  ancestors.push(value);
  try {
    if (isArray) {
      const length = ownData(value, 'length', `${here}.length`) as number;
      const copy: unknown[] = [];
      for (let index = 0; index < length; index++) {
        const itemPath = `${path}[${index}]`;
        const item = ownData(value, String(index), itemPath);
        copy.push(savedJson(item, itemPath, ancestors));
      }
      return copy;
    }
    if (prototype !== null && Object.getPrototypeOf(prototype) !== null) savedError(here, 'a plain object or array (a snapshot is JSON)', value);
    const copy: Record<string, unknown> = {};
    let keys: string[] = [];
    try {
      keys = Object.keys(value);
    } catch {
      savedError(here, 'an object whose keys can be listed', value);
    }
    for (const key of keys) {
      const keyPath = path === '' ? key : `${path}.${key}`;
      const item = ownData(value, key, keyPath);
      // Defined, not assigned: a key `__proto__` stays a property, as JSON.parse makes it.
      if (item !== undefined) Object.defineProperty(copy, key, { value: savedJson(item, keyPath, ancestors), enumerable: true, writable: true, configurable: true });
    }
    return copy;
  } finally {
    ancestors.pop();
  }
}

/** Step indexes of a run that has taken `steps` steps: integers below it, each above the one before. */
export function stepIndexList(steps: number, maxItems?: number): Check<number[]> {
  return (value, path) => {
    const indexes = list(integer(0, Math.max(steps - 1, 0)), maxItems)(value, path);
    indexes.forEach((index, position) => {
      if (position > 0 && index <= (indexes[position - 1] ?? -1)) savedError(`${path}[${position}]`, 'a step index above the one before', index);
    });
    return indexes;
  };
}
