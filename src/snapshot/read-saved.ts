import { isFiniteNumber, isSafeInteger } from '../guard/safe-read.js';
import { describeValue } from '../options/option-errors.js';

/** Why a value read from a snapshot does not fit: the one kind of error a refused snapshot raises. */
export function savedError(path: string, expected: string, value: unknown): never {
  throw new TypeError(`agent-loopguard: snapshot field "${path}" must be ${expected}, got ${describeValue(value)}.`);
}

/** A plain object's own properties, or an error naming `path`. */
export function savedObject(value: unknown, path: string): Readonly<Record<string, unknown>> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) savedError(path, 'an object', value);
  return value as Record<string, unknown>;
}

/** An array of at most `maxItems` items, or an error naming `path`. */
export function savedArray(value: unknown, path: string, maxItems = Number.MAX_SAFE_INTEGER): readonly unknown[] {
  if (!Array.isArray(value)) savedError(path, 'an array', value);
  if (value.length > maxItems) savedError(path, `an array of at most ${String(maxItems)} items`, value);
  return value as unknown[];
}

/** An integer from `min` to `max`, or an error naming `path`. */
export function savedInteger(value: unknown, path: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (!isSafeInteger(value) || value < min || value > max) savedError(path, `an integer from ${String(min)} to ${String(max)}`, value);
  return value;
}

/** A finite number, or an error naming `path`. */
export function savedNumber(value: unknown, path: string): number {
  if (!isFiniteNumber(value)) savedError(path, 'a finite number', value);
  return value;
}

/** A string, or an error naming `path`. */
export function savedString(value: unknown, path: string): string {
  if (typeof value !== 'string') savedError(path, 'a string', value);
  return value;
}

/** A boolean, or an error naming `path`. */
export function savedBoolean(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') savedError(path, 'true or false', value);
  return value;
}

/** `undefined` for `null`, else what `read` makes of the value: how a snapshot writes "nothing yet". */
export function savedOptional<Value>(value: unknown, read: (present: unknown) => Value): Value | undefined {
  return value === null ? undefined : read(value);
}
