/**
 * What an answer tells the agent, as far as `stagnation` reads it: its kind (empty, a failure, or information of its
 * own), and the shape two answers are compared by when they only say that a call failed or found nothing.
 */

/**
 * What an answer tells the agent:
 * - `empty`: nothing came back: no letter and no digit outside markup tags (`''`, `[]`, `{}`, `<output></output>`).
 * - `failure`: the call did not get what it asked for: the answer reads as an error or as "nothing found".
 * - `answer`: anything else, information of its own (a value, a record, a page, an acknowledgement).
 */
export type AnswerKind = 'empty' | 'failure' | 'answer';

/** Longest text read for a shape or for emptiness; a longer text is read as its first and last half of this. */
const SHAPE_INPUT_LIMIT = 8192;

/** Characters of a text answer read for the wording of a failure: it opens the answer when there is one. */
export const FAILURE_WORDING_SCOPE = 300;
/** Characters of a JSON answer read for its top-level keys. */
export const JSON_KEY_SCOPE = 512;

/**
 * Wording that says a call failed or found nothing, read in the first {@link FAILURE_WORDING_SCOPE} characters of a
 * text answer. Phrases about the request, not about what a record holds: "failed to send" but not "payment failed",
 * "Error:" but not "errors" in a list of counts. Alternatives without nested quantifiers: linear on any input.
 */
const FAILURE_WORDING = new RegExp(
  [
    String.raw`\bno (?:such|match|matches|results?|files?|entries|items|records|hits|data)\b`,
    String.raw`\b(?:not|nothing) found\b`,
    String.raw`\bfound 0\b`,
    String.raw`\b0 (?:matches|results|hits|files|items|records|entries)\b`,
    String.raw`\bdo(?:es)?(?:n't| not) exist\b`,
    String.raw`\bsyntax error\b`,
    String.raw`\bunexpected (?:eof|end of file|token)\b`,
    String.raw`\busage:`,
    String.raw`\btraceback\b`,
    String.raw`\b[a-z]*(?:error|exception)\s?:`,
    String.raw`\b(?:failed|unable) to\b`,
    String.raw`\b(?:cannot|can't|could not|couldn't)\b`,
    String.raw`\binvalid\b`,
    String.raw`\b(?:permission|access) denied\b`,
    String.raw`\bnot (?:allowed|permitted|supported)\b`,
    String.raw`\bunknown (?:command|option|tool|function|argument|parameter)\b`,
    String.raw`\btimed out\b`,
  ].join('|'),
  'i',
);

/** A value that says there is none: `null`, `false`, `0`, `""`, `[]`, `{}` (not `0.5`, not `05`). */
const NONE = /(?:null|false)\b|-?0(?![\d.eE])|""|\[\s*\]|\{\s*\}/y;
const EMPTY_LIST = /\[\s*\]/y;
const FAILED_STATUS = /"error"/iy;

function startsWith(pattern: RegExp, text: string, at: number): boolean {
  pattern.lastIndex = at;
  return pattern.test(text);
}

type ValueCheck = (text: string, at: number) => boolean;
const notNone: ValueCheck = (text, at) => !startsWith(NONE, text, at);
const isTrue: ValueCheck = (text, at) => text.startsWith('true', at);
const isFalse: ValueCheck = (text, at) => text.startsWith('false', at);
const isEmptyList: ValueCheck = (text, at) => startsWith(EMPTY_LIST, text, at);

/**
 * Top-level keys of a JSON answer that say the call failed or found nothing (lower-cased), each with what its value
 * must be to say so. An `error` that is `null`, `false`, `0` or empty is the API saying there was none.
 */
const FAILURE_KEYS = {
  error: notNone,
  errors: notNone,
  exception: notNone,
  iserror: isTrue,
  success: isFalse,
  ok: isFalse,
  status: (text, at) => startsWith(FAILED_STATUS, text, at),
  results: isEmptyList,
  matches: isEmptyList,
  hits: isEmptyList,
  items: isEmptyList,
  records: isEmptyList,
  rows: isEmptyList,
  entries: isEmptyList,
  documents: isEmptyList,
} satisfies Record<string, ValueCheck>;
type FailureKey = keyof typeof FAILURE_KEYS;
/** A quoted name that may be one of {@link FAILURE_KEYS}, followed by a colon: a candidate, checked for depth after. */
const CANDIDATE_KEY = new RegExp(String.raw`"(${Object.keys(FAILURE_KEYS).join('|')})"\s*:\s*`, 'iy');
/** A text that opens like JSON: `{"`, `{}`, `[{`, `[[`, `["`, `[]`, `[1`, `[-`. Not `[File: …]` or `[Errno 2]`. */
const JSON_START = /\s*(?:\{\s*["}]|\[\s*[[{"\]\d-])/y;

/**
 * Whether a JSON object's own keys say the call failed or found nothing: an `error`, `errors` or `exception` that is
 * not empty, `isError: true` (MCP), `success` or `ok` false, `status: "error"`, or an empty `results` (`matches`,
 * `hits`, `items`, `records`, `rows`, `entries`, `documents`). Keys of nested values belong to records, not to the
 * answer: `{"jobs": [{"status": "failed"}]}` is a page of jobs. Reads the first {@link JSON_KEY_SCOPE} characters.
 */
function jsonReadsAsFailure(json: string): boolean {
  if (!json.startsWith('{')) return false;
  const scope = json.slice(0, JSON_KEY_SCOPE);
  let depth = 0;
  let inString = false;
  for (let index = 0; index < scope.length; index++) {
    const character = scope[index];
    if (inString) {
      if (character === '\\') index++;
      else if (character === '"') inString = false;
      continue;
    }
    if (character === '"') {
      CANDIDATE_KEY.lastIndex = index;
      const match = depth === 1 ? CANDIDATE_KEY.exec(scope) : null;
      if (match !== null && FAILURE_KEYS[(match[1] ?? '').toLowerCase() as FailureKey](scope, CANDIDATE_KEY.lastIndex)) return true;
      inString = true;
    } else if (character === '{' || character === '[') depth++;
    else if (character === '}' || character === ']') depth--;
  }
  return false;
}

const LETTER = /[A-Za-z]/;
const ASCII_WORD = /^[A-Za-z]+$/;
const DIGIT = /\d/;
// A markup tag's name: a letter, then up to 63 word characters or hyphens, then `>`.
const TAG = /<\/?[A-Za-z][\w-]{0,63}>/g;

/** The part of a text that is read: all of it, or its head and tail joined by an ellipsis. */
function bounded(text: string): string {
  if (text.length <= SHAPE_INPUT_LIMIT) return text;
  const half = SHAPE_INPUT_LIMIT / 2;
  return `${text.slice(0, half)}…${text.slice(text.length - half)}`;
}

/**
 * Whether an answer carries no words: only whitespace, digits, punctuation and markup tags such as
 * `<returncode>0</returncode><output></output>`. A successful write often answers like that. Of a longer text, the
 * first and last 4 KB are read.
 */
export function isContentless(text: string): boolean {
  return !LETTER.test(bounded(text).replace(TAG, ''));
}

/**
 * What kind of answer a call got. A structured result is read from its value's own top-level fields, whatever its
 * size (see {@link readResultFields}: `reading`); text that opens like JSON by its top-level keys within its first 512
 * characters, so a record's own words (`"status": "failed"` of an order) never make it a failure; other text by its
 * wording in the first 300 characters.
 * @param text - a tool's result as text: a string as the tool gave it, or structured data in canonical form
 * @param reading - for structured data, what its top-level fields say; `undefined` for text the tool wrote
 */
export function answerKind(text: string, reading: ResultReading | undefined): AnswerKind {
  if (isContentless(text) && !DIGIT.test(bounded(text))) return 'empty';
  if (reading !== undefined) return reading === 'answer' ? 'answer' : 'failure';
  const head = text.slice(0, FAILURE_WORDING_SCOPE);
  JSON_START.lastIndex = 0;
  if (JSON_START.test(head)) return jsonReadsAsFailure(text.trimStart()) ? 'failure' : 'answer';
  return FAILURE_WORDING.test(head) ? 'failure' : 'answer';
}

/** What a structured result's top-level fields say: the call failed, it found nothing, or neither. */
export type ResultReading = 'failure' | 'nothing-found' | 'answer';

/** Top-level keys of a structured result read for {@link readResultFields}: its first this many own keys. */
export const RESULT_FIELD_SCOPE = 10_000;

/** A field's value that says there is none: `undefined`, `null`, `false`, `0`, `''`, `[]`, `{}`. */
function isNone(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return true;
  if (typeof value !== 'object') return false;
  try {
    return Array.isArray(value) ? (value as unknown[]).length === 0 : Object.keys(value).length === 0;
  } catch {
    // A revoked proxy or a throwing trap: something is there, unreadable.
    return false;
  }
}

function isEmptyArray(value: unknown): boolean {
  try {
    return Array.isArray(value) && (value as unknown[]).length === 0;
  } catch {
    return false;
  }
}

/**
 * What each top-level key (lower-cased) says when its value is what the function accepts: `failure` that the call
 * failed, `nothing-found` that it found nothing. The value-side twin of {@link FAILURE_KEYS}.
 */
const FIELD_READINGS: Readonly<Record<FailureKey, (value: unknown) => boolean>> = {
  error: (value) => !isNone(value),
  errors: (value) => !isNone(value),
  exception: (value) => !isNone(value),
  iserror: (value) => value === true,
  success: (value) => value === false,
  ok: (value) => value === false,
  status: (value) => typeof value === 'string' && value.toLowerCase() === 'error',
  results: isEmptyArray,
  matches: isEmptyArray,
  hits: isEmptyArray,
  items: isEmptyArray,
  records: isEmptyArray,
  rows: isEmptyArray,
  entries: isEmptyArray,
  documents: isEmptyArray,
};
const NOTHING_FOUND_KEYS: ReadonlySet<string> = new Set(['results', 'matches', 'hits', 'items', 'records', 'rows', 'entries', 'documents']);

/**
 * What a structured result says of the call, read from the value itself rather than from its canonical text, so its
 * size does not matter: `{ success: false, data: <600 characters> }` is a failure like `{ success: false, data: 'x' }`.
 * Its own top-level keys (the first {@link RESULT_FIELD_SCOPE}, compared lower-cased) are read as the canonical text's
 * are: a non-empty `error`, `errors` or `exception`, `isError: true`, `success` or `ok` false, or `status: "error"`
 * make a failure; otherwise an empty `results`, `matches`, `hits`, `items`, `records`, `rows`, `entries` or
 * `documents` says nothing was found. Keys of nested values belong to records, not to the answer. An array, a value
 * with a `toJSON` method, or one whose keys cannot be read is an answer. Never throws: a getter or proxy trap that
 * throws reads as a value that is not there.
 * @returns the reading, and the fields that made it (to compare failures by), or `undefined` for an answer's
 */
export function readResultFields(value: unknown): { readonly reading: ResultReading; readonly fields: Readonly<Record<string, unknown>> | undefined } {
  const answer = { reading: 'answer', fields: undefined } as const;
  if (value === null || typeof value !== 'object') return answer;
  let keys: string[];
  try {
    if (Array.isArray(value) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return answer;
    keys = Object.keys(value);
  } catch {
    return answer;
  }
  const failures: Record<string, unknown> = {};
  const nothing: Record<string, unknown> = {};
  let failed = false;
  let empty = false;
  for (const key of keys.slice(0, RESULT_FIELD_SCOPE)) {
    // ASCII letters only, as in text: the Kelvin sign would lower-case to "k" and make "oK" read as "ok".
    const name = ASCII_WORD.test(key) ? key.toLowerCase() : '';
    if (!Object.hasOwn(FIELD_READINGS, name)) continue;
    let field: unknown;
    try {
      field = (value as Record<string, unknown>)[key];
    } catch {
      continue;
    }
    if (!FIELD_READINGS[name as FailureKey](field)) continue;
    if (NOTHING_FOUND_KEYS.has(name)) {
      nothing[key] = field;
      empty = true;
    } else {
      failures[key] = field;
      failed = true;
    }
  }
  if (failed) return { reading: 'failure', fields: failures };
  return empty ? { reading: 'nothing-found', fields: nothing } : answer;
}

/**
 * Longest text blanked whole for {@link volatileBlanked}; of a longer one the first and last half of this are read.
 * Repeated answers are compared on what they say, and a long output says it in its head and tail: on the project's
 * traces, reading 2 KB, 4 KB or 16 KB of each answer stops and catches the same runs, and every character read costs
 * every check.
 */
export const VOLATILE_SCOPE = 4_096;

/** A token for a long string or bigint (`#s<length>:<hash>`), looked for where a `#` is. */
const TOKEN = /#[sn]\d+:[0-9a-f]{28}/y;

/**
 * Each UTF-16 code unit below 128 by what it is to {@link volatileBlanked}: 1 a letter, 2 `_`, 3 a digit, 4 white
 * space, 0 anything else. Above 127, only white space (as `\s` reads it) is told apart.
 */
const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, code) => {
  if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90)) return 1;
  if (code === 95) return 2;
  if (code >= 48 && code <= 57) return 3;
  return code === 32 || (code >= 9 && code <= 13) ? 4 : 0;
});

function classOf(code: number): number {
  if (code < 128) return ASCII_CLASS[code] ?? 0;
  // The rest of what `\s` matches: no-break and other Unicode spaces, the line and paragraph separators, the BOM.
  return code === 160 || code === 5760 || (code >= 8192 && code <= 8202) || code === 8232 || code === 8233 || code === 8239 || code === 8287 || code === 12288 || code === 65279
    ? 4
    : 0;
}

/**
 * An answer with what changes on every call blanked, so two answers compare equal when they differ only there:
 * every run of letters, digits and `_` that holds a digit (timestamps, durations, counters, ids, sizes, progress
 * percentages, hashes) and the whitespace around and between such runs become one `0`; other whitespace collapses to
 * one space. Words, punctuation and the tokens of long strings (`#s<length>:<hash>`) are kept, so a new file name, a
 * new page or a new error message still differs. An answer without a word free of digits (`42`, `[1,2]`, `-1e+21`,
 * `0x1f 0x2a`) is kept whole: its numbers are what it says. Of a text longer than {@link VOLATILE_SCOPE} the first and
 * last halves of that are read. One pass over the characters, no backtracking: linear in what is read.
 */
export function volatileBlanked(text: string): string {
  const read = text.length <= VOLATILE_SCOPE ? text : `${text.slice(0, VOLATILE_SCOPE / 2)}…${text.slice(text.length - VOLATILE_SCOPE / 2)}`;
  const length = read.length;
  let out = '';
  let hasLetter = false;
  // What comes before the next kept part: 2 a blanked run (which swallows whitespace around it), 1 whitespace.
  let pending = 0;
  // Kept characters not yet copied start here: runs of them are copied whole.
  let from = 0;
  let at = 0;
  while (at < length) {
    const kind = classOf(read.charCodeAt(at));
    let end = at + 1;
    if (kind === 0) {
      TOKEN.lastIndex = at;
      if (read.charCodeAt(at) === 35 && TOKEN.test(read)) {
        end = TOKEN.lastIndex;
        hasLetter = true;
      }
    } else if (kind === 4) {
      while (end < length && classOf(read.charCodeAt(end)) === 4) end++;
      // A single space between kept parts is kept as it is; anything else is cut out and written later.
      if (pending !== 0 || end - at !== 1 || read.charCodeAt(at) !== 32) {
        out += read.slice(from, at);
        from = end;
        if (pending === 0) pending = 1;
      }
      at = end;
      continue;
    } else {
      let digit = kind === 3;
      let letter = kind === 1;
      for (let next = end < length ? classOf(read.charCodeAt(end)) : 0; next >= 1 && next <= 3; next = end < length ? classOf(read.charCodeAt(end)) : 0) {
        digit ||= next === 3;
        letter ||= next === 1;
        end++;
      }
      // A word counts as words only without a digit: `1e` of `-1e+21`, `0x1f`, `a3f9` are numbers and ids.
      hasLetter ||= letter && !digit;
      if (digit) {
        // A blanked run swallows the whitespace before it, cut out already or kept as a single space.
        out += read.slice(from, from < at && read.charCodeAt(at - 1) === 32 && pending === 0 ? at - 1 : at);
        from = end;
        pending = 2;
        at = end;
        continue;
      }
    }
    if (pending !== 0) {
      out += pending === 2 ? '0' : ' ';
      pending = 0;
    }
    at = end;
  }
  if (!hasLetter) return read;
  return out + read.slice(from) + (from < length ? '' : pending === 2 ? '0' : pending === 1 ? ' ' : '');
}

/**
 * One part of a shape at a time: a token for a long string or bigint (`#s<length>:<hash>`), a quotation on one line of
 * at most 200 characters (`"…"`, `'…'`, `` `…` `` or `` `…' ``), a run of word characters, a run of whitespace.
 */
const SHAPE_PART = /#[sn]\d+:[0-9a-f]{28}|"[^"\n\r]{0,200}"|'[^'\n\r]{0,200}'|`[^`'\n\r]{0,200}[`']|\w+|[\t\n\v\f\r ]+/g;

/**
 * The shape of a tool's answer: what is left once the parts that only echo the request or count things are blanked, so
 * two answers of one shape tell the agent the same thing ("No matches found for "a"" and "... for "b""). A quotation
 * becomes `""`, a run of `[A-Za-z0-9_]` holding a digit becomes `0` (numbers, ids, hashes, dates), a run of whitespace
 * one space; a token stays whole (the text it stands for was not read). Everything else is kept, so a different file,
 * listing or error message still differs. Of a longer text, the first and last 4 KB are read.
 */
export function answerShape(text: string): string {
  return bounded(text).replace(SHAPE_PART, (part) => {
    const first = part.charAt(0);
    if (first === '#') return part;
    if (first === '"' || first === "'" || first === '`') return '""';
    if (/^\s/.test(part)) return ' ';
    return DIGIT.test(part) ? '0' : part;
  });
}

/**
 * One pass over canonical JSON arguments: a key (`"path":`), an escape (`\n`, so its letter is not glued to the word
 * after it), or a word, the only part kept.
 */
const ARGUMENT_PART = /"(?:[^"\\\n]|\\.)*":|\\.|([A-Za-z0-9_]+)/g;

/**
 * A failure's shape with the words that echo the call's arguments blanked to `0` too: `javac: command not found` and
 * `mvn: command not found` answer `javac` and `mvn` with one failure. The words come from the arguments' preview (at
 * most 120 characters), values only; runs holding a digit are left alone (they are `0` already, or part of a token).
 * @param text - a failure as text
 * @param argsPreview - the call's canonical arguments, shortened
 */
export function failureShape(text: string, argsPreview: string): string {
  const words = new Set<string>();
  for (const [, word] of argsPreview.matchAll(ARGUMENT_PART)) if (word !== undefined) words.add(word);
  return answerShape(text).replace(/\w+/g, (word) => (words.has(word) && !DIGIT.test(word) ? '0' : word));
}
