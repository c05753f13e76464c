import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addFigures, ExactSum, multiplyFigures } from '../../src/guard/exact-sum.js';

function sumOf(...figures: number[]): ExactSum {
  const sum = new ExactSum();
  for (const figure of figures) sum.add(figure);
  return sum;
}

describe('ExactSum', () => {
  it('adds figures as the decimals they print as', () => {
    expect(sumOf(...Array.from({ length: 10 }, () => 0.1)).value).toBe(1);
    expect(sumOf(0.1, 0.2).value).toBe(0.3);
    expect(sumOf(0.2, 0.6666666666666666).value).toBe(0.8666666666666666);
    expect(sumOf(1e-7, 2.5e-10, 3).value).toBe(3.00000010025);
    expect(sumOf(1.5e21, 1).value).toBe(1.5e21);
  });

  it('adds integers exactly past 2^53, rounding only the result', () => {
    expect(sumOf(2 ** 53, 1, 1).value).toBe(2 ** 53 + 2);
    expect(sumOf(2 ** 53 - 1, 1).value).toBe(2 ** 53);
  });

  it('stops at the largest finite number', () => {
    expect(sumOf(Number.MAX_VALUE, Number.MAX_VALUE).value).toBe(Number.MAX_VALUE);
    expect(sumOf(Number.MAX_VALUE, 0.5).value).toBe(Number.MAX_VALUE);
    expect(sumOf(5e-324, 5e-324).value).toBe(1e-323);
  });

  it('saves the exact total as decimal text, and restores it', () => {
    for (const sum of [sumOf(), sumOf(12, 30), sumOf(0.1, 0.2), sumOf(2 ** 53, 1, 1), sumOf(0.2, 0.6666666666666666), sumOf(1e308, 1e308)]) {
      const restored = ExactSum.restore(sum.save());
      expect(restored?.value).toBe(sum.value);
      expect(restored?.save()).toBe(sum.save());
      restored?.add(0.05);
      sum.add(0.05);
      expect(restored?.value).toBe(sum.value);
    }
    expect(sumOf(0.1, 0.2).save()).toBe('0.3');
    expect(sumOf(0.01).save()).toBe('0.01');
    expect(ExactSum.restore('12')?.value).toBe(12);
    for (const text of ['', '-1', '1e5', '1.', '.5', '0x10', '1.2.3', ' 1']) expect(ExactSum.restore(text)).toBeUndefined();
  });

  it('equals the exactly rounded sum of the figures as decimals, however many', () => {
    const figure = fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constantFrom(0.1, 0.2, 0.3, 1e-9));
    fc.assert(
      fc.property(fc.array(figure, { maxLength: 30 }), (figures) => {
        // The reference: every figure scaled to 400 decimal places as an integer, summed, then parsed once.
        const scaled = figures.reduce((total, value) => total + BigInt(toPlaces(value, 400)), 0n);
        const text = scaled.toString().padStart(401, '0');
        const expected = Number(`${text.slice(0, -400)}.${text.slice(-400)}`);
        expect(sumOf(...figures).value).toBe(expected);
      }),
    );
  });
});

/** A number's shortest text as an integer scaled by 10^places, by string arithmetic. */
function toPlaces(value: number, places: number): string {
  const [mantissa = '', exponent = '0'] = String(value).split('e');
  const [whole = '', fraction = ''] = mantissa.split('.');
  const shift = Number(exponent) + places - fraction.length;
  return `${whole}${fraction}${'0'.repeat(shift)}`;
}

describe('figures as decimals', () => {
  it('multiplies as decimals multiply', () => {
    expect(multiplyFigures(0.1, 3)).toBe(0.3);
    expect(multiplyFigures(0.9, 1)).toBe(0.9);
    expect(multiplyFigures(3, 4)).toBe(12);
    expect(multiplyFigures(0.07, 0.3)).toBe(0.021);
    expect(multiplyFigures(1e300, 1e300)).toBe(Number.MAX_VALUE);
  });

  it('adds two figures as decimals add', () => {
    expect(addFigures(0.1, 0.2)).toBe(0.3);
    expect(addFigures(2 ** 53, 2)).toBe(2 ** 53 + 2);
  });
});
