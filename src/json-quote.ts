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

// Property names repeat (a tool's arguments keep their schema from call to call), so their quoted forms are kept. A
// string's quoted form never changes, so an entry cannot go stale; the cache is bounded and starts over when full.
const KEY_CACHE_LIMIT = 2048;
const KEY_LENGTH_LIMIT = 64;
const quotedKeys = new Map<string, string>();

/**
 * The start of a JSON member for a property name: the quoted name and a colon. Recent short names are remembered.
 * @param key - the property name
 * @returns the JSON string literal followed by `:`
 */
export function jsonMemberPrefix(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = jsonQuote(key) + ':';
    if (key.length <= KEY_LENGTH_LIMIT) {
      if (quotedKeys.size >= KEY_CACHE_LIMIT) quotedKeys.clear();
      quotedKeys.set(key, quoted);
    }
  }
  return quoted;
}
