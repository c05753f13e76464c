import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { builtinKind, isErrorByTag } from '../../src/canonical/brand.js';
import { canonicalize } from '../../src/canonical/canonicalize.js';

const UNREADABLE = /^\[Unreadable:\d+\]$/;

/** A value built in a fresh realm, as `node:vm`, iframes and some test environments make them. */
const foreign = (source: string): unknown => runInNewContext(source);

describe('builtinKind', () => {
  it('tells local built-ins by prototype and foreign ones by tag', () => {
    expect(builtinKind(new Map(), Map.prototype)).toBe('Map');
    const map = foreign('new Map()') as object;
    expect(builtinKind(map, Object.getPrototypeOf(map))).toBe('Map');
    expect(builtinKind({}, Object.prototype)).toBeUndefined();
    class Tool {
      readonly name = 'search';
    }
    expect(builtinKind(new Tool(), Tool.prototype)).toBeUndefined();
  });

  it('knows an error by its slot, not by a tag it was given', () => {
    const error = foreign('new TypeError("x")') as object;
    expect(builtinKind(error, Object.getPrototypeOf(error))).toBe('Error');
    const posing = { [Symbol.toStringTag]: 'Error' };
    expect(builtinKind(posing, Object.prototype)).toBeUndefined();
    expect(isErrorByTag(posing)).toBe(false);
    expect(isErrorByTag(new Error('x'))).toBe(true);
  });

  it('uses Error.isError where the engine has one', async () => {
    const isError = vi.fn((value: unknown) => value instanceof RangeError);
    (Error as { isError?: unknown }).isError = isError;
    try {
      vi.resetModules();
      const fresh = await import('../../src/canonical/brand.js');
      expect(fresh.builtinKind(new RangeError('x'), RangeError.prototype)).toBe('Error');
      // The engine's answer is final: a plain Error that it does not call an error is no error.
      expect(fresh.builtinKind(new Error('x'), Error.prototype)).toBeUndefined();
      expect(fresh.isErrorByTag(new Error('x'))).toBe(false);
      expect(isError).toHaveBeenCalled();
    } finally {
      delete (Error as { isError?: unknown }).isError;
      vi.resetModules();
    }
  });
});

describe('canonicalize: objects from another realm', () => {
  it('writes each built-in from another realm exactly as a local one', () => {
    const pairs: readonly (readonly [string, unknown])[] = [
      ['new Map([[1, {a: 2}], ["k", new Set([3])]])', new Map<unknown, unknown>([[1, { a: 2 }], ['k', new Set([3])]])],
      ['new Set(["b", "a"])', new Set(['b', 'a'])],
      ['new Date(86400000)', new Date(86_400_000)],
      ['new Date(NaN)', new Date(Number.NaN)],
      ['/a\\/b/gi', /a\/b/gi],
      ['new Uint8Array([1, 2]).buffer', new Uint8Array([1, 2]).buffer],
      ['new DataView(new Uint8Array([7, 8, 9]).buffer, 1)', new DataView(new Uint8Array([7, 8, 9]).buffer, 1)],
      ['new Int16Array([-1, 2])', new Int16Array([-1, 2])],
      ['new SharedArrayBuffer(1)', new SharedArrayBuffer(1)],
      ['Object(1.5)', Object(1.5)],
      ['Object("s")', Object('s')],
      ['Object(false)', Object(false)],
      ['Object(10n)', Object(10n)],
      ['Object(Symbol("q"))', Object(Symbol('q'))],
      ['({ b: [1, { c: null }], a: undefined })', { b: [1, { c: null }], a: undefined }],
      ['Object.assign(new RangeError("far", { cause: 1 }), { code: "E" })', Object.assign(new RangeError('far', { cause: 1 }), { code: 'E' })],
      ['({ toJSON: () => "replaced" })', { toJSON: () => 'replaced' }],
    ];
    for (const [source, local] of pairs) expect(canonicalize(foreign(source)), source).toBe(canonicalize(local));
  });

  it('keeps two different errors from another realm apart', () => {
    expect(canonicalize(foreign('new Error("one")'))).not.toBe(canonicalize(foreign('new Error("two")')));
    expect(canonicalize(foreign('new Error("one")'))).toBe('Error{"message":"one","name":"Error"}');
  });

  it('keeps two different Maps, Sets and boxed numbers from another realm apart, and none equals {}', () => {
    const forms = ['new Map([[1, 2]])', 'new Map([[1, 3]])', 'new Set([1])', 'new Set([2])', 'Object(1)', 'Object(2)', '({})'].map(
      (source) => canonicalize(foreign(source)),
    );
    expect(new Set(forms).size).toBe(forms.length);
  });

  it('recognises a local built-in whose tag was overwritten, by its prototype', () => {
    const map = Object.defineProperty(new Map([[1, 2]]), Symbol.toStringTag, { value: 'Other' });
    expect(canonicalize(map)).toBe('Map{1:2}');
  });

  it('makes a value that claims a built-in tag without the slot unreadable, not a built-in', () => {
    const posing = (tag: string): object => {
      class Posing {
        readonly message = 'x';
        get [Symbol.toStringTag](): string {
          return tag;
        }
      }
      return new Posing();
    };
    for (const tag of ['Map', 'Set', 'Date', 'RegExp', 'ArrayBuffer', 'SharedArrayBuffer', 'Number', 'String', 'Boolean', 'BigInt', 'Symbol']) {
      expect(canonicalize(posing(tag)), tag).toMatch(UNREADABLE);
    }
    // A claimed Error tag is ignored: the object is written by its properties.
    expect(canonicalize(posing('Error'))).toBe('{"message":"x"}');
    // A plain object is written by its properties whatever tag it carries (symbol keys are ignored).
    expect(canonicalize({ [Symbol.toStringTag]: 'Map' })).toBe('{}');
    // So is an error's own tag, on engines without Error.isError: the documented residual limit.
    const tagged = Object.assign(new Error('x'), { [Symbol.toStringTag]: 'Error' });
    expect(canonicalize(tagged)).toBe('{}');
  });

  it('does not take RegExp.prototype, local or foreign, for a regular expression', () => {
    expect(canonicalize(RegExp.prototype)).toBe('{}');
    expect(canonicalize(foreign('RegExp.prototype'))).toBe('{}');
    const posing = Object.assign(foreign('RegExp.prototype') as object, { [Symbol.toStringTag]: 'RegExp' });
    expect(canonicalize(posing)).toMatch(UNREADABLE);
  });

  it('reads a DataView through its own getters, not properties shadowing them', () => {
    const view = new DataView(new Uint8Array([1, 2, 3]).buffer, 1);
    Object.defineProperty(view, 'byteOffset', { value: 0 });
    expect(canonicalize(view)).toBe('DataView[2,3]');
  });
});

describe('builtinKind where the engine has no SharedArrayBuffer', () => {
  it('recognises everything else as before', async () => {
    const saved = globalThis.SharedArrayBuffer;
    const shared = new SharedArrayBuffer(1);
    Reflect.deleteProperty(globalThis, 'SharedArrayBuffer');
    try {
      vi.resetModules();
      const fresh = await import('../../src/canonical/brand.js');
      const { Walker } = await import('../../src/canonical/walker.js');
      const { DEFAULT_LIMITS } = await import('../../src/canonical/limits.js');
      const { publicHash } = await import('../../src/canonical/murmur-hash.js');
      expect(fresh.builtinKind(new Map(), Map.prototype)).toBe('Map');
      expect(fresh.builtinKind(shared, Object.getPrototypeOf(shared))).toBeUndefined();
      expect(new Walker(DEFAULT_LIMITS, publicHash).read(shared, 10)).toBe('{}');
    } finally {
      globalThis.SharedArrayBuffer = saved;
      vi.resetModules();
    }
  });
});
