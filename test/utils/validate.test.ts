import { describe, expect, it } from 'vitest';
import {
  booleanOption,
  describeValue,
  expectObject,
  integerOption,
  listOption,
  optionError,
  positiveNumber,
  ratioOption,
  amount,
  finite,
  flag,
  integer,
  list,
  nothing,
  nullable,
  record,
  savedArray,
  MAX_SAVED_DEPTH,
  savedError,
  savedJson,
  savedObject,
  stepIndexList,
  text,
} from '../../src/utils/validate.js';

function revoked<T extends object>(target: T): T {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
}

const optionMessage = (path: string, expected: string, got: string): TypeError =>
  new TypeError(`agent-loopguard: option "${path}" must be ${expected}, got ${got}.`);
const savedMessage = (path: string, expected: string, got: string): TypeError =>
  new TypeError(`agent-loopguard: snapshot field "${path}" must be ${expected}, got ${got}.`);

describe('describeValue', () => {
  it.each<[string, unknown, string]>([
    ['a short string, quoted', 'stop', '"stop"'],
    ['a string of 60 characters, quoted', 'x'.repeat(60), JSON.stringify('x'.repeat(60))],
    ['a longer string, by its length', 'x'.repeat(61), 'a string of 61 characters'],
    ['a bigint', 10n, '10n'],
    ['a number', -2.5, '-2.5'],
    ['NaN', Number.NaN, 'NaN'],
    ['a boolean', false, 'false'],
    ['null', null, 'null'],
    ['undefined', undefined, 'undefined'],
    ['a function', () => 1, 'a function'],
    ['an array', [1], 'an array'],
    ['an object', { a: 1 }, 'a value of type object'],
    ['a symbol', Symbol('s'), 'a value of type symbol'],
    ['a revoked proxy, which can no longer be told from an object', revoked([]), 'a value of type object'],
  ])('%s', (_label, value, described) => {
    expect(describeValue(value)).toBe(described);
  });
});

describe('option checks', () => {
  it('optionError throws the one kind of option error', () => {
    expect(() => optionError('a.b', 'something', 3)).toThrow(optionMessage('a.b', 'something', '3'));
  });

  describe('expectObject', () => {
    it('copies the own known keys of a plain object into a record without a prototype', () => {
      const record = expectObject('section', Object.assign(Object.create({ inherited: 1 }) as object, { a: 1 }), ['a', 'b', 'inherited']);
      expect(Object.getPrototypeOf(record)).toBeNull();
      expect({ ...record }).toEqual({ a: 1 });
    });

    it('names the options themselves at the top level, and the path below it', () => {
      expect(() => expectObject('', [], ['a'])).toThrow(optionMessage('options', 'an object', 'an array'));
      expect(() => expectObject('budget', null, ['a'])).toThrow(optionMessage('budget', 'an object', 'null'));
      expect(() => expectObject('budget', revoked({}), ['a'])).toThrow(optionMessage('budget', 'an object', 'a value of type object'));
    });

    it('refuses an unknown key, listing the known ones, with its full path', () => {
      expect(() => expectObject('', { maxStep: 1 }, ['maxSteps', 'now'])).toThrow(new TypeError('agent-loopguard: unknown option "maxStep" (known: maxSteps, now).'));
      expect(() => expectObject('oscillation', { period: 1 }, ['maxPeriod'])).toThrow(new TypeError('agent-loopguard: unknown option "oscillation.period" (known: maxPeriod).'));
    });

    it('names a key whose getter throws', () => {
      const value = Object.defineProperty({}, 'limit', {
        enumerable: true,
        get() {
          throw new Error('no');
        },
      });
      expect(() => expectObject('budget.maxCostUsd', value, ['limit'])).toThrow(
        new TypeError('agent-loopguard: option "budget.maxCostUsd.limit" could not be read: reading it threw.'),
      );
    });
  });

  it('integerOption takes integers from min to max, the fallback when absent, and says the range it wanted', () => {
    expect(integerOption('n', undefined, 1, 7)).toBe(7);
    expect(integerOption('n', 1, 1, 7)).toBe(1);
    expect(integerOption('n', Number.MAX_SAFE_INTEGER, 1, 7)).toBe(Number.MAX_SAFE_INTEGER);
    expect(integerOption('n', 64, 2, 3, 64)).toBe(64);
    expect(() => integerOption('n', 0, 1, 7)).toThrow(optionMessage('n', 'an integer of at least 1', '0'));
    expect(() => integerOption('n', 2 ** 53, 1, 7)).toThrow(optionMessage('n', 'an integer of at least 1', '9007199254740992'));
    expect(() => integerOption('n', 65, 2, 3, 64)).toThrow(optionMessage('n', 'an integer from 2 to 64', '65'));
    expect(() => integerOption('n', 1.5, 1, 7)).toThrow(optionMessage('n', 'an integer of at least 1', '1.5'));
    expect(() => integerOption('n', null, 1, 7)).toThrow(optionMessage('n', 'an integer of at least 1', 'null'));
  });

  it('listOption copies an array of at most maxItems items, and refuses anything else', () => {
    const list = ['a'];
    const copy = listOption('l', list, 2, 'a list');
    expect(copy).toEqual(['a']);
    expect(copy).not.toBe(list);
    expect(listOption('l', ['a', 'b'], 2, 'a list')).toEqual(['a', 'b']);
    expect(() => listOption('l', ['a', 'b', 'c'], 2, 'a list')).toThrow(optionMessage('l', 'a list of at most 2 items', 'an array'));
    expect(() => listOption('l', 'a', 2, 'a list')).toThrow(optionMessage('l', 'a list', '"a"'));
    expect(() => listOption('l', revoked([]), 2, 'a list')).toThrow(optionMessage('l', 'a list', 'a value of type object'));
  });

  it('booleanOption takes true or false, or the fallback when absent', () => {
    expect(booleanOption('b', undefined, true)).toBe(true);
    expect(booleanOption('b', false, true)).toBe(false);
    expect(() => booleanOption('b', 0, true)).toThrow(optionMessage('b', 'true or false', '0'));
  });

  it('positiveNumber takes finite numbers greater than 0', () => {
    expect(positiveNumber('p', Number.MIN_VALUE)).toBe(Number.MIN_VALUE);
    expect(positiveNumber('p', Number.MAX_VALUE)).toBe(Number.MAX_VALUE);
    for (const [value, shown] of [[0, '0'], [-1, '-1'], [Infinity, 'Infinity'], ['1', '"1"']] as const) {
      expect(() => positiveNumber('p', value)).toThrow(optionMessage('p', 'a finite number greater than 0', shown));
    }
  });

  it('ratioOption takes numbers greater than 0 and at most 1', () => {
    expect(ratioOption('r', 1)).toBe(1);
    expect(ratioOption('r', Number.MIN_VALUE)).toBe(Number.MIN_VALUE);
    for (const [value, shown] of [[0, '0'], [1.0000001, '1.0000001'], [Number.NaN, 'NaN'], ['0.5', '"0.5"']] as const) {
      expect(() => ratioOption('r', value)).toThrow(optionMessage('r', 'a number greater than 0 and at most 1', shown));
    }
  });
});

describe('snapshot field checks', () => {
  it('savedError throws the one kind of snapshot error', () => {
    expect(() => savedError('a[0]', 'something', 'x')).toThrow(savedMessage('a[0]', 'something', '"x"'));
  });

  it('savedObject takes a plain object, not null, an array or a primitive', () => {
    const value = { a: 1 };
    expect(savedObject(value, 'o')).toBe(value);
    for (const [bad, shown] of [[null, 'null'], [[], 'an array'], ['x', '"x"'], [undefined, 'undefined']] as const) {
      expect(() => savedObject(bad, 'o')).toThrow(savedMessage('o', 'an object', shown));
    }
  });

  it('savedArray takes an array of at most maxItems items', () => {
    expect(savedArray([1, 2], 'a', 2)).toEqual([1, 2]);
    expect(savedArray([], 'a')).toEqual([]);
    expect(() => savedArray([1, 2, 3], 'a', 2)).toThrow(savedMessage('a', 'an array of at most 2 items', 'an array'));
    expect(() => savedArray({ length: 0 }, 'a')).toThrow(savedMessage('a', 'an array', 'a value of type object'));
  });

  it('integer takes integers from min to max', () => {
    expect(integer()(0, 'i')).toBe(0);
    expect(integer(5, 5)(5, 'i')).toBe(5);
    expect(() => integer()(-1, 'i')).toThrow(savedMessage('i', `an integer from 0 to ${String(Number.MAX_SAFE_INTEGER)}`, '-1'));
    expect(() => integer(1, 5)(6, 'i')).toThrow(savedMessage('i', 'an integer from 1 to 5', '6'));
    expect(() => integer(0, 5)(0.5, 'i')).toThrow(savedMessage('i', 'an integer from 0 to 5', '0.5'));
  });

  it('finite, amount, text and flag take their type and nothing else', () => {
    expect(finite(-1.5, 'n')).toBe(-1.5);
    expect(() => finite(Infinity, 'n')).toThrow(savedMessage('n', 'a finite number', 'Infinity'));
    expect(() => finite('1', 'n')).toThrow(savedMessage('n', 'a finite number', '"1"'));
    expect(amount(0, 'n')).toBe(0);
    expect(() => amount(-0.5, 'n')).toThrow(savedMessage('n', 'a finite number of at least 0', '-0.5'));
    expect(() => amount(Number.NaN, 'n')).toThrow(savedMessage('n', 'a finite number of at least 0', 'NaN'));
    expect(text('', 's')).toBe('');
    expect(() => text(1, 's')).toThrow(savedMessage('s', 'a string', '1'));
    expect(flag(false, 'b')).toBe(false);
    expect(() => flag('true', 'b')).toThrow(savedMessage('b', 'true or false', '"true"'));
  });

  it('nullable reads null as null and anything else with the check given', () => {
    expect(nullable(text)(null, 'o')).toBeNull();
    expect(nullable(text)('x', 'o')).toBe('x');
    expect(() => nullable(text)(undefined, 'o')).toThrow(savedMessage('o', 'a string', 'undefined'));
  });

  it('list checks every item, named by its index, and its length', () => {
    expect(list(integer())([1, 2], 'l')).toEqual([1, 2]);
    expect(() => list(integer())([1, -2], 'l')).toThrow(savedMessage('l[1]', `an integer from 0 to ${String(Number.MAX_SAFE_INTEGER)}`, '-2'));
    expect(() => list(text, 1)(['a', 'b'], 'l')).toThrow(savedMessage('l', 'an array of at most 1 items', 'an array'));
  });

  it('record checks every field it names, by its path, and keeps only those', () => {
    const check = record({ a: integer(), b: nullable(record({ c: text })) });
    expect(check({ a: 1, b: { c: 'x', d: 2 }, e: 3 }, 'r')).toEqual({ a: 1, b: { c: 'x' } });
    expect(() => check({ a: 1, b: { c: 2 } }, 'r')).toThrow(savedMessage('r.b.c', 'a string', '2'));
    expect(() => check([], 'r')).toThrow(savedMessage('r', 'an object', 'an array'));
    // At the top of a snapshot a field is named by itself, and the snapshot as a whole as "snapshot".
    expect(() => check({ a: 'x' }, '')).toThrow(savedMessage('a', `an integer from 0 to ${String(Number.MAX_SAFE_INTEGER)}`, '"x"'));
    expect(() => check(null, '')).toThrow(savedMessage('snapshot', 'an object', 'null'));
  });

  it('nothing takes null, the state of a detector that keeps none', () => {
    expect(nothing(null, 'detectors.budget')).toBeNull();
    expect(() => nothing({}, 'detectors.budget')).toThrow(savedMessage('detectors.budget', 'null (the detector keeps no state)', 'a value of type object'));
    expect(() => nothing(undefined, 'detectors.budget')).toThrow(savedMessage('detectors.budget', 'null (the detector keeps no state)', 'undefined'));
  });
});

describe('savedJson', () => {
  it('names the snapshot itself at the top level, and the field below it', () => {
    expect(() => savedJson(Number.NaN, '')).toThrow(savedMessage('snapshot', 'a finite number (a snapshot is JSON)', 'NaN'));
    expect(() => savedJson({ a: [1, Number.NaN] }, '')).toThrow(savedMessage('a[1]', 'a finite number (a snapshot is JSON)', 'NaN'));
  });

  it(`takes data ${String(MAX_SAVED_DEPTH)} objects deep, and refuses one level more`, () => {
    const nested = (depth: number): unknown => (depth === 1 ? [] : [nested(depth - 1)]);
    expect(() => savedJson(nested(MAX_SAVED_DEPTH), '')).not.toThrow();
    expect(() => savedJson(nested(MAX_SAVED_DEPTH + 1), '')).toThrow(/must be JSON data at most 100 levels deep, got an array\.$/);
  });

  it('copies an object without a prototype, as it copies a plain one', () => {
    const bare = Object.assign(Object.create(null) as object, { a: 1 });
    expect(savedJson(bare, '')).toEqual({ a: 1 });
  });

  it('leaves out properties that are undefined, and makes the others plain, writable properties', () => {
    const copy = savedJson({ gone: undefined, kept: 1 }, '') as Record<string, unknown>;
    expect(Object.keys(copy)).toEqual(['kept']);
    expect(Object.getOwnPropertyDescriptor(copy, 'kept')).toEqual({ value: 1, writable: true, enumerable: true, configurable: true });
  });
});

describe('stepIndexList', () => {
  it('takes step indexes of the run, each above the one before', () => {
    expect(stepIndexList(10)([0, 3, 9], 'i')).toEqual([0, 3, 9]);
    expect(() => stepIndexList(10)([2, 2], 'i')).toThrow(savedMessage('i[1]', 'a step index above the one before', '2'));
    expect(() => stepIndexList(10)([3, 2], 'i')).toThrow(savedMessage('i[1]', 'a step index above the one before', '2'));
    expect(() => stepIndexList(10)([10], 'i')).toThrow(savedMessage('i[0]', 'an integer from 0 to 9', '10'));
  });
});
