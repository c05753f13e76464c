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
 * What kind of answer a call got. JSON (a structured result in canonical form, or text that opens like JSON) is read
 * by its top-level keys, so a record's own words (`"status": "failed"` of an order) never make it a failure; other
 * text by its wording in the first 300 characters.
 * @param text - a tool's result as text: a string as the tool gave it, or structured data in canonical form
 * @param structured - `text` is the canonical form of structured data, not text the tool wrote
 */
export function answerKind(text: string, structured: boolean): AnswerKind {
  if (isContentless(text) && !DIGIT.test(bounded(text))) return 'empty';
  const head = text.slice(0, FAILURE_WORDING_SCOPE);
  JSON_START.lastIndex = 0;
  if (structured || JSON_START.test(head)) return jsonReadsAsFailure(text.trimStart()) ? 'failure' : 'answer';
  return FAILURE_WORDING.test(head) ? 'failure' : 'answer';
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
