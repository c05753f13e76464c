/**
 * The reading of canonical forms below `canonicalize`: the budgets and cuts with limits small enough to reach in a
 * test, the tokens with the hash a guard keys, and the step budget a `StepReader` shares between a step's reads. The
 * rules themselves, at their documented sizes, are tested through `canonicalize` in canonicalize.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/canonical/canonicalize.js';
import {
  BIGINT_BOUND,
  COMPARISON_KEY_LIMIT,
  DEFAULT_LIMITS,
  LONG_STRING_LENGTH,
  MAX_BIGINT_BITS,
  MAX_CHARACTERS,
  MAX_DEPTH,
  MAX_DEPTH_MARKER,
  MAX_VALUES,
  RAW_STRING_LENGTH,
  type ReadLimits,
  readForm,
  STEP_CHARACTERS,
  STEP_VALUES,
  TRUNCATED_MARKER,
} from '../../src/canonical/form.js';
import { keyedHash } from '../../src/canonical/hash.js';
import { StepReader } from '../../src/canonical/step-reader.js';
import { countingReads, objectWithKeys } from '../support/huge-values.js';
import { referenceHash } from '../support/sip-hash-reference.js';

const KEY = '0123456789abcdef0123456789abcdef';
const HASH = keyedHash(KEY);
const UNREADABLE = /^\[Unreadable:\d+\]$/;

/** Limits small enough to reach in a test. */
const SMALL: ReadLimits = { maxDepth: 6, maxValues: 10, maxCharacters: 100, stepValues: 25, stepCharacters: 250 };
/** Limits that cut nothing a test here builds, but characters and values where a test shrinks one of them. */
const ROOMY: ReadLimits = { maxDepth: 64, maxValues: 1000, maxCharacters: 10_000, stepValues: 10_000, stepCharacters: 100_000 };

/** One fresh read under the keyed hash; strings longer than `tokenFrom` become tokens. */
const read = (value: unknown, limits: ReadLimits = SMALL, tokenFrom = LONG_STRING_LENGTH): string =>
  readForm(value, HASH, tokenFrom, undefined, limits).form;

/** The keyed token of a string, its hash computed by the reference SipHash. */
const token = (text: string): string => `#s${String(text.length)}:${referenceHash(text, KEY)}`;

const zeros = (count: number): number[] => new Array<number>(count).fill(0);

describe('the documented limits', () => {
  it('have the values the canonicalize documentation and the README state', () => {
    expect([MAX_DEPTH, MAX_VALUES, MAX_CHARACTERS, LONG_STRING_LENGTH]).toEqual([64, 200_000, 2 ** 24, 2 ** 20]);
    expect([RAW_STRING_LENGTH, MAX_BIGINT_BITS, STEP_VALUES, STEP_CHARACTERS, COMPARISON_KEY_LIMIT]).toEqual([1024, 65_536, 2_000_000, 2 ** 26, 256]);
    expect([MAX_DEPTH_MARKER, TRUNCATED_MARKER]).toEqual(['[MaxDepth]', '[Truncated]']);
    expect(BIGINT_BOUND).toBe(2n ** 65_536n);
    expect(DEFAULT_LIMITS).toEqual({ maxDepth: 64, maxValues: 200_000, maxCharacters: 2 ** 24, stepValues: 2_000_000, stepCharacters: 2 ** 26 });
    expect(Object.isFrozen(DEFAULT_LIMITS)).toBe(true);
  });
});

describe('readForm: strings longer than the read allows', () => {
  it('writes them as #s, the length and the keyed hash of the raw text, in every place a string goes', () => {
    const long = 'q"\n\ud800'.repeat(3);
    const expected = token(long);
    expect(expected).toMatch(/^#s12:[0-9a-f]{28}$/);
    const cases: readonly (readonly [unknown, string])[] = [
      [long, expected],
      [{ [long]: long }, `{${expected}:${expected}}`],
      [[long], `[${expected}]`],
      [new Set([long]), `Set[${expected}]`],
      [new Map([[long, long]]), `Map{${expected}:${expected}}`],
      [Object(long), expected],
      [Symbol(long), `Symbol(${expected})`],
      [Object.defineProperty(() => 1, 'name', { value: long }), `Function(${expected})`],
      [new RegExp('r'.repeat(9)), `RegExp(${token(`/${'r'.repeat(9)}/`)})`],
      [new Error(long), `Error{"message":${expected},"name":"Error"}`],
      [{ toJSON: () => long }, expected],
    ];
    for (const [value, form] of cases) expect(read(value, ROOMY, 10)).toBe(form);
  });

  it('writes strings up to that length quoted, however they are escaped', () => {
    const fits = 'q"\n\ud800'.repeat(2) + 'ab';
    expect(read([fits, Symbol(fits), new RegExp('r'.repeat(8))], ROOMY, 10)).toBe(
      `[${JSON.stringify(fits)},Symbol(${JSON.stringify(fits)}),RegExp("/rrrrrrrr/")]`,
    );
  });

  it('gives a token that differs from the quoted string it spells, and from the token under another key', () => {
    const long = 'x'.repeat(11);
    const form = read(long, ROOMY, 10);
    expect(read(form, ROOMY, 100)).toBe(JSON.stringify(form));
    expect(readForm(long, keyedHash('f'.repeat(32)), 10).form).not.toBe(form);
  });
});

describe('readForm: the character budget', () => {
  it('cuts at the string that would pass it, counting each string by its length', () => {
    const ten = 'x'.repeat(10);
    const limits: ReadLimits = { ...ROOMY, maxCharacters: 100 };
    expect(read(Array.from({ length: 10 }, () => ten), limits)).toBe(JSON.stringify(Array.from({ length: 10 }, () => ten)));
    const reading = readForm(Array.from({ length: 11 }, () => ten), HASH, LONG_STRING_LENGTH, undefined, limits);
    expect(reading).toEqual({ form: `[${Array.from({ length: 10 }, () => JSON.stringify(ten)).join(',')},${TRUNCATED_MARKER}`, cut: true, stepSpent: false });
  });

  it('counts what escaping adds as nothing, and a string written as a token by its length', () => {
    const limits: ReadLimits = { ...ROOMY, maxCharacters: 100 };
    const quotes = '"'.repeat(50);
    expect(read([quotes, quotes], limits)).toBe(`[${JSON.stringify(quotes)},${JSON.stringify(quotes)}]`);
    const thirty = 't'.repeat(30);
    expect(read([thirty, thirty, thirty], limits, 10)).toBe(`[${token(thirty)},${token(thirty)},${token(thirty)}]`);
    expect(read([thirty, thirty, thirty, 'y'.repeat(10)], limits, 10)).toBe(`[${token(thirty)},${token(thirty)},${token(thirty)},"yyyyyyyyyy"]`);
    expect(read([thirty, thirty, thirty, 'y'.repeat(11)], limits, 10)).toBe(`[${token(thirty)},${token(thirty)},${token(thirty)},${TRUNCATED_MARKER}`);
  });

  it(`counts a string longer than ${String(LONG_STRING_LENGTH)} code units as that many`, () => {
    const limits: ReadLimits = { ...ROOMY, maxCharacters: 2 * LONG_STRING_LENGTH + 5, stepCharacters: 4 * LONG_STRING_LENGTH };
    const long = 'L'.repeat(LONG_STRING_LENGTH + 1);
    const longToken = `#s${String(long.length)}:${HASH(long)}`;
    expect(read([long, long, 'abcde'], limits)).toBe(`[${longToken},${longToken},"abcde"]`);
    expect(read([long, long, 'abcdef'], limits)).toBe(`[${longToken},${longToken},${TRUNCATED_MARKER}`);
  });

  it('counts property names, cutting at the name that would pass it, and not the names of undefined members', () => {
    const key = 'k'.repeat(30);
    const value = { [`${key}1`]: 1, [`${key}2`]: 2, [`${key}3`]: 3, [`${key}4`]: 4 };
    expect(read(value, ROOMY)).toBe(`{"${key}1":1,"${key}2":2,"${key}3":3,"${key}4":4}`);
    expect(read(value, { ...ROOMY, maxCharacters: 100 })).toBe(`{"${key}1":1,"${key}2":2,"${key}3":3,${TRUNCATED_MARKER}`);
    expect(read({ [`${key}1`]: undefined, [`${key}2`]: undefined, [`${key}3`]: 1, [`${key}4`]: 2 }, { ...ROOMY, maxCharacters: 62 })).toBe(
      `{"${key}3":1,"${key}4":2}`,
    );
  });

  it('counts symbol descriptions, function names, regular expressions and bigint digits', () => {
    const limits: ReadLimits = { ...ROOMY, maxCharacters: 100 };
    const name = 'n'.repeat(39);
    const named = Object.defineProperty(() => 1, 'name', { value: name });
    expect(read([named, named, named], limits)).toBe(`[Function("${name}"),Function("${name}"),${TRUNCATED_MARKER}`);
    expect(read([Symbol(name), Symbol(name), Symbol(name)], limits)).toBe(`[Symbol("${name}"),Symbol("${name}"),${TRUNCATED_MARKER}`);
    const pattern = new RegExp('r'.repeat(35));
    expect(read([pattern, pattern, pattern], limits)).toBe(`[RegExp("/${'r'.repeat(35)}/"),RegExp("/${'r'.repeat(35)}/"),${TRUNCATED_MARKER}`);
    const digits = String(2n ** 63n);
    expect(digits).toHaveLength(19);
    expect(read(Array.from({ length: 6 }, () => 2n ** 63n), limits)).toBe(`[${Array.from({ length: 5 }, () => `${digits}n`).join(',')},${TRUNCATED_MARKER}`);
    // Nothing to count: a symbol without a description, a function without a name.
    expect(read([...Array.from({ length: 50 }, () => Symbol()), (() => () => 1)()], limits)).toBe(`[${'Symbol(),'.repeat(50)}Function("")]`);
  });

  it(`counts a bigint of more than ${String(MAX_BIGINT_BITS)} bits as ${String(MAX_BIGINT_BITS / 4)} characters`, () => {
    const limits: ReadLimits = { ...ROOMY, maxCharacters: MAX_BIGINT_BITS / 2 + 3 };
    const big = BIGINT_BOUND;
    const bigToken = `#n65537:${referenceHash(big.toString(16), KEY)}`;
    expect(read([big, -big, 123n], limits)).toBe(`[${bigToken},#n65537:${referenceHash(`-${big.toString(16)}`, KEY)},123n]`);
    expect(read([big, big, 1234n], limits)).toBe(`[${bigToken},${bigToken},${TRUNCATED_MARKER}`);
    expect(read([big, big, big], limits)).toBe(`[${bigToken},${bigToken},${TRUNCATED_MARKER}`);
  });
});

describe('readForm: the value budget', () => {
  it('counts the root and every element, and cuts the next, writing nothing after the cut', () => {
    expect(read(zeros(9))).toBe(`[${zeros(9).join(',')}]`);
    expect(read(zeros(10))).toBe(`[${zeros(9).join(',')},${TRUNCATED_MARKER}`);
    expect(read({ a: zeros(20), b: 1 })).toBe(`{"a":[${zeros(8).join(',')},${TRUNCATED_MARKER}`);
    expect(read(new Uint8Array(20))).toBe(`Uint8Array[${zeros(9).join(',')},${TRUNCATED_MARKER}`);
    expect(read(new DataView(new ArrayBuffer(20)))).toBe(`DataView[${zeros(9).join(',')},${TRUNCATED_MARKER}`);
    expect(read(new ArrayBuffer(20))).toBe(`ArrayBuffer[${zeros(9).join(',')},${TRUNCATED_MARKER}`);
    expect(read(new SharedArrayBuffer(20))).toBe(`SharedArrayBuffer[${zeros(9).join(',')},${TRUNCATED_MARKER}`);
  });

  it('makes values that agree up to the cut equal, and those that differ before it different', () => {
    const left = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
    expect(read([...left.slice(0, 9), 99, 99])).toBe(read(left));
    expect(read([...left.slice(0, 8), 99, 10, 11])).not.toBe(read(left));
  });

  it('cuts an object with many keys after the budget, reading no member past the cut', () => {
    const { value, reads } = countingReads(objectWithKeys(100, 'last'));
    expect(read(value)).toBe(`{${Array.from({ length: 9 }, (_, index) => `"k000000${String(index)}":${String(index)}`).join(',')},"k0000009":${TRUNCATED_MARKER}`);
    // Its `toJSON`, then members up to the one cut.
    expect(reads()).toBe(SMALL.maxValues + 1);
    expect(read(objectWithKeys(100, 'other last'))).toBe(read(objectWithKeys(100, 'last')));
    const early = objectWithKeys(100, 'last');
    early.k0000003 = 'changed';
    expect(read(early)).not.toBe(read(objectWithKeys(100, 'last')));
  });

  it('cuts inside a Map, putting the unfinished entry last and leaving the brace open', () => {
    // The root, the inner array, its zeros and the Map: n + 3 values before the Map's entries.
    const map = (): Map<string, number> => new Map([['b', 1], ['a', 2]]);
    expect(read([zeros(3), map()])).toBe('[[0,0,0],Map{"a":2,"b":1}]');
    expect(read([zeros(4), map()])).toBe(`[[0,0,0,0],Map{"b":1,"a":${TRUNCATED_MARKER}`);
    expect(read([zeros(5), map()])).toBe(`[[0,0,0,0,0],Map{"b":1,${TRUNCATED_MARKER}`);
    expect(read([zeros(6), map()])).toBe(`[[0,0,0,0,0,0],Map{"b":${TRUNCATED_MARKER}`);
    expect(read([zeros(7), map()])).toBe(`[[${zeros(7).join(',')}],Map{${TRUNCATED_MARKER}`);
    expect(read([zeros(8), map()])).toBe(`[[${zeros(8).join(',')}],${TRUNCATED_MARKER}`);
    // Whole entries come sorted, then the cut one.
    const backwards = new Map([['d', 4], ['c', 3], ['b', 2], ['a', 1], ['z', 0]]);
    expect(read(backwards)).toBe(`Map{"a":1,"b":2,"c":3,"d":4,"z":${TRUNCATED_MARKER}`);
  });

  it('cuts inside a Set, putting the unfinished member last', () => {
    expect(read([zeros(5), new Set([2, 1])])).toBe('[[0,0,0,0,0],Set[1,2]]');
    expect(read([zeros(6), new Set([2, 1])])).toBe(`[[${zeros(6).join(',')}],Set[2,${TRUNCATED_MARKER}`);
    expect(read([zeros(7), new Set([2, 1])])).toBe(`[[${zeros(7).join(',')}],Set[${TRUNCATED_MARKER}`);
    // Whole members come sorted, then the cut one: the root and nine members fit, the tenth is cut.
    expect(read(new Set(['h', 'g', 'f', 'e', 'd', 'c', 'b', 'a', 'z', 'y']))).toBe(`Set["a","b","c","d","e","f","g","h","z",${TRUNCATED_MARKER}`);
    expect(read(new Set<unknown>(['b', 'a', ['x', 'y', 'z', 'w', 'v', 'u', 't']]))).toBe(`Set["a","b",["x","y","z","w","v","u",${TRUNCATED_MARKER}`);
  });

  it('writes an object met again as before while the budget lasts, and cuts it where the budget ends', () => {
    const shared = [1, 2, 3];
    expect(read([shared, shared, shared])).toBe(`[[1,2,3],[1,2,3],[${TRUNCATED_MARKER}`);
    const text = { text: 'w'.repeat(30) };
    expect(read([text, text, text, text], { ...ROOMY, maxCharacters: 100 })).toBe(
      `[{"text":"${'w'.repeat(30)}"},{"text":"${'w'.repeat(30)}"},{"text":${TRUNCATED_MARKER}`,
    );
  });

  it('cuts nesting at the depth limit', () => {
    expect(read([[[[[[1]]]]]])).toBe('[[[[[[1]]]]]]');
    expect(read([[[[[[[1]]]]]]])).toBe(`[[[[[[${MAX_DEPTH_MARKER}]]]]]]`);
    expect(read({ a: { b: { c: { d: { e: { f: new Map() } } } } } })).toBe(`{"a":{"b":{"c":{"d":{"e":{"f":${MAX_DEPTH_MARKER}}}}}}}`);
  });
});

describe('readForm: the step budget', () => {
  it('spends from the budget it is given, values and characters, and starts from the limits without one', () => {
    const budget = { values: 25, characters: 250 };
    expect(readForm([1, 2, 3], HASH, 10, budget, SMALL).form).toBe('[1,2,3]');
    expect(budget).toEqual({ values: 21, characters: 250 });
    readForm({ abc: 'de' }, HASH, 10, budget, SMALL);
    expect(budget).toEqual({ values: 19, characters: 245 });
    expect(readForm(zeros(30), HASH, 10, undefined, { ...ROOMY, stepValues: 5 })).toEqual({
      form: `[0,0,0,0,${TRUNCATED_MARKER}`,
      cut: true,
      stepSpent: true,
    });
    expect(readForm('x'.repeat(30), HASH, 100, undefined, { ...ROOMY, stepCharacters: 29 })).toEqual({ form: TRUNCATED_MARKER, cut: true, stepSpent: true });
  });

  it('shares the step budget between the reads of a StepReader and says when a read was cut by it', () => {
    const reader = new StepReader(HASH, SMALL);
    const nine = zeros(9);
    expect(reader.form(nine)).toBe(`[${nine.join(',')}]`);
    expect(reader.rawForm(nine)).toBe(`[${nine.join(',')}]`);
    expect([reader.truncated, reader.budgetSpent]).toEqual([0, false]);
    // 20 of 25 spent: the third read may spend 5 instead of 10.
    expect(reader.form(nine)).toBe(`[0,0,0,0,${TRUNCATED_MARKER}`);
    expect([reader.truncated, reader.budgetSpent]).toEqual([1, true]);
    expect(reader.rawForm({ a: 1 })).toBe(TRUNCATED_MARKER);
    expect(reader.form(1)).toBe(TRUNCATED_MARKER);
    expect([reader.truncated, reader.budgetSpent]).toEqual([3, true]);
  });

  it('tells a cut by the per-value limit from a cut by the step, for values and for characters', () => {
    const reader = new StepReader(HASH, SMALL);
    reader.form(zeros(12));
    expect([reader.truncated, reader.budgetSpent]).toEqual([1, false]);
    reader.form(['x'.repeat(40), 'x'.repeat(40), 'x'.repeat(40)]);
    expect([reader.truncated, reader.budgetSpent]).toEqual([2, false]);
    // 170 of the step's 250 characters are left: two strings of 40 still fit a read, three do not.
    reader.rawForm(['y'.repeat(40), 'y'.repeat(40)]);
    expect([reader.truncated, reader.budgetSpent]).toEqual([2, false]);
    expect(reader.rawForm(['z'.repeat(40), 'z'.repeat(40), 'z'.repeat(40)])).toBe(`["${'z'.repeat(40)}","${'z'.repeat(40)}",${TRUNCATED_MARKER}`);
    expect([reader.truncated, reader.budgetSpent]).toEqual([3, true]);
  });

  it('reads a thousand calls sharing one sparse array of a million slots within the step budget', () => {
    const sparse = new Array<number>(1_000_000);
    sparse[999_999] = 1;
    const reader = new StepReader(HASH, SMALL);
    const forms = Array.from({ length: 1000 }, () => reader.form({ data: sparse }));
    expect(forms[0]).toBe(`{"data":[${'undefined,'.repeat(8)}${TRUNCATED_MARKER}`);
    expect(forms.slice(3)).toEqual(Array.from({ length: 997 }, () => TRUNCATED_MARKER));
    expect([reader.truncated, reader.budgetSpent]).toEqual([1000, true]);
  });

  it('writes results that share one large object the same each time, within the default step budget', () => {
    const shared = { hits: Array.from({ length: 1000 }, (_, index) => ({ id: index, title: `hit ${String(index)}` })) };
    const reader = new StepReader(HASH);
    const keys = Array.from({ length: 100 }, () => reader.formKey(reader.rawForm({ result: shared })));
    expect(new Set(keys).size).toBe(1);
    expect([reader.truncated, reader.budgetSpent]).toEqual([0, false]);
    const form = canonicalize({ result: shared });
    expect(keys[0]).toBe(`#${String(form.length)}:${HASH(form)}`);
  });

  it('uses the documented limits by default', () => {
    const reader = new StepReader(HASH);
    const fits = 'x'.repeat(LONG_STRING_LENGTH);
    expect(reader.form(fits)).toHaveLength(LONG_STRING_LENGTH + 2);
    expect(reader.rawForm('x'.repeat(RAW_STRING_LENGTH))).toBe(JSON.stringify('x'.repeat(RAW_STRING_LENGTH)));
    expect(reader.form(zeros(MAX_VALUES - 1))).toBe(canonicalize(zeros(MAX_VALUES - 1)));
    expect(reader.form(zeros(MAX_VALUES))).toBe(canonicalize(zeros(MAX_VALUES)));
    expect([reader.truncated, reader.budgetSpent]).toEqual([1, false]);
  });
});

describe('StepReader: forms and comparison keys under the run key', () => {
  it('writes strings longer than 1,024 code units as keyed tokens in raw forms, and quoted in forms', () => {
    const reader = new StepReader(HASH);
    const long = 'x"y\\z'.repeat(205);
    expect(long).toHaveLength(RAW_STRING_LENGTH + 1);
    expect(reader.rawForm(long)).toBe(token(long));
    expect(reader.rawForm({ page: long })).toBe(`{"page":${token(long)}}`);
    expect(reader.form(long)).toBe(JSON.stringify(long));
    expect(reader.form({ page: long })).toBe(canonicalize({ page: long }));
    expect(reader.rawForm(reader.rawForm(long))).not.toBe(reader.rawForm(long));
  });

  it('gives a string too long for any form the same keyed token in forms and raw forms', () => {
    const reader = new StepReader(HASH);
    const long = 'a'.repeat(LONG_STRING_LENGTH + 1);
    expect(reader.form(long)).toBe(`#s${String(long.length)}:${HASH(long)}`);
    expect(reader.form({ text: long })).toBe(reader.rawForm({ text: long }));
    expect(reader.form(long)).not.toBe(canonicalize(long));
  });

  it('keeps forms of up to 256 characters as their key and hashes longer ones with the key', () => {
    const reader = new StepReader(HASH);
    const longest = `"${'f'.repeat(COMPARISON_KEY_LIMIT - 2)}"`;
    expect(reader.formKey('')).toBe('');
    expect(reader.formKey(longest)).toBe(longest);
    const longer = `"${'f'.repeat(COMPARISON_KEY_LIMIT - 1)}"`;
    expect(reader.formKey(longer)).toBe(`#257:${referenceHash(longer, KEY)}`);
    const list = Array.from({ length: 100 }, (_, index) => index);
    const form = JSON.stringify(list);
    expect(reader.formKey(reader.rawForm(list))).toBe(`#${String(form.length)}:${referenceHash(form, KEY)}`);
    // A kept form never looks like a hashed key: no form starts with # and a digit.
    const hashed = reader.formKey(reader.rawForm('y'.repeat(300)));
    expect(hashed).toMatch(/^#\d+:[0-9a-f]{28}$/);
    expect(reader.formKey(reader.rawForm(hashed))).not.toBe(hashed);
  });

  it('keys strings for names and texts: quoted up to 256 code units, a keyed token beyond', () => {
    const reader = new StepReader(HASH, ROOMY);
    expect(reader.stringKey('search')).toBe('"search"');
    expect(reader.stringKey('say "hi"')).toBe('"say \\"hi\\""');
    const longest = 'n'.repeat(256);
    expect(reader.stringKey(longest)).toBe(`"${longest}"`);
    expect(reader.stringKey(`${longest}n`)).toBe(token(`${longest}n`));
    expect(new StepReader(HASH).stringKey('N'.repeat(2 ** 22))).toMatch(/^#s4194304:[0-9a-f]{28}$/);
  });

  it("charges a name's whole length to the step's characters, and keys none past them", () => {
    const reader = new StepReader(HASH, SMALL);
    // 250 characters a step: 200 and 50 fit exactly, and then not one more.
    expect(reader.stringKey('a'.repeat(200))).toBe(`"${'a'.repeat(200)}"`);
    expect([reader.truncated, reader.budgetSpent]).toEqual([0, false]);
    expect(reader.stringKey('b'.repeat(50))).toBe(`"${'b'.repeat(50)}"`);
    expect([reader.truncated, reader.budgetSpent]).toEqual([0, false]);
    expect(reader.stringKey('c')).toBeUndefined();
    expect([reader.truncated, reader.budgetSpent]).toEqual([1, true]);
    // Values are still there: a read of no text is whole.
    expect(reader.form([0, 0])).toBe('[0,0]');
    expect(reader.form(['d'])).toBe('[[Truncated]');
  });

  it("charges a long string's whole length to the step, and a long string's cap to the read", () => {
    const limits: ReadLimits = { ...ROOMY, maxCharacters: LONG_STRING_LENGTH + 10, stepCharacters: LONG_STRING_LENGTH * 3 };
    const reader = new StepReader(HASH, limits);
    const long = 'L'.repeat(LONG_STRING_LENGTH * 2);
    // Twice the token length: the read counts it as LONG_STRING_LENGTH, the step as its whole length.
    expect(reader.form(long)).toBe(`#s${long.length}:${HASH(long)}`);
    expect([reader.truncated, reader.budgetSpent]).toEqual([0, false]);
    expect(reader.form(long)).toBe(TRUNCATED_MARKER);
    expect([reader.truncated, reader.budgetSpent]).toEqual([1, true]);
  });

  it('compares the same way in two readers with the same key, and differently with another key', () => {
    const value = { text: 'w'.repeat(2000) };
    const one = new StepReader(keyedHash(KEY));
    const other = new StepReader(keyedHash('f00dfeedf00dfeedf00dfeedf00dfeed'));
    expect(one.formKey(one.rawForm(value))).toBe(new StepReader(HASH).formKey(new StepReader(HASH).rawForm(value)));
    expect(other.formKey(other.rawForm(value))).not.toBe(one.formKey(one.rawForm(value)));
    expect(other.stringKey('s'.repeat(300))).not.toBe(one.stringKey('s'.repeat(300)));
    expect(one.form(value)).toBe(canonicalize(value));
    expect(other.form(value)).toBe(canonicalize(value));
  });

  it('gives two values equal keys exactly when their raw forms are equal', () => {
    const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 9 }), fc.constantFrom('a'.repeat(1025), 'b'.repeat(1025), 'a'.repeat(300)));
    const value = fc.oneof(text, fc.array(text, { maxLength: 3 }), fc.dictionary(text, text, { maxKeys: 3 }), fc.constant(Number.NaN));
    fc.assert(
      fc.property(value, value, (left, right) => {
        const reader = new StepReader(HASH);
        const sameForm = readForm(left, HASH, RAW_STRING_LENGTH).form === readForm(right, HASH, RAW_STRING_LENGTH).form;
        expect(reader.formKey(reader.rawForm(left)) === reader.formKey(reader.rawForm(right))).toBe(sameForm);
      }),
      { numRuns: 300 },
    );
  });
});

describe('readForm never throws', () => {
  it('turns a failure nothing foresaw, such as a hash that throws, into an unreadable value', () => {
    const failing = (): string => {
      throw new RangeError('unforeseen');
    };
    const long = 'x'.repeat(20);
    expect(readForm(long, failing, 10).form).toMatch(UNREADABLE);
    expect(readForm({ a: long, b: 1 }, failing, 10).form).toMatch(UNREADABLE);
    expect(readForm(BIGINT_BOUND, failing, 10).form).toMatch(UNREADABLE);
    expect(readForm({ short: 'x' }, failing, 10).form).toBe('{"short":"x"}');
  });
});
