import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { LONG_STRING_LENGTH, MAX_CHARACTERS, MAX_DEPTH, MAX_DEPTH_MARKER, MAX_VALUES, TRUNCATED_MARKER } from '../../src/canonical/form.js';
import { publicHash } from '../../src/canonical/hash.js';
import { canonicalize, stableHash } from '../../src/index.js';
import { countingReads, nested } from '../support/huge-values.js';
import { expectPrototypesUntouched } from '../support/prototype-pollution.js';
import { referenceHash } from '../support/sip-hash-reference.js';

const UNREADABLE = /^\[Unreadable:\d+\]$/;

/** `depth` arrays nested around `inner`, built without recursion. */
function nestArrays(depth: number, inner: unknown): unknown {
  let value = inner;
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

/** Compares long texts, reporting only where they first differ (a full diff of 400,000 characters helps nobody). */
function expectSameText(actual: string, expected: string): void {
  let index = 0;
  while (index < actual.length && actual[index] === expected[index]) index++;
  const where = `length ${String(actual.length)} vs ${String(expected.length)}, first difference at ${String(index)}`;
  expect(
    index === actual.length && index === expected.length ? 'same' : `${where}: ${actual.slice(index, index + 40)}`,
  ).toBe(index === expected.length && index === actual.length ? 'same' : `${where}: ${expected.slice(index, index + 40)}`);
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** A value built in a fresh realm, as `node:vm`, iframes and some test environments make them. */
const foreign = (source: string): unknown => runInNewContext(source);

describe('canonicalize: JSON-compatible values are compact JSON with sorted keys', () => {
  it('writes tool arguments as the args preview users see', () => {
    expect(canonicalize({ query: 'agent loop detection' })).toBe('{"query":"agent loop detection"}');
  });

  it('sorts keys at every level by UTF-16 code unit order', () => {
    expect(canonicalize({ b: 1, a: { d: [3, 1], c: null }, B: true })).toBe('{"B":true,"a":{"c":null,"d":[3,1]},"b":1}');
    // Code unit order, not numeric order and not locale order.
    expect(canonicalize({ 9: 'x', 10: 'y', é: 1, z: 2 })).toBe('{"10":"y","9":"x","z":2,"é":1}');
    expect(canonicalize({ '\u{1F600}': 1, '\uFFFF': 2 })).toBe('{"\u{1F600}":1,"\uFFFF":2}');
  });

  it('ignores key order', () => {
    expect(canonicalize({ limit: 10, query: 'q', filters: { b: 2, a: 1 } })).toBe(
      canonicalize({ filters: { a: 1, b: 2 }, query: 'q', limit: 10 }),
    );
  });

  it('sorts an object of 100 keys, inserted in either order, and leaves out its undefined members', () => {
    const forward: Record<string, number> = {};
    const backward: Record<string, number> = {};
    for (let index = 0; index < 100; index++) forward[`k${String(index)}`] = index;
    for (let index = 99; index >= 0; index--) backward[`k${String(index)}`] = index;
    const form = canonicalize(forward);
    expect(form).toBe(canonicalize(backward));
    expect(form.startsWith('{"k0":0,"k1":1,"k10":10,"k11":11,')).toBe(true);
    expect(form.endsWith(',"k98":98,"k99":99}')).toBe(true);
    expect(JSON.parse(form)).toEqual(forward);
    const sparse: Record<string, unknown> = { ...backward, k5: undefined, k50: undefined };
    expect(canonicalize(sparse)).toBe(form.replace(',"k5":5', '').replace(',"k50":50', ''));
  });

  it('keeps array order and writes empty containers', () => {
    expect(canonicalize([3, 1, 2])).toBe('[3,1,2]');
    expect(canonicalize([])).toBe('[]');
    expect(canonicalize({})).toBe('{}');
    expect(canonicalize([{}, [], [[]]])).toBe('[{},[],[[]]]');
  });

  it('writes numbers, booleans and null as JSON does', () => {
    expect(canonicalize(0)).toBe('0');
    expect(canonicalize(-1.5)).toBe('-1.5');
    expect(canonicalize(1e21)).toBe('1e+21');
    expect(canonicalize(5e-324)).toBe('5e-324');
    expect(canonicalize(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(canonicalize(true)).toBe('true');
    expect(canonicalize(false)).toBe('false');
    expect(canonicalize(null)).toBe('null');
  });

  it('escapes strings exactly as JSON.stringify does', () => {
    const samples = [
      '',
      'plain',
      'he said "hi"',
      'back\\slash',
      'tab\there\nnew\rline\b\f',
      '\u0000\u0001\u001f\u007f',
      '\u2028\u2029',
      'pair \u{1F600} ok',
      'lone \ud800 high',
      'lone \udc00 low',
      'reversed \udc00\ud800',
      'ends high \ud83d',
      'x'.repeat(6000) + '"',
      'y'.repeat(6000),
      // Pairs, lone surrogates and escapes at and around 65,536 code units.
      'a'.repeat(65_535) + '\u{1F600}' + '"\ud800'.repeat(20_000),
    ];
    for (const sample of samples) {
      expect(canonicalize(sample)).toBe(JSON.stringify(sample));
      expect(canonicalize({ [sample]: sample })).toBe(`{${JSON.stringify(sample)}:${JSON.stringify(sample)}}`);
    }
  });

  it('does not confuse strings that contain quotes with separate values (what ohash gets wrong)', () => {
    expect(canonicalize({ a: "1',b:'2" })).toBe('{"a":"1\',b:\'2"}');
    expect(canonicalize({ a: '1', b: '2' })).toBe('{"a":"1","b":"2"}');
    expect(canonicalize({ a: '1","b":"2' })).not.toBe(canonicalize({ a: '1', b: '2' }));
  });
});

describe('canonicalize: undefined', () => {
  it('omits properties whose value is undefined', () => {
    expect(canonicalize({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(canonicalize({ u: undefined })).toBe(canonicalize({}));
  });

  it('writes undefined in arrays, holes and at the top level as a bare token distinct from null', () => {
    expect(canonicalize(undefined)).toBe('undefined');
    expect(canonicalize([undefined, null])).toBe('[undefined,null]');
    // eslint-disable-next-line no-sparse-arrays -- the hole is the point
    expect(canonicalize([1, , 3])).toBe('[1,undefined,3]');
    expect(canonicalize([undefined])).not.toBe(canonicalize([null]));
  });
});

describe('canonicalize: numbers and bigints that print alike stay apart', () => {
  it('writes NaN and the infinities as bare tokens', () => {
    expect(canonicalize(Number.NaN)).toBe('NaN');
    expect(canonicalize(Number.POSITIVE_INFINITY)).toBe('Infinity');
    expect(canonicalize(Number.NEGATIVE_INFINITY)).toBe('-Infinity');
    expect(canonicalize([Number.NaN, null, 'NaN'])).toBe('[NaN,null,"NaN"]');
    expect(canonicalize({ a: Number.POSITIVE_INFINITY, b: 'Infinity' })).toBe('{"a":Infinity,"b":"Infinity"}');
  });

  it('writes bigints with an n suffix', () => {
    expect(canonicalize(10n)).toBe('10n');
    expect(canonicalize(-5n)).toBe('-5n');
    expect(canonicalize([10n, 10, '10', '10n'])).toBe('[10n,10,"10","10n"]');
  });

  it('writes a bigint of more than 65,536 bits as #n, its bit length and the hash of its hexadecimal digits', () => {
    const bound = 2n ** 65_536n;
    const largest = bound - 1n;
    expect(canonicalize(largest)).toBe(`${largest.toString()}n`);
    expect(canonicalize(-largest)).toBe(`-${largest.toString()}n`);
    const hex = bound.toString(16);
    expect(hex).toHaveLength(16_385);
    expect(canonicalize(bound)).toBe(`#n65537:${referenceHash(hex)}`);
    expect(canonicalize(-bound)).toBe(`#n65537:${referenceHash(`-${hex}`)}`);
    expect(canonicalize([Object(bound * 2n + 1n) as unknown, 1])).toBe(`[#n65538:${referenceHash((bound * 2n + 1n).toString(16))},1]`);
    expect(canonicalize({ big: bound })).toBe(`{"big":#n65537:${referenceHash(hex)}}`);
    // The bit length of the magnitude, whatever its first hexadecimal digit.
    const ones = 2n ** 65_540n - 1n;
    expect(canonicalize(ones)).toMatch(/^#n65540:[0-9a-f]{28}$/);
    expect(canonicalize(-(2n ** 65_539n))).toMatch(/^#n65540:[0-9a-f]{28}$/);
    expect(canonicalize(-(2n ** 65_539n))).not.toBe(canonicalize(2n ** 65_539n));
  });

  it('treats -0 as 0', () => {
    expect(canonicalize(-0)).toBe('0');
    expect(canonicalize({ a: -0 })).toBe(canonicalize({ a: 0 }));
  });
});

describe('canonicalize: functions and symbols', () => {
  it('writes a function by its name, anywhere', () => {
    function search(): void {
      // A named function.
    }
    expect(canonicalize(search)).toBe('Function("search")');
    expect(canonicalize({ callback: search })).toBe('{"callback":Function("search")}');
    expect(canonicalize([(() => () => 1)()])).toBe('[Function("")]');
    expect(
      canonicalize(
        class Tool {
          readonly kind = 'tool';
        },
      ),
    ).toBe('Function("Tool")');
  });

  it('writes a function whose name is not a string with an empty name', () => {
    const odd = Object.defineProperty(() => 1, 'name', { value: 42 });
    expect(canonicalize(odd)).toBe('Function("")');
  });

  it('writes a function whose name cannot be read as unreadable', () => {
    const hidden = Object.defineProperty(() => 1, 'name', {
      get: () => {
        throw new Error('no name');
      },
    });
    expect(canonicalize(hidden)).toMatch(UNREADABLE);
    expect(canonicalize({ hidden, b: 1 })).toMatch(/^\{"b":1,"hidden":\[Unreadable:\d+\]\}$/);
  });

  it('writes a symbol by its description, anywhere', () => {
    expect(canonicalize(Symbol('tag'))).toBe('Symbol("tag")');
    expect(canonicalize(Symbol())).toBe('Symbol()');
    expect(canonicalize(Symbol(''))).toBe('Symbol("")');
    expect(canonicalize(Symbol())).not.toBe(canonicalize(Symbol('')));
    expect(canonicalize({ kind: Symbol.iterator })).toBe('{"kind":Symbol("Symbol.iterator")}');
    expect(canonicalize([Symbol('say "hi"'), Object(Symbol()) as unknown])).toBe('[Symbol("say \\"hi\\""),Symbol()]');
  });

  it('ignores symbol keys and non-enumerable properties', () => {
    const value = { visible: 1, [Symbol('hidden')]: 2 };
    Object.defineProperty(value, 'secret', { value: 3, enumerable: false });
    expect(canonicalize(value)).toBe('{"visible":1}');
  });
});

describe('canonicalize: built-in objects', () => {
  it('writes a Date as its tagged ISO string, never equal to the string itself', () => {
    expect(canonicalize(new Date('2020-01-01T00:00:00.000Z'))).toBe('Date("2020-01-01T00:00:00.000Z")');
    expect(canonicalize(new Date('2020-01-01T00:00:00.000Z'))).not.toBe(canonicalize('2020-01-01T00:00:00.000Z'));
    expect(canonicalize({ at: new Date(0) })).toBe('{"at":Date("1970-01-01T00:00:00.000Z")}');
  });

  it('writes an invalid Date as its own token', () => {
    expect(canonicalize(new Date('not a date'))).toBe('Date(Invalid)');
  });

  it('prefers the Date rule to a toJSON on a Date', () => {
    const date = Object.assign(new Date(0), { toJSON: () => 'other' });
    expect(canonicalize(date)).toBe('Date("1970-01-01T00:00:00.000Z")');
  });

  it('writes a Map tagged, entries sorted by their text, so insertion order does not matter', () => {
    expect(canonicalize(new Map<unknown, unknown>([['b', 1], ['a', { z: 1 }]]))).toBe('Map{"a":{"z":1},"b":1}');
    expect(canonicalize(new Map([[2, 'x'], [1, 'y']]))).toBe(canonicalize(new Map([[1, 'y'], [2, 'x']])));
    expect(canonicalize(new Map([[{ id: 1 }, [1]]]))).toBe('Map{{"id":1}:[1]}');
    expect(canonicalize(new Map([['a', undefined]]))).toBe('Map{"a":undefined}');
    expect(canonicalize(new Map())).toBe('Map{}');
    expect(canonicalize(new Map())).not.toBe(canonicalize({}));
  });

  it('writes a Set tagged, members sorted by their text', () => {
    expect(canonicalize(new Set([3, 'a', 1]))).toBe('Set["a",1,3]');
    expect(canonicalize(new Set([1, 2]))).toBe(canonicalize(new Set([2, 1])));
    expect(canonicalize(new Set())).toBe('Set[]');
    expect(canonicalize(new Set())).not.toBe(canonicalize([]));
  });

  it('writes an object with toJSON as what toJSON returns', () => {
    expect(canonicalize(new URL('https://example.com/a?b=1'))).toBe('"https://example.com/a?b=1"');
    expect(canonicalize({ link: new URL('https://example.com/') })).toBe('{"link":"https://example.com/"}');
    expect(canonicalize({ toJSON: () => ({ b: 2, a: 1 }) })).toBe('{"a":1,"b":2}');
    expect(canonicalize({ toJSON: () => null })).toBe('null');
    expect(canonicalize({ toJSON: () => undefined })).toBe('undefined');
    expect(canonicalize({ a: { toJSON: () => undefined } })).toBe('{"a":undefined}');
  });

  it('ignores toJSON on arrays and on primitives', () => {
    expect(canonicalize(Object.assign([1, 2], { toJSON: () => 'replaced' }))).toBe('[1,2]');
    const bigIntPrototype = BigInt.prototype as { toJSON?: () => string };
    bigIntPrototype.toJSON = () => 'replaced';
    try {
      expect(canonicalize(10n)).toBe('10n');
      expect(JSON.stringify(10n)).toBe('"replaced"');
    } finally {
      delete bigIntPrototype.toJSON;
    }
  });

  it('calls toJSON with an empty key', () => {
    const keys: unknown[] = [];
    canonicalize({
      toJSON(...args: unknown[]) {
        keys.push(...args);
        return 1;
      },
    });
    expect(keys).toEqual(['']);
  });

  it('does not call toJSON again on what toJSON returned, but does on its children', () => {
    const inner = { toJSON: () => 'inner' };
    const replacement = { toJSON: () => 'never called', child: inner };
    expect(canonicalize({ toJSON: () => replacement })).toBe('{"child":"inner","toJSON":Function("toJSON")}');
  });

  it('writes what toJSON returned by the other rules, without calling its own toJSON', () => {
    expect(canonicalize({ toJSON: () => new Map([[1, 2]]) })).toBe('Map{1:2}');
    expect(canonicalize({ toJSON: () => new Date(0) })).toBe('Date("1970-01-01T00:00:00.000Z")');
    class Wrapped {
      readonly inner = 1;
      toJSON(): string {
        return 'never called';
      }
    }
    expect(canonicalize({ toJSON: () => new Wrapped() })).toBe('{"inner":1}');
  });

  it('writes the properties of an object whose toJSON returns the object itself', () => {
    const selfish = {
      a: 1,
      toJSON() {
        return this;
      },
    };
    expect(canonicalize(selfish)).toBe('{"a":1,"toJSON":Function("toJSON")}');
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
      toJSON(): this {
        return this;
      }
    }
    expect(canonicalize(new Point(1, 2))).toBe('{"x":1,"y":2}');
  });

  it('stops a toJSON that keeps returning new wrappers of itself at the depth limit', () => {
    const looping: { toJSON: () => unknown } = { toJSON: () => ({ again: looping }) };
    expect(canonicalize(looping)).toBe('{"again":'.repeat(MAX_DEPTH) + MAX_DEPTH_MARKER + '}'.repeat(MAX_DEPTH));
  });

  it('detects a toJSON that returns an ancestor', () => {
    const root: Record<string, unknown> = {};
    root.child = { toJSON: () => root };
    expect(canonicalize(root)).toBe('{"child":[Circular:0]}');
  });

  it('writes an Error by name, message, own cause and own enumerable properties, ignoring the stack', () => {
    expect(canonicalize(new Error('boom'))).toBe('Error{"message":"boom","name":"Error"}');
    expect(canonicalize(new TypeError('bad input'))).toBe('Error{"message":"bad input","name":"TypeError"}');
    const detailed = Object.assign(new RangeError('too far', { cause: 'limit' }), { code: 'E_RANGE' });
    expect(canonicalize(detailed)).toBe('Error{"cause":"limit","code":"E_RANGE","message":"too far","name":"RangeError"}');
    const thrownHere = new Error('same');
    const thrownThere = ((): Error => new Error('same'))();
    expect(thrownHere.stack).not.toBe(thrownThere.stack);
    expect(canonicalize(thrownHere)).toBe(canonicalize(thrownThere));
    expect(canonicalize(new Error('one'))).not.toBe(canonicalize(new Error('two')));
    expect(canonicalize(new Error('x'))).not.toBe(canonicalize({ message: 'x', name: 'Error' }));
  });

  it('writes an own enumerable name or message once, and ignores an Error toJSON', () => {
    const error = Object.assign(new Error('first'), { name: 'Custom', toJSON: () => 'ignored' });
    Object.defineProperty(error, 'message', { value: 'second', enumerable: true });
    expect(Object.keys(error)).toEqual(['message', 'name', 'toJSON']);
    expect(canonicalize(error)).toBe('Error{"message":"second","name":"Custom","toJSON":Function("toJSON")}');
    const withCause = new Error('x', { cause: undefined });
    expect(canonicalize(withCause)).toBe('Error{"message":"x","name":"Error"}');
    const enumerableCause = Object.assign(new Error('x'), { cause: 1 });
    expect(canonicalize(enumerableCause)).toBe('Error{"cause":1,"message":"x","name":"Error"}');
  });

  it('writes an AI SDK tool error with its fields', () => {
    const error = new APICallError({
      message: 'Bad gateway',
      url: 'https://api.example.com/v1',
      requestBodyValues: { model: 'm' },
      statusCode: 502,
    });
    expect(canonicalize(error)).toBe(
      'Error{"isRetryable":true,"message":"Bad gateway","name":"AI_APICallError",' +
        '"requestBodyValues":{"model":"m"},"statusCode":502,"url":"https://api.example.com/v1"}',
    );
  });

  it('writes a RegExp tagged with its source and flags', () => {
    expect(canonicalize(/a\/b[/]"/gi)).toBe('RegExp("/a\\\\/b[/]\\"/gi")');
    expect(canonicalize(/x/)).not.toBe(canonicalize(/x/g));
    expect(canonicalize(/x/)).not.toBe(canonicalize({}));
  });

  it('writes typed arrays, DataViews and ArrayBuffers with their contents', () => {
    expect(canonicalize(new Uint8Array([1, 2]))).toBe('Uint8Array[1,2]');
    expect(canonicalize(new Float64Array([Number.NaN, -0, 1.5]))).toBe('Float64Array[NaN,0,1.5]');
    expect(canonicalize(new BigInt64Array([1n, -2n]))).toBe('BigInt64Array[1n,-2n]');
    expect(canonicalize(new Int16Array(0))).toBe('Int16Array[]');
    expect(canonicalize(new Uint8Array([1]))).not.toBe(canonicalize(new Int8Array([1])));
    const buffer = new Uint8Array([7, 8, 9]).buffer;
    expect(canonicalize(buffer)).toBe('ArrayBuffer[7,8,9]');
    expect(canonicalize(new DataView(buffer, 1, 2))).toBe('DataView[8,9]');
    expect(canonicalize(new DataView(buffer))).toBe('DataView[7,8,9]');
    expect(canonicalize(new DataView(buffer, 3))).toBe('DataView[]');
    const shared = new SharedArrayBuffer(2);
    new Uint8Array(shared)[1] = 5;
    expect(canonicalize(shared)).toBe('SharedArrayBuffer[0,5]');
    expect(canonicalize(new SharedArrayBuffer(0))).toBe('SharedArrayBuffer[]');
    expect(canonicalize(new Uint8Array(shared))).toBe('Uint8Array[0,5]');
    expect(canonicalize(new DataView(shared))).toBe('DataView[0,5]');
    expect(canonicalize({ shared, bytes: new Uint8Array([0, 5]).buffer })).toBe('{"bytes":ArrayBuffer[0,5],"shared":SharedArrayBuffer[0,5]}');
  });

  it('reads a DataView through its own getters, not properties shadowing them', () => {
    const view = new DataView(new Uint8Array([1, 2, 3]).buffer, 1);
    Object.defineProperty(view, 'byteOffset', { value: 0 });
    Object.defineProperty(view, 'byteLength', { value: 3 });
    expect(canonicalize(view)).toBe('DataView[2,3]');
  });

  it('writes a Node Buffer through its toJSON', () => {
    expect(canonicalize(Buffer.from([1, 2]))).toBe('{"data":[1,2],"type":"Buffer"}');
  });

  it('unwraps boxed primitives', () => {
    expect(canonicalize(Object(1))).toBe('1');
    expect(canonicalize(Object(Number.NaN))).toBe('NaN');
    expect(canonicalize(Object('s'))).toBe('"s"');
    expect(canonicalize(Object(false))).toBe('false');
    expect(canonicalize(Object(true))).toBe('true');
    expect(canonicalize(Object(10n))).toBe('10n');
    expect(canonicalize(Object(Symbol('q')))).toBe('Symbol("q")');
    expect(canonicalize(Object('s'))).not.toBe(canonicalize({ 0: 's' }));
    expect(canonicalize([Object(-0), Object(''), Object(-5n)])).toBe('[0,"",-5n]');
  });

  it('writes other objects by their own enumerable properties, without their class', () => {
    class Tool {
      readonly name = 'search';
      run(): void {
        // A method on the prototype, not an own property.
      }
    }
    expect(canonicalize(new Tool())).toBe('{"name":"search"}');
    expect(canonicalize(Object.assign(Object.create(null) as object, { b: 2, a: 1 }))).toBe('{"a":1,"b":2}');
    expect(canonicalize(new WeakMap())).toBe('{}');
    expect(canonicalize(Promise.resolve(1))).toBe('{}');
    expect(canonicalize(Object.assign([1, 2], { extra: true }))).toBe('[1,2]');
    class List extends Array<number> {}
    expect(canonicalize(List.from([1, 2]))).toBe('[1,2]');
  });

  it('treats __proto__, constructor and prototype as ordinary keys', () => {
    const parsed: unknown = JSON.parse('{"__proto__":{"x":1},"constructor":2,"prototype":3}');
    expect(canonicalize(parsed)).toBe('{"__proto__":{"x":1},"constructor":2,"prototype":3}');
    expect(canonicalize(parsed)).not.toBe(canonicalize({}));
  });
});

describe('canonicalize: objects from another realm, and objects posing as built-ins', () => {
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
      ['new BigUint64Array([3n])', new BigUint64Array([3n])],
      ['new SharedArrayBuffer(1)', new SharedArrayBuffer(1)],
      ['Object(1.5)', Object(1.5)],
      ['Object("s")', Object('s')],
      ['Object(false)', Object(false)],
      ['Object(10n)', Object(10n)],
      ['Object(Symbol("q"))', Object(Symbol('q'))],
      ['Object(Symbol())', Object(Symbol())],
      ['({ b: [1, { c: null }], a: undefined })', { b: [1, { c: null }], a: undefined }],
      ['Object.assign(new RangeError("far", { cause: 1 }), { code: "E" })', Object.assign(new RangeError('far', { cause: 1 }), { code: 'E' })],
      ['({ toJSON: () => "replaced" })', { toJSON: () => 'replaced' }],
    ];
    for (const [source, local] of pairs) expect(canonicalize(foreign(source)), source).toBe(canonicalize(local));
    expect(canonicalize(foreign('new Map([[2, "b"], [1, "a"]])'))).toBe('Map{1:"a",2:"b"}');
    expect(canonicalize(foreign('new Error("one")'))).toBe('Error{"message":"one","name":"Error"}');
  });

  it('keeps different values from another realm apart, and none equals {}', () => {
    const sources = ['new Error("one")', 'new Error("two")', 'new Map([[1, 2]])', 'new Map([[1, 3]])', 'new Set([1])', 'new Set([2])'];
    sources.push('Object(1)', 'Object(2)', 'new Date(0)', 'new Date(1)', '/a/', '/a/g', '({})');
    const forms = sources.map((source) => canonicalize(foreign(source)));
    expect(new Set(forms).size).toBe(forms.length);
  });

  it('recognises a local built-in whose tag was overwritten, by its prototype', () => {
    const map = Object.defineProperty(new Map([[1, 2]]), Symbol.toStringTag, { value: 'Other' });
    expect(canonicalize(map)).toBe('Map{1:2}');
    const date = Object.defineProperty(new Date(0), Symbol.toStringTag, { value: 'Map' });
    expect(canonicalize(date)).toBe('Date("1970-01-01T00:00:00.000Z")');
  });

  it('makes an object that claims a built-in by its tag, without the slot, unreadable', () => {
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
      expect(canonicalize({ inner: posing(tag), after: 1 }), tag).toMatch(/^\{"after":1,"inner":\[Unreadable:\d+\]\}$/);
    }
    // A claimed Error tag is not an error's slot: the object is written by its properties.
    expect(canonicalize(posing('Error'))).toBe('{"message":"x"}');
    expect(canonicalize(posing('Other'))).toBe('{"message":"x"}');
  });

  it('makes an object that claims a built-in by its prototype, without the slot, unreadable', () => {
    const prototypes: readonly (readonly [string, object])[] = [
      ['Map', Map.prototype],
      ['Set', Set.prototype],
      ['Date', Date.prototype],
      ['RegExp', RegExp.prototype],
      ['ArrayBuffer', ArrayBuffer.prototype],
      ['SharedArrayBuffer', SharedArrayBuffer.prototype],
      ['Number', Number.prototype],
      ['String', String.prototype],
      ['Boolean', Boolean.prototype],
      ['BigInt', BigInt.prototype],
      ['Symbol', Symbol.prototype],
    ];
    for (const [name, prototype] of prototypes) expect(canonicalize(Object.create(prototype)), name).toMatch(UNREADABLE);
  });

  it('writes a plain object by its properties whatever tag it carries', () => {
    expect(canonicalize({ [Symbol.toStringTag]: 'Map', a: 1 })).toBe('{"a":1}');
    expect(canonicalize(Object.assign(Object.create(null) as object, { [Symbol.toStringTag]: 'Date' }))).toBe('{}');
  });

  it('does not take RegExp.prototype, local or foreign, for a regular expression', () => {
    expect(canonicalize(RegExp.prototype)).toBe('{}');
    expect(canonicalize(foreign('RegExp.prototype'))).toBe('{}');
    const posing = Object.assign(foreign('RegExp.prototype') as object, { [Symbol.toStringTag]: 'RegExp' });
    expect(canonicalize(posing)).toMatch(UNREADABLE);
  });
});

describe('canonicalize: references', () => {
  it('writes a reference back to an ancestor with the ancestor depth', () => {
    const root: Record<string, unknown> = { a: 1 };
    root.self = root;
    expect(canonicalize(root)).toBe('{"a":1,"self":[Circular:0]}');
    const child: Record<string, unknown> = {};
    const top = { child: { inner: child } };
    child.up = top.child;
    expect(canonicalize(top)).toBe('{"child":{"inner":{"up":[Circular:1]}}}');
    const list: unknown[] = [1];
    list.push(list);
    expect(canonicalize(list)).toBe('[1,[Circular:0]]');
    const map = new Map<string, unknown>();
    map.set('me', map);
    expect(canonicalize(map)).toBe('Map{"me":[Circular:0]}');
  });

  it('writes shared references that are not cycles in full', () => {
    const shared = { v: 1 };
    expect(canonicalize({ a: shared, b: shared, c: [shared, shared] })).toBe(
      '{"a":{"v":1},"b":{"v":1},"c":[{"v":1},{"v":1}]}',
    );
  });

  it('writes an object holding a cycle by where it is met, each time', () => {
    const pad = Array.from({ length: 20 }, () => 0);
    const cyclic: Record<string, unknown> = { pad };
    cyclic.self = cyclic;
    expect(canonicalize([cyclic, { inner: cyclic }])).toBe(
      `[{"pad":[${pad.join(',')}],"self":[Circular:1]},{"inner":{"pad":[${pad.join(',')}],"self":[Circular:2]}}]`,
    );
  });
});

describe('canonicalize: cut-offs', () => {
  it('counts depth inside Sets, Maps, Errors and objects with many keys', () => {
    const set = new Set<unknown>([1]);
    set.add(set);
    expect(canonicalize(set)).toBe('Set[1,[Circular:0]]');
    const map = new Map<unknown, unknown>();
    map.set(map, 'self as key');
    expect(canonicalize(map)).toBe('Map{[Circular:0]:"self as key"}');
    const error = new Error('loop') as Error & { self?: unknown };
    error.self = { back: error };
    expect(canonicalize(error)).toBe('Error{"message":"loop","name":"Error","self":{"back":[Circular:0]}}');
    const wide: Record<string, unknown> = {};
    for (let index = 0; index < 70; index++) wide[`k${String(index).padStart(2, '0')}`] = index;
    wide.k00 = { back: wide };
    expect(canonicalize(wide).startsWith('{"k00":{"back":[Circular:0]},"k01":1,')).toBe(true);
    expect(canonicalize(nestArrays(MAX_DEPTH - 1, new Set([[1]])))).toBe(
      '['.repeat(MAX_DEPTH - 1) + `Set[${MAX_DEPTH_MARKER}]` + ']'.repeat(MAX_DEPTH - 1),
    );
    const restOfWide = canonicalize(wide).slice('{"k00":{"back":[Circular:0]},'.length);
    expect(canonicalize(nestArrays(MAX_DEPTH - 1, wide))).toBe(
      '['.repeat(MAX_DEPTH - 1) + `{"k00":${MAX_DEPTH_MARKER},` + restOfWide + ']'.repeat(MAX_DEPTH - 1),
    );
  });

  it(`writes ${String(MAX_DEPTH)} levels of nesting and cuts the next`, () => {
    expect(canonicalize(nestArrays(MAX_DEPTH, 1))).toBe('['.repeat(MAX_DEPTH) + '1' + ']'.repeat(MAX_DEPTH));
    expect(canonicalize(nestArrays(MAX_DEPTH + 1, 1))).toBe(
      '['.repeat(MAX_DEPTH) + MAX_DEPTH_MARKER + ']'.repeat(MAX_DEPTH),
    );
  });

  it('handles 200,000 levels of nesting without deep recursion', () => {
    expect(canonicalize(nestArrays(200_000, 1))).toBe(canonicalize(nestArrays(MAX_DEPTH + 1, 2)));
    let objects: unknown = 1;
    for (let level = 0; level < 200_000; level++) objects = { level: objects };
    expect(canonicalize(objects)).toBe('{"level":'.repeat(MAX_DEPTH) + MAX_DEPTH_MARKER + '}'.repeat(MAX_DEPTH));
  });

  it(`writes ${String(MAX_VALUES)} values and cuts the next, writing nothing after the cut`, () => {
    // The root array counts as one value.
    const fits = new Array<number>(MAX_VALUES - 1).fill(0);
    expectSameText(canonicalize(fits), `[${fits.join(',')}]`);
    const over = new Array<number>(MAX_VALUES).fill(0);
    expectSameText(canonicalize(over), `[${fits.join(',')},${TRUNCATED_MARKER}`);
    expectSameText(
      canonicalize({ a: over, b: 1 }),
      `{"a":[${new Array<number>(MAX_VALUES - 2).fill(0).join(',')},${TRUNCATED_MARKER}`,
    );
  });

  it('makes two huge values that agree up to the cut equal', () => {
    const left = new Array<number>(300_000).fill(1);
    const right = new Array<number>(300_000).fill(1);
    right[250_000] = 2;
    expect(canonicalize(left) === canonicalize(right)).toBe(true);
    right[150_000] = 2;
    expect(canonicalize(left) === canonicalize(right)).toBe(false);
  });

  it(`reads at most ${String(MAX_CHARACTERS)} characters of text, so many references to one string are cut by characters`, () => {
    const text = 'c'.repeat(2048);
    const quoted = JSON.stringify(text);
    const fits = MAX_CHARACTERS / text.length;
    expect(fits).toBe(8192);
    const form = canonicalize(Array.from({ length: fits + 5 }, () => text));
    expect(form.length).toBe(1 + fits * (quoted.length + 1) + TRUNCATED_MARKER.length);
    expect(form.endsWith(`,${quoted},${TRUNCATED_MARKER}`)).toBe(true);
    expect(canonicalize(Array.from({ length: fits - 1 }, () => text)).endsWith(`${quoted}]`)).toBe(true);
  });

  it('cuts a typed array at the value limit as it cuts an array', () => {
    const fits = new Float64Array(MAX_VALUES - 1);
    expect(canonicalize(fits).endsWith(',0,0]')).toBe(true);
    const form = canonicalize(new Float64Array(MAX_VALUES + 10));
    expect(form).toBe(`Float64Array${canonicalize(new Array<number>(MAX_VALUES + 10).fill(0))}`);
    expect(form.endsWith(`,0,${TRUNCATED_MARKER}`)).toBe(true);
  });
});

describe('canonicalize: strings too long to write out', () => {
  const long = 'q"\n'.repeat(LONG_STRING_LENGTH / 2).slice(0, LONG_STRING_LENGTH + 1);
  const token = `#s${String(LONG_STRING_LENGTH + 1)}:${publicHash(long)}`;

  it(`writes a string of ${String(LONG_STRING_LENGTH)} code units out, escaped as JSON escapes it`, () => {
    const text = 'a"\n\\'.repeat(LONG_STRING_LENGTH / 4);
    expect(text).toHaveLength(LONG_STRING_LENGTH);
    expectSameText(canonicalize(text), JSON.stringify(text));
  });

  it('writes a longer one as #s, its length and the hash of its raw text, in every place a string goes', () => {
    expect(token).toMatch(/^#s1048577:[0-9a-f]{28}$/);
    expect(canonicalize(long)).toBe(token);
    expect(canonicalize({ [long]: long })).toBe(`{${token}:${token}}`);
    expect(canonicalize([long, 'short'])).toBe(`[${token},"short"]`);
    expect(canonicalize(new Set([long]))).toBe(`Set[${token}]`);
    expect(canonicalize(new Map([[long, 1]]))).toBe(`Map{${token}:1}`);
    expect(canonicalize(Object(long))).toBe(token);
    expect(canonicalize(Symbol(long))).toBe(`Symbol(${token})`);
    expect(canonicalize(Object.defineProperty(() => 1, 'name', { value: long }))).toBe(`Function(${token})`);
    const source = 'r'.repeat(LONG_STRING_LENGTH);
    expect(canonicalize(new RegExp(source))).toBe(`RegExp(#s${String(LONG_STRING_LENGTH + 2)}:${publicHash(`/${source}/`)})`);
  });

  it('gives strings that differ anywhere different tokens, and a token never equals a quoted string', () => {
    const changedAtEnd = `${long.slice(0, -1)}x`;
    expect(canonicalize(changedAtEnd)).not.toBe(canonicalize(long));
    expect(canonicalize(`${long}x`)).not.toBe(canonicalize(long));
    expect(canonicalize(token)).toBe(JSON.stringify(token));
    expect(canonicalize(token)).not.toBe(canonicalize(long));
  });

  it('writes a string with lone surrogates and control characters as a token, never escaping it', () => {
    const controls = '\u0001\ud800'.repeat(LONG_STRING_LENGTH);
    expect(canonicalize({ nested: controls })).toBe(`{"nested":#s${String(controls.length)}:${publicHash(controls)}}`);
  });
});

describe('canonicalize: values that cannot be read', () => {
  it('gives a throwing getter a placeholder and keeps the rest', () => {
    const hostile = {
      get x(): number {
        throw new Error('no');
      },
      y: 1,
    };
    const form = canonicalize(hostile);
    expect(form).toMatch(/^\{"x":\[Unreadable:\d+\],"y":1\}$/);
  });

  it('never makes a placeholder equal to anything, itself included', () => {
    const hostile = {
      get x(): number {
        throw new Error('no');
      },
    };
    expect(canonicalize(hostile)).not.toBe(canonicalize(hostile));
    const placeholders = canonicalize([hostile, hostile, { again: hostile }]).match(/\[Unreadable:\d+\]/g) ?? [];
    expect(placeholders).toHaveLength(3);
    expect(new Set(placeholders).size).toBe(3);
  });

  it('gives revoked proxies a placeholder wherever they are', () => {
    expect(canonicalize(revokedProxy())).toMatch(UNREADABLE);
    expect(canonicalize({ p: revokedProxy() })).toMatch(/^\{"p":\[Unreadable:\d+\]\}$/);
    expect(canonicalize([revokedProxy(), 1])).toMatch(/^\[\[Unreadable:\d+\],1\]$/);
  });

  it('gives proxies whose traps throw a placeholder', () => {
    const throwing = (): never => {
      throw new Error('trap');
    };
    expect(canonicalize(new Proxy({}, { ownKeys: throwing }))).toMatch(UNREADABLE);
    expect(canonicalize(new Proxy({}, { getPrototypeOf: throwing }))).toMatch(UNREADABLE);
    // Looking for toJSON already reads the object.
    expect(canonicalize(new Proxy({ a: 1 }, { get: throwing }))).toMatch(UNREADABLE);
    const oneBadKey = new Proxy(
      { a: 1, b: 2 },
      { get: (target, key) => (key === 'a' ? throwing() : (Reflect.get(target, key) as unknown)) },
    );
    expect(canonicalize(oneBadKey)).toMatch(/^\{"a":\[Unreadable:\d+\],"b":2\}$/);
    expect(canonicalize(new Proxy([1, 2], { get: throwing }))).toMatch(UNREADABLE);
    expect(canonicalize(new Proxy(new Map([[1, 2]]), {}))).toMatch(UNREADABLE);
    expect(canonicalize(new Proxy(() => 1, { get: throwing }))).toMatch(UNREADABLE);
  });

  it('writes a readable proxy like its target', () => {
    expect(canonicalize(new Proxy({ b: 2, a: 1 }, {}))).toBe('{"a":1,"b":2}');
    expect(canonicalize(new Proxy([1, 2], {}))).toBe('[1,2]');
  });

  it('gives an array element that throws a placeholder', () => {
    const list = [1, 2];
    Object.defineProperty(list, 1, {
      get: () => {
        throw new Error('no');
      },
    });
    expect(canonicalize(list)).toMatch(/^\[1,\[Unreadable:\d+\]\]$/);
  });

  it('gives a throwing toJSON a placeholder', () => {
    const value = {
      toJSON: () => {
        throw new Error('no');
      },
    };
    expect(canonicalize({ value })).toMatch(/^\{"value":\[Unreadable:\d+\]\}$/);
  });

  it('gives an object posing as a Date a placeholder', () => {
    expect(canonicalize(Object.create(Date.prototype))).toMatch(UNREADABLE);
  });

  it('counts placeholders up across calls', () => {
    const first = Number(/\d+/.exec(canonicalize(revokedProxy()))?.[0]);
    const second = Number(/\d+/.exec(canonicalize(revokedProxy()))?.[0]);
    expect(second).toBe(first + 1);
  });
});

describe('canonicalize: re-entry', () => {
  it('lets a toJSON or getter canonicalize something else mid-walk, then carries on where it was', () => {
    const nested = { b: [1, { c: 2 }] };
    const nestedForm = '{"b":[1,{"c":2}]}';
    const seen: string[] = [];
    let reentries = 0;
    const root: Record<string, unknown> = {
      a: {
        toJSON: () => {
          seen.push(canonicalize(nested));
          return 'a';
        },
      },
      get z(): string {
        if (reentries++ === 0) seen.push(canonicalize([root]));
        return 'z';
      },
    };
    root.self = root;
    // Written after the re-entry: the cycle is still found at the right depth.
    root.zz = { back: root };
    expect(canonicalize(root)).toBe('{"a":"a","self":[Circular:0],"z":"z","zz":{"back":[Circular:0]}}');
    expect(seen).toEqual([
      nestedForm,
      nestedForm,
      '[{"a":"a","self":[Circular:1],"z":"z","zz":{"back":[Circular:1]}}]',
    ]);
  });

  it('lets go of the walked value once done', async () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const walk = (): WeakRef<object> => {
      const inner = { nested: [{ leaf: 1 }] };
      canonicalize({ outer: inner });
      return new WeakRef(inner);
    };
    const reference = walk();
    // A WeakRef keeps its target until the current job ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    expect(reference.deref()).toBeUndefined();
  });

  it('keeps the outer value budget across a re-entry', () => {
    const innerForm = canonicalize(new Array<number>(MAX_VALUES).fill(0));
    const heavy = { toJSON: () => canonicalize(new Array<number>(MAX_VALUES).fill(0)) === innerForm };
    // root, heavy, the array and its elements: exactly the budget, if the inner walk spent none of it.
    const fits = new Array<number>(MAX_VALUES - 3).fill(0);
    expectSameText(canonicalize([heavy, fits]), `[true,[${fits.join(',')}]]`);
  });
});

describe('canonicalize: shape of every form', () => {
  it('never starts with #', () => {
    const samples: unknown[] = ['#', '#1:ab', ['#'], { '#': 1 }, new Map([['#', '#']]), Symbol('#'), revokedProxy()];
    for (const sample of samples) expect(canonicalize(sample).startsWith('#')).toBe(false);
  });

  it('writes objects with overlapping sets of keys each by its own keys', () => {
    const rows = [{ a: 1, b: 2 }, { b: 3, a: 4 }, { a: 5, c: 6 }, { a: 7 }, { a: 8, b: 9 }];
    expect(canonicalize(rows)).toBe('[{"a":1,"b":2},{"a":4,"b":3},{"a":5,"c":6},{"a":7},{"a":8,"b":9}]');
  });
});

describe('canonicalize: bounded work on huge inputs', { timeout: 60_000 }, () => {
  it('reads at most the cut-off number of items of a 400,000-element array', () => {
    const big = new Array<number>(400_000).fill(7);
    const { value, reads } = countingReads(big);
    expect(typeof canonicalize(value)).toBe('string');
    expect(reads()).toBeGreaterThan(0);
    expect(reads()).toBeLessThanOrEqual(MAX_VALUES + 1);
  });

  it('cuts a 400,000-element array off: values that differ only past the cut compare equal, earlier ones do not', () => {
    const left = new Array<number>(400_000).fill(1);
    const right = left.slice();
    right[399_999] = 2;
    expect(canonicalize(right)).toBe(canonicalize(left));
    right[10] = 2;
    expect(canonicalize(right)).not.toBe(canonicalize(left));
  });

  it('handles nesting 200,000 levels deep without a stack overflow, cutting it at the depth limit', () => {
    const deep = nested(200_000, 'bottom');
    const otherBottom = nested(200_000, 'elsewhere');
    const form = canonicalize(deep);
    expect(typeof form).toBe('string');
    // A stack overflow caught and turned into a placeholder would never compare equal: equality proves the cut.
    expect(canonicalize(otherBottom)).toBe(form);
    expect(stableHash(otherBottom)).toBe(stableHash(deep));
    expect(canonicalize(nested(MAX_DEPTH - 2, 'a'))).not.toBe(canonicalize(nested(MAX_DEPTH - 2, 'b')));
  });

  it('reads a bounded number of levels of a 200,000-level structure', () => {
    let levels = 0;
    let value: unknown = 'bottom';
    for (let level = 0; level < 200_000; level++) {
      const inner = value;
      value = new Proxy({ inner }, { get: (target, key) => (key === 'inner' ? (levels++, target.inner) : undefined) });
    }
    canonicalize(value);
    expect(levels).toBeGreaterThan(0);
    expect(levels).toBeLessThanOrEqual(MAX_DEPTH + 1);
  });
});

describe('canonicalize: no prototype pollution', () => {
  expectPrototypesUntouched();

  it('treats an own __proto__ key as data: it is compared like any other key', () => {
    const withProto = JSON.parse('{"__proto__": {"a": 1}}') as unknown;
    const sameProto = JSON.parse('{"__proto__": {"a": 1}}') as unknown;
    const otherProto = JSON.parse('{"__proto__": {"a": 2}}') as unknown;
    expect(canonicalize(withProto)).toBe(canonicalize(sameProto));
    expect(canonicalize(withProto)).not.toBe(canonicalize(otherProto));
    expect(canonicalize(withProto)).not.toBe(canonicalize({}));
    expect(canonicalize(withProto)).not.toBe(canonicalize({ a: 1 }));
    expect(canonicalize({ constructor: 'x' })).not.toBe(canonicalize({}));
    expect(canonicalize({ prototype: 1 })).not.toBe(canonicalize({ prototype: 2 }));
  });
});
