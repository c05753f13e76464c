import { runInNewContext } from 'node:vm';
import { canonicalize, createGuard } from '../../src/index.js';

/**
 * Values built to break code that reads them: throwing getters and traps, revoked proxies, self-referencing
 * `toJSON`, cycles, detached buffers, endless lazy structures and the like. Each factory builds a fresh value,
 * because some of them (revoked proxies, detached buffers) change state once used; only what can never change is
 * shared (the rejected promise). Building a value must leave nothing behind that keeps the caller's data alive.
 */

function fail(): never {
  throw new Error('hostile value: read refused');
}

function throwingGetter(): unknown {
  const value: Record<string, unknown> = { before: 1 };
  Object.defineProperty(value, 'boom', { enumerable: true, get: fail });
  value.after = 2;
  return value;
}

/** Throws things that are not errors: code that inspects what it caught must cope. */
function getterThrowingOddValues(): unknown {
  const value = {};
  const thrown: unknown[] = [undefined, null, 'a string', Symbol('thrown'), 42n, { message: 'not an Error' }];
  thrown.forEach((item, index) => {
    Object.defineProperty(value, `odd${String(index)}`, {
      enumerable: true,
      get() {
        throw item;
      },
    });
  });
  return value;
}

function revokedProxy(target: object): unknown {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
}

const ALL_TRAPS = [
  'apply',
  'construct',
  'defineProperty',
  'deleteProperty',
  'get',
  'getOwnPropertyDescriptor',
  'getPrototypeOf',
  'has',
  'isExtensible',
  'ownKeys',
  'preventExtensions',
  'set',
  'setPrototypeOf',
] as const;

/** A proxy on which every operation throws. */
function proxyWhoseTrapsThrow(target: object): unknown {
  const handler: ProxyHandler<object> = {};
  for (const trap of ALL_TRAPS) (handler as Record<string, unknown>)[trap] = fail;
  return new Proxy(target, handler);
}

/** Lists keys, then throws when one is read: enumeration succeeds, reading does not. */
function proxyWhoseGetThrows(): unknown {
  return new Proxy({ a: 1, b: 2 }, { get: fail });
}

/** Claims a prototype read throws, which breaks `instanceof` and `Object.getPrototypeOf`. */
function proxyWhosePrototypeThrows(): unknown {
  return new Proxy({ a: 1 }, { getPrototypeOf: fail });
}

/** An array proxy whose `length` is a value that throws when compared, or is endless. */
function arrayProxyWithLength(length: unknown): unknown {
  return new Proxy([1, 2, 3], {
    get(target, key, receiver) {
      if (key === 'length') return length;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

/** A structure that is new at every level, so only a depth limit ends a walk through it. */
function endlessProxy(depth = 0): unknown {
  return new Proxy(
    {},
    {
      ownKeys: () => ['next', 'depth'],
      getOwnPropertyDescriptor: (_target, key) => ({
        configurable: true,
        enumerable: true,
        writable: true,
        value: key === 'depth' ? depth : undefined,
      }),
      get: (_target, key) => (key === 'next' ? endlessProxy(depth + 1) : key === 'depth' ? depth : undefined),
    },
  );
}

function toJsonThrows(): unknown {
  return { a: 1, toJSON: fail };
}

function toJsonReturnsItself(): unknown {
  const value = {
    a: 1,
    toJSON(): unknown {
      return value;
    },
  };
  return value;
}

/** Every call of `toJSON` returns a fresh object that has a `toJSON` again: an endless chain. */
function toJsonEndlessChain(): unknown {
  const make = (level: number): unknown => ({ level, toJSON: () => make(level + 1) });
  return make(0);
}

function toJsonGetterThrows(): unknown {
  const value = { a: 1 };
  Object.defineProperty(value, 'toJSON', { enumerable: false, get: fail });
  return value;
}

function selfCycle(): unknown {
  const value: Record<string, unknown> = { name: 'self' };
  value.self = value;
  value.list = [value, { back: value }];
  return value;
}

function arrayCycle(): unknown {
  const value: unknown[] = [1];
  value.push(value, [value]);
  return value;
}

function mapAndSetCycles(): unknown {
  const map = new Map<unknown, unknown>();
  const set = new Set<unknown>();
  map.set(map, set);
  map.set('self', map);
  set.add(set);
  set.add(map);
  return { map, set };
}

function sparseArray(): unknown {
  const value: unknown[] = [];
  value[0] = 'first';
  value[9] = 'tenth';
  return value;
}

/** The longest array JavaScript allows, all holes. */
function hugeSparseArray(): unknown {
  const value: unknown[] = [];
  value.length = 2 ** 32 - 1;
  value[5] = 'x';
  return value;
}

function typedArrays(): unknown {
  return [
    new Uint8Array([1, 2, 255]),
    new Float64Array([Number.NaN, -0, Infinity]),
    new BigInt64Array([-(2n ** 63n), 2n ** 63n - 1n]),
    new Uint8ClampedArray(0),
    new DataView(new ArrayBuffer(4)),
    new ArrayBuffer(8),
  ];
}

/** A buffer handed to someone else: every view of it now reads as empty or throws. */
function detachedBuffers(): unknown {
  const buffer = new ArrayBuffer(16);
  const view = new Uint8Array(buffer);
  const dataView = new DataView(buffer);
  structuredClone(buffer, { transfer: [buffer] });
  return { buffer, view, dataView };
}

function symbols(): unknown {
  return {
    plain: Symbol('local'),
    registered: Symbol.for('agent-loopguard.fuzz'),
    wellKnown: Symbol.iterator,
    [Symbol('key')]: 'value under a symbol key',
  };
}

function functions(): unknown {
  function named(this: unknown): void {
    // Present only to be read.
  }
  const withProperties = Object.assign(() => 1, { extra: { nested: true } });
  return [
    named,
    withProperties,
    async () => {
      await Promise.resolve();
    },
    function* generator(): Generator<number> {
      yield 1;
    },
    class Local {
      readonly field = 1;
    },
    named.bind(null),
    Math.max,
  ];
}

function nullPrototype(): unknown {
  const value = Object.create(null) as Record<string, unknown>;
  value.a = 1;
  value.nested = Object.create(null) as unknown;
  // Where an ordinary object has methods, this one has data.
  Object.defineProperty(value, 'toString', { value: 'not a function', enumerable: true });
  Object.defineProperty(value, 'valueOf', { value: 5, enumerable: true });
  return value;
}

function hugeBigInts(): unknown {
  return [2n ** 100_000n, -(2n ** 4096n) + 1n, 0n, -0n];
}

function invalidDates(): unknown {
  const overridden = new Date(0);
  Object.defineProperty(overridden, 'toISOString', { value: fail });
  Object.defineProperty(overridden, 'getTime', { value: fail });
  class OddDate extends Date {
    override valueOf(): number {
      return fail();
    }
  }
  return [new Date(Number.NaN), new Date(8.64e15 + 1), overridden, new OddDate(0)];
}

function errors(): unknown {
  const withCycle = new Error('cycle') as Error & { self?: unknown };
  withCycle.cause = withCycle;
  withCycle.self = withCycle;
  const withHostileMessage = new TypeError('hidden');
  // The stack first: redefining it makes V8 format the stack, which reads the message.
  Object.defineProperty(withHostileMessage, 'stack', { enumerable: true, get: fail });
  Object.defineProperty(withHostileMessage, 'message', { enumerable: true, get: fail });
  return [
    new Error('plain'),
    new RangeError('range'),
    new AggregateError([new Error('inner')], 'many'),
    withCycle,
    withHostileMessage,
  ];
}

/**
 * One rejected promise for every call: a settled promise never changes, so sharing it hides nothing. A fresh one per
 * call would queue a rejection job (its handler) and an entry in Node's list of rejections to check, and both hold the
 * reason, whose unread stack holds every frame's function and receiver, and so whatever the caller's closures hold
 * (the guard of a fuzz run with all it remembered), until the microtask queue drains. A synchronous fast-check run
 * drains it only when the property ends: under vitest that kept about 75 KB a run, 4 GB by 53,000 runs.
 */
const REJECTED = Promise.reject(new Error('rejected on purpose'));
// Handled here so the test process does not report an unhandled rejection.
REJECTED.catch(() => undefined);

function promises(): unknown {
  const thenable = { then: fail };
  return [Promise.resolve(1), new Promise<never>(() => undefined), REJECTED, thenable];
}

function weakCollections(): unknown {
  const key = {};
  return [new WeakMap([[key, 1]]), new WeakSet([key]), new WeakRef(key)];
}

/** A Map and a Set whose own iteration methods throw, and a proxy around a Map (its methods reject the proxy). */
function hostileCollections(): unknown {
  const map = new Map([['a', 1]]);
  Object.defineProperty(map, 'entries', { value: fail });
  Object.defineProperty(map, 'forEach', { value: fail });
  Object.defineProperty(map, Symbol.iterator, { value: fail });
  const set = new Set([1]);
  Object.defineProperty(set, 'values', { value: fail });
  Object.defineProperty(set, Symbol.iterator, { value: fail });
  Object.defineProperty(set, 'size', { get: fail });
  return [map, set, new Proxy(new Map([['b', 2]]), {}), new Proxy(new Set([3]), {})];
}

function coercionTraps(): unknown {
  return {
    toPrimitive: { [Symbol.toPrimitive]: fail },
    valueOf: { valueOf: fail, toString: fail },
    constructorGetter: Object.defineProperty({}, 'constructor', { enumerable: true, get: fail }),
    tag: { [Symbol.toStringTag]: 'Map' },
    lengthLike: { length: 2 ** 53 - 1, 0: 'a' },
  };
}

/** A getter that changes the object while it is being read, and one that answers differently each time. */
function shiftingObject(): unknown {
  let reads = 0;
  const value: Record<string, unknown> = {};
  Object.defineProperty(value, 'grow', {
    enumerable: true,
    get() {
      reads++;
      value[`added${String(reads)}`] = reads;
      return reads;
    },
  });
  return value;
}

/** Containers that grow while they are read: every read of an item adds another one. */
function growingContainers(): unknown {
  const array: unknown[] = [];
  Object.defineProperty(array, 0, {
    enumerable: true,
    get() {
      array.push({ grown: array.length });
      return 'first';
    },
  });
  const map = new Map<unknown, unknown>();
  const grower = {
    get more(): number {
      map.set(`key${String(map.size)}`, grower);
      return map.size;
    },
  };
  map.set('start', grower);
  const set = new Set<unknown>();
  const setGrower = {
    get more(): number {
      set.add({ more: set.size });
      return set.size;
    },
  };
  set.add(setGrower);
  return { array, map, set };
}

/** A getter that calls back into the library while it is being read. */
function reentrantGetter(read: (value: unknown) => unknown): unknown {
  return {
    get inner(): unknown {
      return read({ nested: [1, 2, { deeper: true }] });
    },
  };
}

function boxedAndOdd(): unknown {
  return [
    Object('boxed string') as unknown,
    Object(1) as unknown,
    Object(10n) as unknown,
    Object(Symbol('boxed')) as unknown,
    /re(g)ex/giu,
    new URL('https://example.com/a?b=c'),
    Number.NaN,
    -0,
    Infinity,
    -Infinity,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    '\ud800 lone surrogate',
    '\u0000nul',
    undefined,
    null,
  ];
}

/** Built-ins from another realm (`node:vm`), which `instanceof` does not recognise. */
function foreignBuiltIns(): unknown {
  return runInNewContext(
    '[new Map([[1, new Set([2])]]), new Error("foreign", { cause: 1 }), new Date(0), /x/g, Object(5), new Uint8Array([1]).buffer]',
  );
}

/** Objects whose Symbol.toStringTag claims a built-in their internal slots do not back. */
function posingBuiltIns(): unknown {
  return ['Map', 'Set', 'Date', 'Error', 'RegExp', 'Number', 'ArrayBuffer'].map((tag) => {
    class Posing {
      readonly claims = tag;
      get [Symbol.toStringTag](): string {
        return tag;
      }
    }
    return new Posing();
  });
}

/** The same long string and the same object many times over, as in one step that repeats a search result. */
function sharedGiants(): unknown {
  const text = 'shared text '.repeat(200);
  const hit = { text, items: Array.from({ length: 50 }, (_, index) => ({ index, text })) };
  // About 24 Mi characters in all: past the 16 Mi a value may read, so the budget, not the memory, ends the read.
  return Array.from({ length: 200 }, () => hit);
}

/** Named factories of hostile values, each call building a new one. */
export const HOSTILE_FACTORIES: Readonly<Record<string, () => unknown>> = {
  throwingGetter,
  getterThrowingOddValues,
  revokedObjectProxy: () => revokedProxy({ a: 1 }),
  revokedArrayProxy: () => revokedProxy([1, 2]),
  revokedFunctionProxy: () => revokedProxy(() => 1),
  objectProxyWhoseTrapsThrow: () => proxyWhoseTrapsThrow({ a: 1 }),
  arrayProxyWhoseTrapsThrow: () => proxyWhoseTrapsThrow([1, 2]),
  functionProxyWhoseTrapsThrow: () => proxyWhoseTrapsThrow(() => 1),
  proxyWhoseGetThrows,
  proxyWhosePrototypeThrows,
  arrayProxyWithEndlessLength: () => arrayProxyWithLength(Infinity),
  arrayProxyWithHugeLength: () => arrayProxyWithLength(2 ** 53 - 1),
  arrayProxyWithThrowingLength: () => arrayProxyWithLength({ valueOf: fail }),
  arrayProxyWithSymbolLength: () => arrayProxyWithLength(Symbol('length')),
  arrayProxyWithNegativeLength: () => arrayProxyWithLength(-1),
  endlessProxy: () => endlessProxy(),
  toJsonThrows,
  toJsonReturnsItself,
  toJsonEndlessChain,
  toJsonGetterThrows,
  toJsonNotAFunction: () => ({ toJSON: 5, a: 1 }),
  selfCycle,
  arrayCycle,
  mapAndSetCycles,
  sparseArray,
  hugeSparseArray,
  typedArrays,
  detachedBuffers,
  symbols,
  functions,
  nullPrototype,
  hugeBigInts,
  invalidDates,
  errors,
  promises,
  weakCollections,
  hostileCollections,
  coercionTraps,
  shiftingObject,
  growingContainers,
  reentrantCanonicalize: () => reentrantGetter(canonicalize),
  reentrantGuard: () => reentrantGetter((value) => createGuard().check({ toolCalls: [{ name: 'inner', args: value }] })),
  boxedAndOdd,
  foreignBuiltIns,
  posingBuiltIns,
  sharedGiants,
};

/** One of each hostile value, fresh. */
export function allHostileValues(): [string, unknown][] {
  return Object.entries(HOSTILE_FACTORIES).map(([name, make]) => [name, make()]);
}
