// Anything JSON.stringify would escape: C0 controls, the quote, the backslash, and surrogate code units (it escapes the
// lone ones; rather than tell lone from paired here, any surrogate takes the native path).
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

// Beyond this length the native escaper is faster than scanning first and then copying.
const SCAN_LIMIT = 5000;

/**
 * Quotes a string exactly as `JSON.stringify` does, taking a cheaper path for short strings with nothing to escape.
 * @param text - the string to quote
 * @returns the JSON string literal
 */
export function jsonQuote(text: string): string {
  if (text.length < SCAN_LIMIT && !NEEDS_ESCAPE.test(text)) return '"' + text + '"';
  return JSON.stringify(text);
}
