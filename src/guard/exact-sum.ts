/** A number's shortest text as an integer of digits and a count of decimal places: 0.25 is 25 with 2 places. */
interface Decimal {
  readonly digits: bigint;
  readonly places: number;
}

const TEN = 10n;

/** The digits and places of a number's shortest text (`String(value)`), exactly. */
function toDecimal(value: number): Decimal {
  const text = String(value);
  const exponentAt = text.indexOf('e');
  const mantissa = exponentAt === -1 ? text : text.slice(0, exponentAt);
  const point = mantissa.indexOf('.');
  const places = (point === -1 ? 0 : mantissa.length - point - 1) - (exponentAt === -1 ? 0 : Number(text.slice(exponentAt + 1)));
  const digits = BigInt(point === -1 ? mantissa : mantissa.slice(0, point) + mantissa.slice(point + 1));
  return places >= 0 ? { digits, places } : { digits: digits * TEN ** BigInt(-places), places: 0 };
}

/** The double nearest to a decimal, at most the largest finite number, which JSON can still write. */
function toNumber({ digits, places }: Decimal): number {
  return Math.min(Number(places === 0 ? digits : `${String(digits)}e-${String(places)}`), Number.MAX_VALUE);
}

/**
 * A running total of finite, non-negative figures, kept exactly as the decimals they print as: ten steps of 0.1 make
 * 1, not 0.9999999999999999, and a limit is reached when the decimal total reaches it. `value` is the double nearest
 * to the exact total. The one summation behind run totals and budgets.
 *
 * While every figure is an integer and the total a safe integer (token counts), it adds plain numbers; past that it
 * adds integer digits with a decimal point, which costs about a microsecond.
 */
export class ExactSum {
  /** The double nearest to the exact total. */
  value = 0;
  /** The exact total once a figure was not a safe integer; `undefined` while `value` is exact. */
  #exact: Decimal | undefined = undefined;

  /**
   * Adds a figure.
   * @param figure - a finite, non-negative number
   */
  add(figure: number): void {
    const sum = this.value + figure;
    if (this.#exact === undefined && Number.isInteger(figure) && sum <= Number.MAX_SAFE_INTEGER) {
      this.value = sum;
      return;
    }
    const total = this.#exact ?? { digits: BigInt(this.value), places: 0 };
    const added = toDecimal(figure);
    const places = Math.max(total.places, added.places);
    const scale = (decimal: Decimal): bigint => decimal.digits * TEN ** BigInt(places - decimal.places);
    this.#exact = { digits: scale(total) + scale(added), places };
    this.value = toNumber(this.#exact);
  }

  /** A copy that goes on adding on its own. */
  copy(): ExactSum {
    const copy = new ExactSum();
    copy.value = this.value;
    copy.#exact = this.#exact;
    return copy;
  }

  /** The exact total as decimal text, for snapshots: `"0.3"`, `"9007199254740994"`. */
  save(): string {
    const exact = this.#exact;
    if (exact === undefined) return String(this.value);
    const text = exact.digits.toString().padStart(exact.places + 1, '0');
    return exact.places === 0 ? text : `${text.slice(0, -exact.places)}.${text.slice(-exact.places)}`;
  }

  /**
   * A total from what `save()` wrote.
   * @param text - decimal digits with at most one point
   * @returns the total, or `undefined` when the text is not such a decimal
   */
  static restore(text: string): ExactSum | undefined {
    if (!/^\d+(?:\.\d+)?$/.test(text)) return undefined;
    const point = text.indexOf('.');
    const sum = new ExactSum();
    const exact = { digits: BigInt(text.replace('.', '')), places: point === -1 ? 0 : text.length - point - 1 };
    sum.value = toNumber(exact);
    if (exact.places > 0 || sum.value > Number.MAX_SAFE_INTEGER) sum.#exact = exact;
    return sum;
  }
}

/**
 * Multiplies two figures as decimals multiply, so a `warnAt` of 0.1 on a limit of 3 warns from 0.3 and not from
 * 0.30000000000000004.
 * @param left - a finite, non-negative number
 * @param right - a finite, non-negative number
 * @returns the double nearest to the exact decimal product, at most `Number.MAX_VALUE`
 */
export function multiplyFigures(left: number, right: number): number {
  const a = toDecimal(left);
  const b = toDecimal(right);
  return toNumber({ digits: a.digits * b.digits, places: a.places + b.places });
}

/**
 * Adds two figures as decimals add: the double nearest to their exact decimal sum.
 * @param left - a finite, non-negative number
 * @param right - a finite, non-negative number
 * @returns the sum, at most `Number.MAX_VALUE`
 */
export function addFigures(left: number, right: number): number {
  const sum = new ExactSum();
  sum.add(left);
  sum.add(right);
  return sum.value;
}
