import { afterEach, expect } from 'vitest';

/** Names and descriptors of a prototype's own properties, to compare before and after. */
function ownProperties(target: object): Map<string | symbol, PropertyDescriptor | undefined> {
  return new Map(Reflect.ownKeys(target).map((key) => [key, Object.getOwnPropertyDescriptor(target, key)]));
}

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype] as const;

/** Registers a check, after every test of the enclosing `describe`, that the built-in prototypes were not changed. */
export function expectPrototypesUntouched(): void {
  const before = PROTOTYPES.map(ownProperties);
  afterEach(() => {
    PROTOTYPES.forEach((prototype, index) => {
      expect(ownProperties(prototype)).toEqual(before[index]);
    });
  });
}

/** Objects with own `__proto__`, `constructor` and `prototype` keys, as `JSON.parse` and spreads create them. */
export function dangerousPayloads(): unknown[] {
  return [
    JSON.parse('{"__proto__": {"polluted": "yes", "isAdmin": true}}') as unknown,
    JSON.parse('{"constructor": {"prototype": {"polluted": "yes"}}}') as unknown,
    JSON.parse('{"prototype": {"polluted": "yes"}, "__proto__": null}') as unknown,
    JSON.parse('[{"__proto__": {"polluted": "yes"}}, {"a": {"__proto__": {"toString": "x"}}}]') as unknown,
    new Map([['__proto__', { polluted: 'yes' }]]),
    { ...(JSON.parse('{"__proto__": {"polluted": "yes"}}') as object) },
  ];
}
