// Anything JSON.stringify would escape: C0 controls, the quote, the backslash, and surrogate code units (it escapes the
// lone ones; rather than tell lone from paired here, any surrogate takes the native path).
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

// Beyond this length the native escaper is faster than scanning first and then copying.
const SCAN_LIMIT = 5000;

// From V8 12 (Node 22 and later, current browsers) the native escaper slows to about half its speed per character once
// a string passes roughly 100,000 characters; pieces of 65,536 stay on its fast path. Older V8 (Node 18, 20) has no
// such cliff and would only pay for joining the pieces, so it escapes long strings whole.
const SPLIT_FROM = 98_304;
const PIECE_LENGTH = 65_536;
const splitsLongStrings = escapesLongStringsInPieces(globalThis);

/**
 * Quotes a string exactly as `JSON.stringify` does, taking cheaper paths for short strings with nothing to escape and,
 * on engines that need it, for very long strings.
 * @param text - the string to quote
 * @returns the JSON string literal
 */
export function jsonQuote(text: string): string {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the length cut only picks the faster path; both give the same text.
  if (text.length < SCAN_LIMIT && !NEEDS_ESCAPE.test(text)) return '"' + text + '"';
  // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator: pieces and whole give the same text; the choice is speed only.
  return splitsLongStrings && text.length > SPLIT_FROM ? jsonQuoteInPieces(text, PIECE_LENGTH) : JSON.stringify(text);
}

/**
 * Quotes a string as `JSON.stringify` does, escaping it a piece at a time. A piece never ends between the two halves of
 * a surrogate pair: `JSON.stringify` escapes a lone half but not a pair, and that is the only escape that depends on a
 * neighbouring character, so the pieces join into exactly the text `JSON.stringify` gives for the whole.
 * @param text - the string to quote
 * @param pieceLength - UTF-16 code units per piece, at least 1 (a piece may take one more to keep a pair whole)
 * @returns the JSON string literal
 */
export function jsonQuoteInPieces(text: string, pieceLength: number): string {
  let out = '"';
  for (let start = 0; start < text.length; ) {
    // Stryker disable next-line MethodExpression: a piece running to the end of the text is simply the last piece.
    let end = Math.min(text.length, start + pieceLength);
    if (isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) end++;
    out += JSON.stringify(text.slice(start, end)).slice(1, -1);
    start = end;
  }
  return out + '"';
}

/**
 * Whether a host's engine is one whose native escaper slows down on very long strings: V8 12 or later, or an engine
 * that does not say (browsers, edge runtimes), which is assumed current.
 * @param host - the global object, or a stand-in in tests
 * @returns `true` when long strings should be escaped in pieces
 */
export function escapesLongStringsInPieces(host: { process?: { versions?: { v8?: string } } }): boolean {
  const version = host.process?.versions?.v8;
  return version === undefined || Number.parseInt(version, 10) >= 12;
}

// Stryker disable ConditionalExpression,LogicalOperator: moving a seam by one where no pair straddles it changes no
// escape (lone halves are escaped alike in either piece); only splitting a real pair would, and that stays detected.
function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
// Stryker restore ConditionalExpression,LogicalOperator

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
  // Stryker disable ConditionalExpression,EqualityOperator,BlockStatement: a cache of values that never change; using
  // it less, more or not at all gives the same text.
  if (quoted === undefined) {
    quoted = jsonQuote(key) + ':';
    if (key.length <= KEY_LENGTH_LIMIT) {
      if (quotedKeys.size >= KEY_CACHE_LIMIT) quotedKeys.clear();
      quotedKeys.set(key, quoted);
    }
  }
  // Stryker restore ConditionalExpression,EqualityOperator,BlockStatement
  return quoted;
}
