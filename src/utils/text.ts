/** Text as the guard compares it, shows it in evidence, and writes it to logs. */

/**
 * Texts longer than this are not normalised whole: lower-casing hundreds of millions of characters can exhaust the
 * heap. Such a text is compared by its exact length and hash, and previewed from its start.
 */
export const MAX_NORMALIZED_TEXT = 4_194_304;

/** Longest preview put into evidence. */
export const PREVIEW_LENGTH = 120;

/** Longest tool name put into evidence and details; a longer one is shortened as a preview is. */
export const NAME_LENGTH = 1024;

/** Lower-cased, runs of whitespace collapsed to one space, trimmed: the form in which step texts are compared. */
export function normalizeText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Shortens text for evidence, marking the cut with an ellipsis. The cut never falls between the two halves of a
 * surrogate pair, so a preview is well-formed where the text was.
 * @param text - any text
 * @param length - the longest result, ellipsis included
 */
export function preview(text: string, length = PREVIEW_LENGTH): string {
  if (text.length <= length) return text;
  let end = length - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

// Characters that can rewrite what a log or terminal shows: C0 and C1 controls, DEL, the line and paragraph
// separators, the bidirectional formatting marks, and lone surrogate halves.
const UNPRINTABLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Longest text escaped whole (2^20 characters); a longer one is shortened first, as a preview is. Escaping can make
 * text six times longer, and replacing hundreds of millions of characters at once ends the process with a fatal error
 * that no `catch` sees.
 */
export const PRINTABLE_LENGTH = 1024 * 1024;

/**
 * Text that is safe to write on one line of a log or terminal: every character that could start a new line, move the
 * cursor, change colours or reorder text is written as a visible escape (`\n`, `\u001b`). Behind verdict details,
 * `explain()` and the replay command's report, so a tool name or run id cannot forge a line.
 * @param text - any string; one longer than {@link PRINTABLE_LENGTH} is shortened first
 */
export function printable(text: string): string {
  const kept = text.length > PRINTABLE_LENGTH ? preview(text, PRINTABLE_LENGTH) : text;
  return kept.replace(UNPRINTABLE, (character) => SHORT_ESCAPES[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A tool name a message for the model may show: a plain identifier, short enough that it cannot carry a sentence. */
const PLAIN_TOOL_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * A tool as a message for the model names it: its name when that is a plain identifier, else "a tool". A tool's name
 * is chosen by the model (or by whoever wrote the tool), and the message reaches the model as the user's words.
 * @param name - the tool's name, as given
 */
export function toolLabel(name: string): string {
  return PLAIN_TOOL_NAME.test(name) ? name : 'a tool';
}

/**
 * The tools of some calls as a message for the model lists them: the first three distinct labels (see
 * {@link toolLabel}), then "and others", so the list is short whatever the calls.
 */
export function toolList(names: readonly string[]): string {
  const labels = [...new Set(names.map(toolLabel))];
  const shown = labels.slice(0, 3).join(', ');
  return labels.length > 3 ? `${shown} and others` : shown;
}
