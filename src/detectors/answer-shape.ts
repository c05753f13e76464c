import { flattenString } from '../canonical/flatten-string.js';

/** Longest text read for a shape; a longer text is read as its first and last half of this. */
export const SHAPE_INPUT_LIMIT = 8192;
/** A quoted span longer than this is not taken for a quotation: it is more likely prose with stray quotes. */
const MAX_QUOTE = 200;

const LESS_THAN = 60;
const GREATER_THAN = 62;
const SLASH = 47;
const HYPHEN = 45;

// What each ASCII character is to a shape; every other character is kept as it is.
const KEPT = 0;
const LETTER = 1;
const DIGIT = 2;
const SPACE = 3;
const QUOTE = 4;
const HASH = 5;
const SPACE_CODE = 32;
const DOUBLE_QUOTE_CODE = 34;
const BACKTICK_CODE = 96;
const KINDS = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  const character = String.fromCharCode(code);
  if (/\d/.test(character)) KINDS[code] = DIGIT;
  else if (/\w/.test(character)) KINDS[code] = LETTER;
  else if (/[\t\n\v\f\r ]/.test(character)) KINDS[code] = SPACE;
  else if (/["'`]/.test(character)) KINDS[code] = QUOTE;
  else if (character === '#') KINDS[code] = HASH;
}
const kindOf = (code: number): number => KINDS[code] ?? KEPT;

// A long string or bigint in a canonical form, `#s<length>:<hash>` or `#n<bits>:<hash>`, is one opaque value.
const TOKEN = /#[sn]\d+:[0-9a-f]{28}/y;
// The next character where the shape may differ from the text: a quote, `#`, a digit, whitespace that is not one
// space between other characters. Each match is one character long.
const PLACE_THAT_CHANGES = /["'`#\d\t\n\v\f\r]| (?=[\t\n\v\f\r ])/g;
// Kept characters read one at a time before the rest of a stretch is skipped by that search.
const SKIP_FROM = 32;

const isLetter = (code: number): boolean => kindOf(code) === LETTER && code !== 95;
const isWordCharacter = (code: number): boolean => kindOf(code) === LETTER || kindOf(code) === DIGIT;

/** The part of a text that is read: all of it, or its head and tail joined by an ellipsis. */
function bounded(text: string): string {
  if (text.length <= SHAPE_INPUT_LIMIT) return text;
  const half = SHAPE_INPUT_LIMIT / 2;
  return `${text.slice(0, half)}…${text.slice(text.length - half)}`;
}

/**
 * Where `character` next appears at or after `from` (the text's length when it does not), given where it was found
 * last: an earlier finding still at or after `from` is still the next one, so each stretch of text is searched once.
 */
function nextOf(source: string, character: string, from: number, found: number): number {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: searching again finds the same place, only slower.
  if (found >= from) return found;
  const at = source.indexOf(character, from);
  return at === -1 ? source.length : at;
}

/**
 * The next place at or after `from` where the shape may differ from the text (the text's length when there is none):
 * a quote, `#`, whitespace that is not one space between other characters, or the start of a word holding a digit.
 */
function nextChange(source: string, from: number): number {
  PLACE_THAT_CHANGES.lastIndex = from;
  if (!PLACE_THAT_CHANGES.test(source)) return source.length;
  let next = PLACE_THAT_CHANGES.lastIndex - 1;
  if (kindOf(source.charCodeAt(next)) !== DIGIT) return next;
  // Back to where the digit's word starts, but not before `from`: what precedes it is already in the shape (a token
  // ending in hex digits may stand right before a word).
  while (next > from && isWordCharacter(source.charCodeAt(next - 1))) next--;
  return next;
}

/**
 * The shape of a tool's answer: what is left once the parts that only echo the request or count things are blanked.
 * Two answers of one shape tell the agent the same thing ("No matches found for "a"" and "... for "b"").
 *
 * - A quoted span (`"…"`, `'…'`, `` `…` `` or `` `…' ``) on one line, with at most 200 characters inside, becomes `""`.
 * - A run of `[A-Za-z0-9_]` that holds a digit becomes `0`: numbers, line counters, ids, hashes, dates.
 * - A run of whitespace becomes one space.
 * - A token for a long string or bigint in a canonical form (`#s<length>:<hash>`) is kept whole: the text it stands
 *   for was not read, so two tokens are one shape only when they stand for the same text.
 *
 * Everything else (words without digits, paths, punctuation) is kept, so a different file, listing or error message
 * still differs. Only the first and last 4 KB of a longer text are read. Linear: one pass, in which what is kept is
 * copied a stretch at a time, between the places that change; a quote's closer (or the line break before it) is
 * found by native searches that each cover a stretch of text once.
 * @param text - a tool's result or error as text
 * @returns the shape
 */
export function answerShape(text: string): string {
  const source = bounded(text);
  const length = source.length;
  // Where each character that can end a quotation was found last (see nextOf).
  let doubleQuote = -1;
  let apostrophe = -1;
  let backtick = -1;
  let newline = -1;
  let carriageReturn = -1;
  let shape = '';
  // Where the text not yet copied into the shape starts: everything from there to `index` is kept as it is.
  let copied = 0;
  let index = 0;
  for (;;) {
    // Past a few dozen characters kept in a row the text is prose, which a native search skips.
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: when to search only changes speed: it stops at the next place that changes.
    if (index - copied > SKIP_FROM) index = nextChange(source, index);
    if (index >= length) break;
    const code = source.charCodeAt(index);
    const start = index++;
    const kind = kindOf(code);
    if (kind === QUOTE) {
      // A quotation ends at the first closer on its line; a line break before any closer ends none. Both searches
      // give the text's length when they find nothing, so a closer before either line break is in the text.
      newline = nextOf(source, '\n', index, newline);
      carriageReturn = nextOf(source, '\r', index, carriageReturn);
      let close: number;
      if (code === DOUBLE_QUOTE_CODE) close = doubleQuote = nextOf(source, '"', index, doubleQuote);
      else {
        close = apostrophe = nextOf(source, "'", index, apostrophe);
        if (code === BACKTICK_CODE) close = Math.min(close, (backtick = nextOf(source, '`', index, backtick)));
      }
      if (close < newline && close < carriageReturn && close - index <= MAX_QUOTE) {
        shape += source.slice(copied, start) + '""';
        index = close + 1;
        copied = index;
      }
    } else if (kind === LETTER || kind === DIGIT) {
      let digit = kind === DIGIT;
      // Stryker disable next-line ConditionalExpression,EqualityOperator: past the end reads NaN, of no kind, which ends the loop too (far slower).
      for (; index < length; index++) {
        const next = kindOf(source.charCodeAt(index));
        if (next === DIGIT) digit = true;
        else if (next !== LETTER) break;
      }
      if (digit) {
        shape += source.slice(copied, start) + '0';
        copied = index;
      }
    } else if (kind === SPACE) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator: as above.
      while (index < length && kindOf(source.charCodeAt(index)) === SPACE) index++;
      if (code !== SPACE_CODE || index - start > 1) {
        shape += source.slice(copied, start) + ' ';
        copied = index;
      }
    } else if (kind === HASH) {
      // Only here: a token starts with "#", so looking for one at any other character would find none, only slower.
      TOKEN.lastIndex = start;
      if (TOKEN.test(source)) index = TOKEN.lastIndex;
    }
  }
  // In one piece: the shape is hashed and previewed, and each would otherwise walk its pieces anew.
  return flattenString(shape + source.slice(copied));
}

/**
 * Whether `text[from, to)` holds no ASCII letter outside a markup tag; a tag ends within the range. Two ranges read
 * alone say what their join with an ellipsis between would: a tag name never runs into an ellipsis.
 */
function contentlessIn(text: string, from: number, to: number): boolean {
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    if (code === LESS_THAN) {
      let end = index + 1;
      // A slash at `to` moves the name past the range, where the test below finds no tag.
      if (text.charCodeAt(end) === SLASH) end++;
      const nameStart = end;
      while (end < to && end - nameStart < 64 && (isWordCharacter(text.charCodeAt(end)) || text.charCodeAt(end) === HYPHEN)) end++;
      // A name starts with a letter, so it is not empty; the tag's `>` must be inside the range.
      if (end < to && isLetter(text.charCodeAt(nameStart)) && text.charCodeAt(end) === GREATER_THAN) index = end;
    } else if (isLetter(code)) {
      return false;
    }
  }
  return true;
}

/**
 * Whether an answer carries no words: only whitespace, digits, punctuation and markup tags such as
 * `<returncode>0</returncode><output></output>` (an empty output, `[]`, `{}`, `0`). A successful write often answers
 * like that, whatever it wrote. Linear: a `<` looks at most 64 characters ahead for the end of a tag name. Of a longer
 * text, the first and last 4 KB are read where they lie: copying them out into one string first cost more than the
 * scan, which usually ends at the first letter.
 * @param text - a tool's result as text
 * @returns `true` when no ASCII letter stands outside a tag
 */
export function isContentless(text: string): boolean {
  const length = text.length;
  if (length <= SHAPE_INPUT_LIMIT) return contentlessIn(text, 0, length);
  const half = SHAPE_INPUT_LIMIT / 2;
  return contentlessIn(text, 0, half) && contentlessIn(text, length - half, length);
}
