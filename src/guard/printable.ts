// Characters that can rewrite what a log or terminal shows: C0 and C1 controls (newlines, escape sequences), DEL, the
// line and paragraph separators, the bidirectional formatting marks, and lone surrogate halves.
const UNPRINTABLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeCharacter(character: string): string {
  return SHORT_ESCAPES[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Text that is safe to write on one line of a log or terminal: every character that could start a new line, move the
 * cursor, change colours or reorder text is written as a visible escape (`\n`, `\u001b`). The one escape function
 * behind verdict details, `explain()` and the replay command's report, so a tool name or run id cannot forge a line.
 * @param text - any string
 * @returns the same text when it has nothing to escape, else the escaped copy
 */
export function printable(text: string): string {
  UNPRINTABLE.lastIndex = 0;
  return UNPRINTABLE.test(text) ? text.replace(UNPRINTABLE, escapeCharacter) : text;
}
