import { isFiniteNumber, isSafeInteger } from '../guard/safe-read.js';

/** Checks one option value and throws a `TypeError` naming its path when it does not fit. */

/** A short description of a value for an error message: strings quoted, containers by kind. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${String(value)}n`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) {
    return String(value);
  }
  if (typeof value === 'function') return 'a function';
  return isArraySafely(value) ? 'an array' : `a value of type ${typeof value}`;
}

/** `Array.isArray`, which throws on a revoked proxy, read as `false` then. */
function isArraySafely(value: unknown): boolean {
  try {
    return Array.isArray(value);
  } catch {
    // A revoked proxy: it can no longer be told from an ordinary object.
  }
  return false;
}

/** The own enumerable keys of a non-array object, or `undefined` when it is not one or they cannot be listed. */
function ownKeys(value: unknown): string[] | undefined {
  // Stryker disable next-line ConditionalExpression: without the null test, Object.keys(null) throws into the catch below, same result.
  if (value === null || typeof value !== 'object') return undefined;
  try {
    return Array.isArray(value) ? undefined : Object.keys(value);
  } catch {
    // A revoked proxy, or an `ownKeys` trap that throws.
  }
  return undefined;
}

/** Throws the one kind of error invalid options raise. */
export function optionError(path: string, expected: string, value: unknown): never {
  throw new TypeError(`agent-loopguard: option "${path}" must be ${expected}, got ${describeValue(value)}.`);
}

/**
 * A plain object whose keys are all known, copied into a record without a prototype: only its own properties are
 * read, so an option inherited from a prototype (a polluted `Object.prototype`, say) is never applied.
 */
export function expectObject(path: string, value: unknown, known: readonly string[]): Record<string, unknown> {
  const keys = ownKeys(value);
  if (keys === undefined) optionError(path === '' ? 'options' : path, 'an object', value);
  const record = Object.create(null) as Record<string, unknown>;
  for (const key of keys) {
    const keyPath = path === '' ? key : `${path}.${key}`;
    if (!known.includes(key)) {
      throw new TypeError(`agent-loopguard: unknown option "${keyPath}" (known: ${known.join(', ')}).`);
    }
    try {
      record[key] = (value as Record<string, unknown>)[key];
    } catch {
      throw new TypeError(`agent-loopguard: option "${keyPath}" could not be read: reading it threw.`);
    }
  }
  return record;
}

/**
 * An integer from `min` to `max`, or the default when the value is absent. Integers past 2^53 - 1 are refused: they
 * cannot be counted to exactly.
 */
export function integerOption(path: string, value: unknown, min: number, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!isSafeInteger(value) || value < min || value > max) {
    optionError(path, max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${String(min)}` : `an integer from ${String(min)} to ${String(max)}`, value);
  }
  return value;
}

/**
 * The items of an array option, at most `maxItems` of them, copied (so freezing never touches the caller's array);
 * holes read as `undefined`, so each item can be reported by its index.
 */
export function listOption(path: string, value: unknown, maxItems: number, expected: string): unknown[] {
  let length: unknown;
  try {
    if (Array.isArray(value)) length = (value as unknown[]).length;
  } catch {
    // A revoked proxy: reported below as not an array.
  }
  if (typeof length !== 'number') optionError(path, expected, value);
  if (length > maxItems) optionError(path, `${expected} of at most ${String(maxItems)} items`, value);
  return Array.from(value as unknown[]);
}

/** A boolean, or the default when the value is absent. */
export function booleanOption(path: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') optionError(path, 'true or false', value);
  return value;
}

/** A finite number greater than 0. */
export function positiveNumber(path: string, value: unknown): number {
  if (!isFiniteNumber(value) || value <= 0) {
    optionError(path, 'a finite number greater than 0', value);
  }
  return value;
}

/** A warning ratio: greater than 0 and at most 1. */
export function ratioOption(path: string, value: unknown): number {
  if (typeof value !== 'number' || !(value > 0 && value <= 1)) {
    optionError(path, 'a number greater than 0 and at most 1', value);
  }
  return value;
}
