import type { JsonValue } from '../types.js';

/** Values deeper than this are written as `'[MaxDepth]'`. */
const MAX_DEPTH = 64;
/** At most this many values are copied; the rest become `'[Truncated]'`. */
const MAX_VALUES = 10_000;

/**
 * A copy of any value as plain JSON, which `JSON.stringify` can always write and `JSON.parse` reads back equal: the
 * evidence a custom rule returns is kept in verdicts and summaries, and a verdict must stay loggable whatever a rule
 * put in it. Objects and arrays are copied as `JSON.stringify` would see them (`toJSON` honoured, `undefined`,
 * functions and symbols left out of objects and written `null` in arrays); a bigint becomes its digits and `n`
 * (`"10n"`), a number that is not finite `null`, `-0` `0`; a cycle, a value nested too deeply, one past the value
 * budget or one whose reading throws becomes a marker string (`"[Circular]"`, `"[MaxDepth]"`, `"[Truncated]"`,
 * `"[Unreadable]"`). A value that is already plain JSON comes back equal to itself.
 * @param value - anything
 * @returns plain JSON
 */
export function toPlainJson(value: unknown): JsonValue {
  let budget = MAX_VALUES;
  const path: object[] = [];

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
        case 'boolean':
          return current;
        case 'number':
          return Number.isFinite(current) ? current + 0 : null;
        case 'bigint':
          return `${String(current)}n`;
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
        if (budget < 0) break;
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
