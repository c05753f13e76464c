import { expect } from 'vitest';

/**
 * Why `value` is not plain JSON, or `undefined` when it is: only null, booleans, finite numbers other than -0,
 * strings, dense arrays and objects with the ordinary prototype holding enumerable data properties, all the way down.
 * Such a value comes back from a JSON round trip unchanged.
 */
export function plainJsonProblem(value: unknown, path = '$', seen = new Set<object>()): string | undefined {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return undefined;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return `${path} is ${String(value)}`;
    return Object.is(value, -0) ? `${path} is -0` : undefined;
  }
  if (typeof value !== 'object') return `${path} is of type ${typeof value}`;
  if (seen.has(value)) return `${path} is a repeated or circular reference`;
  seen.add(value);
  const isArray = Array.isArray(value);
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== (isArray ? Array.prototype : Object.prototype)) return `${path} has an unusual prototype`;
  if (Object.getOwnPropertySymbols(value).length > 0) return `${path} has symbol keys`;
  const keys = Object.getOwnPropertyNames(value).filter((key) => !(isArray && key === 'length'));
  if (isArray && keys.length !== value.length) return `${path} is sparse or has extra properties`;
  for (const key of keys) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined || !('value' in descriptor) || descriptor.enumerable !== true) {
      return `${path}.${key} is not an enumerable data property`;
    }
    if (isArray && String(Number(key)) !== key) return `${path} has the extra property ${key}`;
    const problem = plainJsonProblem(descriptor.value, isArray ? `${path}[${key}]` : `${path}.${key}`, seen);
    if (problem !== undefined) return problem;
  }
  seen.delete(value);
  return undefined;
}

/** Asserts `value` is plain JSON and survives a JSON round trip unchanged. */
export function expectPlainJson(value: unknown): void {
  expect(plainJsonProblem(value)).toBeUndefined();
  expect(JSON.parse(JSON.stringify(value))).toStrictEqual(value);
}
