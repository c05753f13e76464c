/**
 * The answer shape as it was first written: one character at a time, the closer of each quote kind found by a pointer
 * that only moves forward. `answerShape` in `src/detectors/answers.ts` computes the same shape with one regular
 * expression and a short replacer; this slow, obvious version is what it is compared with
 * (`test/detectors/answers.test.ts`) and what the reference guard uses, so a faster shape can never change an answer
 * unnoticed.
 */
/** Longest text read for a shape; a longer text is read as its first and last half of this. */
const SHAPE_INPUT_LIMIT = 8192;
/** A quoted span longer than this is not taken for a quotation: it is more likely prose with stray quotes. */
const MAX_QUOTE = 200;

const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
const DOUBLE_QUOTE = 34;
const APOSTROPHE = 39;
const BACKTICK = 96;
const HASH = 35;

// A long string or bigint in a canonical form, `#s<length>:<hash>` or `#n<bits>:<hash>`, is one opaque value.
const TOKEN = /#[sn]\d+:[0-9a-f]{28}/y;

const isDigit = (code: number): boolean => code >= 48 && code <= 57;
const isLetter = (code: number): boolean => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
const isWordCharacter = (code: number): boolean => isDigit(code) || isLetter(code) || code === 95;
const isSpace = (code: number): boolean => code === 32 || (code >= 9 && code <= 13);

/** The part of a text that is read: all of it, or its head and tail joined by an ellipsis. */
function bounded(text: string): string {
  if (text.length <= SHAPE_INPUT_LIMIT) return text;
  const half = SHAPE_INPUT_LIMIT / 2;
  return `${text.slice(0, half)}…${text.slice(text.length - half)}`;
}

/** Whether `code` closes a quotation opened by `opener` (shell style `` `…' `` closes a backtick with either). */
function closes(opener: number, code: number): boolean {
  return code === opener || (opener === BACKTICK && code === APOSTROPHE);
}

/**
 * The shape of a tool's answer: what is left once the parts that only echo the request or count things are blanked.
 * Two answers of one shape tell the agent the same thing ("No matches found for "a"" and "... for "b"").
 *
 * - A quoted span (`"…"`, `'…'`, `` `…` `` or `` `…' ``) on one line, with at most 200 characters inside, becomes `""`.
 * - A run of `[A-Za-z0-9_]` that holds a digit becomes `0`: numbers, line counters, ids, hashes, dates.
 * - A run of whitespace becomes one space.
 *
 * - A token for a long string or bigint in a canonical form (`#s<length>:<hash>`) is kept whole: the text it stands
 *   for was not read, so two tokens are one shape only when they stand for the same text.
 *
 * Everything else (words without digits, paths, punctuation) is kept, so a different file, listing or error message
 * still differs. Only the first and last 4 KB of a longer text are read. Linear: one pass, and the closing quote of
 * each kind is found by a pointer that only moves forward, so no character is read more than a few times.
 * @param text - a tool's result or error as text
 * @returns the shape
 */
export function referenceAnswerShape(text: string): string {
  const source = bounded(text);
  const length = source.length;
  // Per quote kind, the first closer or line break at or after the last search start.
  const nextCloser = new Map<number, number>();
  const findCloser = (opener: number, from: number): number => {
    let at = nextCloser.get(opener) ?? -1;
    if (at < from) {
      at = from;
      while (at < length) {
        const code = source.charCodeAt(at);
        if (code === NEWLINE || code === CARRIAGE_RETURN || closes(opener, code)) break;
        at++;
      }
      nextCloser.set(opener, at);
    }
    return at;
  };

  let shape = '';
  let index = 0;
  while (index < length) {
    const code = source.charCodeAt(index);
    if (isSpace(code)) {
      while (index < length && isSpace(source.charCodeAt(index))) index++;
      shape += ' ';
      continue;
    }
    if (isWordCharacter(code)) {
      const start = index;
      let digit = false;
      for (; index < length && isWordCharacter(source.charCodeAt(index)); index++) {
        if (isDigit(source.charCodeAt(index))) digit = true;
      }
      shape += digit ? '0' : source.slice(start, index);
      continue;
    }
    if (code === HASH) {
      TOKEN.lastIndex = index;
      if (TOKEN.test(source)) {
        shape += source.slice(index, TOKEN.lastIndex);
        index = TOKEN.lastIndex;
        continue;
      }
    }
    if (code === DOUBLE_QUOTE || code === APOSTROPHE || code === BACKTICK) {
      const close = findCloser(code, index + 1);
      const closing = source.charCodeAt(close);
      if (close < length && close - index - 1 <= MAX_QUOTE && closing !== NEWLINE && closing !== CARRIAGE_RETURN) {
        shape += '""';
        index = close + 1;
        continue;
      }
    }
    shape += source.charAt(index);
    index++;
  }
  return shape;
}
