/** Checks one option value and throws a `TypeError` naming its path when it does not fit. */

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${String(value)}n`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) {
    return String(value);
  }
  if (typeof value === 'function') return 'a function';
  return Array.isArray(value) ? 'an array' : `a value of type ${typeof value}`;
}

/** Throws the one kind of error invalid options raise. */
export function optionError(path: string, expected: string, value: unknown): never {
  throw new TypeError(`agent-loopguard: option "${path}" must be ${expected}, got ${describe(value)}.`);
}

/** A plain object whose keys are all known; returns it typed as a record. */
export function expectObject(path: string, value: unknown, known: readonly string[]): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    optionError(path === '' ? 'options' : path, 'an object', value);
  }
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      throw new TypeError(
        `agent-loopguard: unknown option "${path === '' ? key : `${path}.${key}`}" (known: ${known.join(', ')}).`,
      );
    }
  }
  return value as Record<string, unknown>;
}

/** An integer at least `min`, or the default when the value is absent. */
export function integerOption(path: string, value: unknown, min: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    optionError(path, `an integer of at least ${String(min)}`, value);
  }
  return value;
}

/** A boolean, or the default when the value is absent. */
export function booleanOption(path: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') optionError(path, 'true or false', value);
  return value;
}

/** A finite number greater than 0. */
export function positiveNumber(path: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
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
