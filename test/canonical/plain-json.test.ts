import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toPlainJson } from '../../src/canonical/plain-json.js';
import { createGuard } from '../../src/index.js';
import { expectPlainJson } from '../support/plain-json.js';

describe('toPlainJson', () => {
  it('gives back plain JSON equal to itself', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // JSON itself writes -0 as 0.
        expect(toPlainJson(value)).toStrictEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('makes anything loggable: bigints, cycles, non-finite numbers, functions, toJSON, Maps', () => {
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    const value = {
      big: 10n,
      cycle,
      notANumber: Number.NaN,
      infinite: -Infinity,
      negativeZero: -0,
      date: new Date(0),
      missing: undefined,
      method: () => 1,
      symbol: Symbol('s'),
      list: [undefined, () => 1, 2n, Symbol('t')],
      map: new Map([[1, 2]]),
    };
    const copied = toPlainJson(value);
    expectPlainJson(copied);
    expect(copied).toStrictEqual({
      big: '10n',
      cycle: { name: 'loop', self: '[Circular]' },
      notANumber: null,
      infinite: null,
      negativeZero: 0,
      date: '1970-01-01T00:00:00.000Z',
      list: [null, null, '2n', null],
      map: {},
    });
  });

  it('marks values it cannot read, and keeps reading their neighbours', () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const value = {
      proxy: revoked.proxy,
      get broken(): never {
        throw new Error('getter');
      },
      fine: 1,
      badJson: { toJSON: () => { throw new Error('toJSON'); } },
    };
    expect(toPlainJson(value)).toStrictEqual({ proxy: '[Unreadable]', broken: '[Unreadable]', fine: 1, badJson: '[Unreadable]' });
  });

  it('cuts deep nesting at 64 levels and stops after 10,000 values with a marker', () => {
    let deep: unknown = 'leaf';
    for (let level = 0; level < 100; level++) deep = [deep];
    let depth = 0;
    for (let cursor: unknown = toPlainJson(deep); Array.isArray(cursor); cursor = (cursor as unknown[])[0]) depth++;
    expect(depth).toBe(64);
    const long = toPlainJson(Array.from({ length: 20_000 }, (_, index) => index)) as unknown[];
    expect(long).toHaveLength(10_000);
    expect(long.at(-1)).toBe('[Truncated]');
    expect(toPlainJson(Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`k${String(index)}`, index])))).toSatisfy(
      (copy: object) => Object.keys(copy).length === 10_000,
    );
  });

  it('keeps an own __proto__ key as data', () => {
    const copied = toPlainJson(JSON.parse('{"__proto__": {"polluted": true}}') as unknown) as Record<string, unknown>;
    expect(Object.keys(copied)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('toPlainJson on huge values', () => {
  it('copies strings and keys up to its character budget, shortens the one that passes it, and marks or drops the rest', () => {
    expect(toPlainJson({ a: 'xyz', b: 'uvw' }, 8)).toStrictEqual({ a: 'xyz', b: 'uvw' });
    expect(toPlainJson({ a: 'xyz', b: 'uvw' }, 7)).toStrictEqual({ a: 'xyz', b: 'u…' });
    expect(toPlainJson(['abcd', 'efgh', 'ijkl'], 5)).toStrictEqual(['abcd', '[Truncated]', '[Truncated]']);
    expect(toPlainJson({ first: 1, second: 2 }, 7)).toStrictEqual({ first: 1 });
    expect(toPlainJson('ab', 2)).toBe('ab');
  });

  it('writes a bigint past 65,536 bits as its canonical token, in linear time', () => {
    expect(toPlainJson(2n ** 65_535n)).toBe(`${String(2n ** 65_535n)}n`);
    expect(toPlainJson({ big: 1n << 16_777_216n })).toStrictEqual({ big: expect.stringMatching(/^#n16777217:[0-9a-f]{28}$/) as unknown });
  });

  // The red-team size for evidence: a custom rule that puts the step's text in its evidence. 100,000,000 control
  // characters are 600,000,000 once JSON escapes them, past the longest string, so JSON.stringify(verdict) threw.
  it('keeps a verdict loggable whose custom evidence holds 100 MB of control characters', { timeout: 120_000 }, () => {
    const guard = createGuard({ custom: (_history, step) => ({ stop: true, evidence: { text: step.text } }) });
    const verdict = guard.check({ text: '\u0001'.repeat(100_000_000) });
    const text = verdict.stop && verdict.reason === 'custom' ? (verdict.evidence as { text: string }).text : '';
    expect(text).toHaveLength(16 * 1024 * 1024 - 4);
    expect(() => JSON.stringify(verdict)).not.toThrow();
    expect(() => JSON.stringify(guard.summary())).not.toThrow();
  });
});
