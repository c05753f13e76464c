const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether a string has no lone surrogate, by pattern: the fallback for engines without
 * `String.prototype.isWellFormed` (ES2024; Node 18 lacks it).
 * @param text - the string to check
 * @returns `true` when every surrogate is part of a pair
 */
export function isWellFormedByPattern(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

const native = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/**
 * Whether a string has no lone surrogate. Uses the engine's `isWellFormed` where there is one: it answers one-byte
 * strings without reading them, where a pattern would scan every character.
 * @param text - the string to check
 * @returns `true` when every surrogate is part of a pair
 */
export const isWellFormed: (text: string) => boolean =
  // Stryker disable next-line ConditionalExpression: the pattern gives the same answers as the native method, slower.
  native === undefined ? isWellFormedByPattern : (text) => native.call(text);
