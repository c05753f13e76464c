import { isContentless, SHAPE_INPUT_LIMIT } from './answer-shape.js';

/**
 * What an answer tells the agent, as far as `stagnation` can read it:
 * - `empty`: nothing came back: no letter and no digit outside markup tags (`''`, `[]`, `{}`, `<output></output>`).
 * - `failure`: the call did not get what it asked for: the answer reads as an error or as "nothing found".
 * - `answer`: anything else, information of its own (a value, a record, a page, an acknowledgement).
 */
export type AnswerKind = 'empty' | 'failure' | 'answer';

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
const CANDIDATE_KEY = new RegExp(String.raw`"(?:${Object.keys(FAILURE_KEYS).join('|')})"\s*:\s*`, 'gi');
/** Any candidate, as many as there may be: for a form whose top-level keys are not known. */
const ANY_CANDIDATE: KnownCandidates = { pattern: CANDIDATE_KEY, count: Number.POSITIVE_INFINITY };
/** A text that opens like JSON: `{"`, `{}`, `[{`, `[[`, `["`, `[]`, `[1`, `[-`. Not `[File: …]` or `[Errno 2]`. */
const JSON_START = /\s*(?:\{\s*["}]|\[\s*[[{"\]\d-])/y;

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/**
 * Whether a JSON object's own keys say the call failed or found nothing: an `error`, `errors` or `exception` that is
 * not empty, `isError: true` (MCP), `success` or `ok` false, `status: "error"`, or an empty `results`
 * (`matches`, `hits`, `items`, `records`, `rows`, `entries`, `documents`). Keys of nested values belong to records,
 * not to the answer: `{"jobs": [{"status": "failed"}]}` is a page of jobs. Reads at most {@link JSON_KEY_SCOPE}
 * characters, each once: candidates are found by a regular expression, and the depth at each is counted on from
 * where the last one left off.
 * @param json - JSON text, leading whitespace trimmed
 * @param candidates - the pattern that finds candidates, and how many of them can be top-level keys: when the
 *   top-level keys are known, only those that are failure keys are looked for, and the scan ends once each is judged
 */
function jsonReadsAsFailure(json: string, candidates: KnownCandidates = ANY_CANDIDATE): boolean {
  if (json.charCodeAt(0) !== OPEN_BRACE) return false;
  const scope = json.slice(0, JSON_KEY_SCOPE);
  const { pattern, count } = candidates;
  pattern.lastIndex = 0;
  let depth = 0;
  let inString = false;
  let scanned = 0;
  let judged = 0;
  for (let match = pattern.exec(scope); match !== null; match = pattern.exec(scope)) {
    for (; scanned < match.index; scanned++) {
      const code = scope.charCodeAt(scanned);
      if (inString) {
        if (code === BACKSLASH) scanned++;
        else if (code === QUOTE) inString = false;
      } else if (code === QUOTE) inString = true;
      else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
      else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
    }
    if (inString || depth !== 1 || scanned !== match.index) {
      // Not a key of the top-level object: look again from just after its quote, which the scan then reads.
      pattern.lastIndex = match.index + 1;
      continue;
    }
    const [candidate] = match;
    const name = candidate.slice(1, candidate.indexOf('"', 1)).toLowerCase() as FailureKey;
    if (FAILURE_KEYS[name](scope, match.index + candidate.length)) return true;
    // A key stands once at the top level: when every candidate has been judged, none is left to find.
    if (++judged === count) return false;
  }
  return false;
}

/** The names of {@link FAILURE_KEYS}. */
const FAILURE_KEY_NAMES: ReadonlySet<string> = new Set(Object.keys(FAILURE_KEYS));
/**
 * Top-level keys looked through for failure keys before the text is scanned for any instead; a list this long is one
 * of those the canonical writer does not remember (see `LAYOUT_KEYS_LIMIT`), so looking through it would be work on
 * every call.
 */
const KEYS_LOOKED_THROUGH = 64;
const ASCII_LETTERS = /^[A-Za-z]+$/;

/** What to look for in a form whose top-level keys are known: those keys that are failure keys, and how many. */
interface KnownCandidates {
  readonly pattern: RegExp;
  readonly count: number;
}

/** Per list of top-level keys (the canonical writer reuses one list for every object with the same keys). */
const candidatesOf = new WeakMap<readonly string[], KnownCandidates | null>();

/**
 * The keys of a JSON object's top level, as the canonical writer listed them, that {@link CANDIDATE_KEY} can match:
 * ASCII letters that lower-case to a failure key (a case-insensitive pattern of ASCII letters matches nothing else).
 * `null` when there are none; `undefined` for a list too long to look through.
 */
function knownCandidates(keys: readonly string[]): KnownCandidates | null | undefined {
  if (keys.length > KEYS_LOOKED_THROUGH) return undefined;
  let known = candidatesOf.get(keys);
  if (known === undefined) {
    const names = keys.filter((key) => ASCII_LETTERS.test(key) && FAILURE_KEY_NAMES.has(key.toLowerCase()));
    known = names.length === 0 ? null : { pattern: new RegExp(String.raw`"(?:${names.join('|')})"\s*:\s*`, 'g'), count: names.length };
    candidatesOf.set(keys, known);
  }
  return known;
}

const DIGIT = /\d/;

/** Whether a text holds a digit in the part `isContentless` reads: its first and last 4 KB (all of a shorter one). */
function hasDigit(text: string): boolean {
  const half = SHAPE_INPUT_LIMIT / 2;
  return DIGIT.test(text.slice(0, half)) || DIGIT.test(text.slice(-half));
}

/**
 * What kind of answer a call got (see {@link AnswerKind}). JSON (a structured result in its canonical form, or text
 * that opens like JSON) is read by its top-level keys, so a record's own words (`"status": "failed"` of an order, a
 * commit message) never make it a failure; other text by its wording in the first 300 characters. Bounded: at most
 * 8 KB read for emptiness (see `isContentless`), 300 characters for wording, 512 for keys.
 * @param text - a tool's result as text: a string as the tool gave it, or structured data in canonical form
 * @param structured - `text` is the canonical form of structured data, not text the tool wrote
 * @param topKeys - of structured data, the keys at the top of its form when the writer listed them (`resultKeys`):
 *   when none can be a failure key, the form is not scanned for one
 * @returns the kind
 */
export function answerKind(text: string, structured: boolean, topKeys?: readonly string[]): AnswerKind {
  if (isContentless(text) && !hasDigit(text)) return 'empty';
  const known = structured && topKeys !== undefined ? knownCandidates(topKeys) : undefined;
  if (known === null) return 'answer';
  // Only the head is read, so a text that opens with a megabyte of blanks costs no more than any other: JSON opens
  // within it (and a canonical form opens at once), so trimming reads no further.
  const head = text.slice(0, FAILURE_WORDING_SCOPE);
  JSON_START.lastIndex = 0;
  if (structured || JSON_START.test(head)) return jsonReadsAsFailure(text.trimStart(), known) ? 'failure' : 'answer';
  return FAILURE_WORDING.test(head) ? 'failure' : 'answer';
}
