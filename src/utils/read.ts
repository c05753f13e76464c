/**
 * Reading what callers, models and tools hand the guard without ever throwing: hostile getters, revoked proxies and
 * absurd lengths read as "nothing there".
 */

/** Whether a value can have properties and be a `WeakMap` key: an object or a function, not `null`. */
export function isObject(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

/** Reads a property of anything; a throwing getter, a throwing proxy trap or a revoked proxy reads as `undefined`. */
export function safeRead(target: unknown, key: string): unknown {
  if (!isObject(target)) return undefined;
  try {
    return (target as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/**
 * Most items read from one array. A step never holds this many tool calls; the cap keeps a hostile length (a sparse
 * array of 2^32 - 1 holes, a proxy claiming `Infinity`) from costing unbounded time and memory.
 */
export const MAX_ARRAY_ITEMS = 10_000;

/**
 * The length of an array as a whole number from 0 to 2^32 - 1, whatever a proxy claims: a length that is not a number,
 * or not above 0, reads as 0, and one past 2^32 - 1 (Infinity) as 2^32 - 1. `undefined` for anything that is not an
 * array (or throws when looked at).
 */
export function arrayLength(value: unknown): number | undefined {
  let length: unknown;
  try {
    if (!Array.isArray(value)) return undefined;
    length = (value as unknown[]).length;
  } catch {
    return undefined;
  }
  return typeof length === 'number' && length > 0 ? Math.floor(Math.min(length, 2 ** 32 - 1)) : 0;
}

/**
 * The items of an array, at most {@link MAX_ARRAY_ITEMS} of them, with its length as {@link arrayLength} reads it;
 * `undefined` for anything that is not an array.
 */
export function readArray(value: unknown): { readonly items: readonly unknown[]; readonly length: number } | undefined {
  const length = arrayLength(value);
  if (length === undefined) return undefined;
  const items: unknown[] = [];
  for (let index = 0; index < Math.min(length, MAX_ARRAY_ITEMS); index++) items.push(safeRead(value, String(index)));
  return { items, length };
}

/** The items of an array as {@link readArray} reads them, or `[]` for anything else. */
export function safeArray(value: unknown): readonly unknown[] {
  return readArray(value)?.items ?? [];
}

/** `Number.isFinite` as a type guard: false for every non-number. */
export const isFiniteNumber = Number.isFinite as (value: unknown) => value is number;

/** `Number.isSafeInteger` as a type guard: false for every non-number. */
export const isSafeInteger = Number.isSafeInteger as (value: unknown) => value is number;

/** A finite, non-negative number, else `undefined`. */
export function usableNumber(value: unknown): number | undefined {
  return isFiniteNumber(value) && value >= 0 ? value : undefined;
}

/** `T` with its properties writable, for building a readonly value field by field before handing it out. */
export type Mutable<T> = { -readonly [Key in keyof T]: T[Key] };
