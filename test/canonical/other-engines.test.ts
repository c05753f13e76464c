/**
 * The canonical layer on engines unlike this one: with or without `Error.isError` (Node 24 has it, Node 18 to 22 do
 * not), without `SharedArrayBuffer` (browsers without cross-origin isolation), and a second copy of the library in one
 * process (its ESM and CJS builds). Each test changes the global, loads a fresh copy of the modules, and puts the global
 * back.
 */
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { canonicalize } from '../../src/canonical/canonicalize.js';

type Canonicalize = typeof canonicalize;

/** A fresh copy of `canonicalize`, its modules loaded again under the globals as they are now. */
async function freshCanonicalize(): Promise<Canonicalize> {
  vi.resetModules();
  return (await import('../../src/canonical/canonicalize.js')).canonicalize;
}

const isErrorDescriptor = Object.getOwnPropertyDescriptor(Error, 'isError');

afterEach(() => {
  if (isErrorDescriptor === undefined) Reflect.deleteProperty(Error, 'isError');
  else Object.defineProperty(Error, 'isError', isErrorDescriptor);
  vi.resetModules();
});

describe('an engine with Error.isError', () => {
  it('takes its answer for which objects are errors, an own Symbol.toStringTag notwithstanding', async () => {
    const isError = vi.fn((value: unknown) => value instanceof RangeError);
    Object.defineProperty(Error, 'isError', { value: isError, configurable: true, writable: true });
    const fresh = await freshCanonicalize();
    expect(fresh(new RangeError('far'))).toBe('Error{"message":"far","name":"RangeError"}');
    const tagged = Object.assign(new RangeError('far'), { [Symbol.toStringTag]: 'Other' });
    expect(fresh(tagged)).toBe('Error{"message":"far","name":"RangeError"}');
    // The engine's answer is final: an Error it does not call an error is written by its own enumerable properties.
    expect(fresh(Object.assign(new Error('x'), { code: 1 }))).toBe('{"code":1}');
    expect(isError).toHaveBeenCalled();
  });
});

describe('an engine without Error.isError', () => {
  it("tells an error by the tag its internal slot gives, which an error's own Symbol.toStringTag hides", async () => {
    Reflect.deleteProperty(Error, 'isError');
    const fresh = await freshCanonicalize();
    expect(fresh(new TypeError('bad'))).toBe('Error{"message":"bad","name":"TypeError"}');
    expect(fresh(runInNewContext('new Error("there")'))).toBe('Error{"message":"there","name":"Error"}');
    // The documented residual limit: such an error is written as a plain object.
    expect(fresh(Object.assign(new Error('x'), { code: 1, [Symbol.toStringTag]: 'Error' }))).toBe('{"code":1}');
    expect(fresh(Object.assign(new Error('x'), { [Symbol.toStringTag]: 'Oops' }))).toBe('{}');
    // A tag that is not a string does not speak for the object: the slot's tag stands.
    const oddTag = Object.defineProperty(new Error('x'), Symbol.toStringTag, { value: 7 });
    expect(fresh(oddTag)).toBe('Error{"message":"x","name":"Error"}');
    // An object that only claims the tag is no error either.
    class Posing {
      readonly message = 'x';
      readonly [Symbol.toStringTag] = 'Error';
    }
    expect(fresh(new Posing())).toBe('{"message":"x"}');
  });
});

describe('an engine without SharedArrayBuffer', () => {
  it('recognises every other built-in as before, and has no shared buffer to recognise', async () => {
    const saved = globalThis.SharedArrayBuffer;
    const shared = new SharedArrayBuffer(1);
    Reflect.deleteProperty(globalThis, 'SharedArrayBuffer');
    try {
      const fresh = await freshCanonicalize();
      expect(fresh(new Map([[1, 2]]))).toBe('Map{1:2}');
      expect(fresh(new Uint8Array([1, 2]).buffer)).toBe('ArrayBuffer[1,2]');
      expect(fresh(Object.create(ArrayBuffer.prototype))).toMatch(/^\[Unreadable:\d+\]$/);
      // A SharedArrayBuffer from elsewhere is then an object like any other.
      expect(fresh(shared)).toBe('{}');
    } finally {
      globalThis.SharedArrayBuffer = saved;
    }
  });
});

describe('placeholders for unreadable values', () => {
  const numberOf = (form: string): number => Number(/^\[Unreadable:(\d+)\]$/.exec(form)?.[1]);
  const revoked = (): object => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };

  it('count up within a copy of the library, each copy from a random start of its own', async () => {
    const first = numberOf(canonicalize(revoked()));
    expect(numberOf(canonicalize(revoked()))).toBe(first + 1);
    const copy = await freshCanonicalize();
    const copied = numberOf(copy(revoked()));
    expect(numberOf(copy(revoked()))).toBe(copied + 1);
    // Two random starts below 2^48 a couple of numbers apart: about one chance in 10^14.
    expect(Math.abs(copied - first)).toBeGreaterThan(2);
    expect(numberOf(canonicalize(revoked()))).toBe(first + 2);
    for (const number of [first, copied]) {
      expect(Number.isSafeInteger(number)).toBe(true);
      expect(number).toBeGreaterThan(0);
      expect(number).toBeLessThanOrEqual(2 ** 48 + 2);
    }
  });
});
