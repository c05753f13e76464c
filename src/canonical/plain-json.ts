import type { JsonValue } from '../types.js';
import { preview } from '../utils/text.js';
import { BIGINT_BOUND, bigIntToken } from './form.js';
import { publicHash } from './hash.js';

/** Values deeper than this are written as `'[MaxDepth]'`. */
const MAX_DEPTH = 64;
/** At most this many values are copied; the rest become `'[Truncated]'`. */
const MAX_VALUES = 10_000;

/**
 * A copy of any value as plain JSON, which `JSON.stringify` can always write and `JSON.parse` reads back equal: the
 * evidence a custom rule returns is kept in verdicts and summaries, and a verdict must stay loggable whatever a rule
 * put in it. Objects and arrays are copied as `JSON.stringify` would see them (`toJSON` honoured, `undefined`,
 * functions and symbols left out of objects and written `null` in arrays); a bigint becomes its digits and `n`
 * (`"10n"`), or past 65,536 bits its canonical token (`"#n<bits>:<hash>"`); a number that is not finite becomes `null`,
 * `-0` `0`; a cycle, a value nested too deeply, one past the value budget or one whose reading throws becomes a marker
 * string (`"[Circular]"`, `"[MaxDepth]"`, `"[Truncated]"`, `"[Unreadable]"`). A value that is already plain JSON comes
 * back equal to itself, unless its strings and keys hold more than `maxCharacters` characters: then the string that
 * passes the budget is shortened to what is left of it, as a preview is, and strings and keys after it are
 * `"[Truncated]"` or left out.
 * @param value - anything
 * @param maxCharacters - characters of strings and keys copied at most; every character could become six in JSON
 * @returns plain JSON
 */
export function toPlainJson(value: unknown, maxCharacters = Number.POSITIVE_INFINITY): JsonValue {
  let budget = MAX_VALUES;
  let characters = maxCharacters;
  const path: object[] = [];

  /** A bigint's digits and `n`, or past `MAX_BIGINT_BITS` its token, as in canonical forms: decimal is quadratic. */
  function copyBigInt(big: bigint): string {
    return big < BIGINT_BOUND && big > -BIGINT_BOUND ? copyString(`${big}n`) : bigIntToken(big, publicHash);
  }

  /** A string within the character budget: whole, shortened to what is left, or the marker once nothing is. */
  function copyString(text: string): string {
    if (text.length <= characters) {
      characters -= text.length;
      return text;
    }
    const left = characters;
    characters = 0;
    return left < 2 ? '[Truncated]' : preview(text, left);
  }

  /** Copies `holder[key]`, or the value itself when there is no holder. */
  function copy(holder: object | undefined, key: string, value?: unknown): JsonValue | undefined {
    if (budget-- <= 0) return '[Truncated]';
    try {
      let current = holder === undefined ? value : (holder as Record<string, unknown>)[key];
      if (current !== null && (typeof current === 'object' || typeof current === 'bigint')) {
        const toJSON = (current as { toJSON?: unknown }).toJSON;
        if (typeof toJSON === 'function') current = (toJSON as (this: unknown, key: string) => unknown).call(current, key);
      }
      switch (typeof current) {
        case 'string':
          return copyString(current);
        case 'boolean':
          return current;
        case 'number':
          return Number.isFinite(current) ? current + 0 : null;
        case 'bigint':
          return copyBigInt(current);
        case 'object':
          return current === null ? null : copyObject(current);
        default:
          return undefined;
      }
    } catch {
      return '[Unreadable]';
    }
  }

  function copyObject(object: object): JsonValue {
    if (path.includes(object)) return '[Circular]';
    if (path.length >= MAX_DEPTH) return '[MaxDepth]';
    path.push(object);
    try {
      if (Array.isArray(object)) {
        const list: JsonValue[] = [];
        const length = (object as unknown[]).length;
        // Past the budget the first member left becomes the marker, and nothing follows it.
        for (let index = 0; index < length && budget >= 0; index++) {
          list.push(copy(object, String(index)) ?? null);
        }
        return list;
      }
      const record: Record<string, JsonValue> = {};
      for (const key of Object.keys(object)) {
        if (budget < 0 || key.length > characters) break;
        characters -= key.length;
        const member = copy(object, key);
        // Defined as data, so a key named `__proto__` stays a key and never sets the prototype.
        if (member !== undefined) Object.defineProperty(record, key, { value: member, enumerable: true, writable: true, configurable: true });
      }
      return record;
    } finally {
      path.pop();
    }
  }

  return copy(undefined, '', value) ?? null;
}
