import { preview } from './normalize-text.js';

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
 * Longest text escaped whole (2^20 characters, the long-string limit of canonical forms); a longer one is shortened
 * first, as a preview is. Escaping can make text six times longer, and replacing hundreds of millions of characters at
 * once ends the process with a fatal error that no `catch` sees.
 */
export const PRINTABLE_LENGTH = 1024 * 1024;

/**
 * Text that is safe to write on one line of a log or terminal: every character that could start a new line, move the
 * cursor, change colours or reorder text is written as a visible escape (`\n`, `\u001b`). The one escape function
 * behind verdict details, `explain()` and the replay command's report, so a tool name or run id cannot forge a line.
 * @param text - any string; one longer than {@link PRINTABLE_LENGTH} is shortened first
 * @returns the same text when it has nothing to escape and is not too long, else the escaped copy
 */
export function printable(text: string): string {
  const kept = text.length > PRINTABLE_LENGTH ? preview(text, PRINTABLE_LENGTH) : text;
  UNPRINTABLE.lastIndex = 0;
  return UNPRINTABLE.test(kept) ? kept.replace(UNPRINTABLE, escapeCharacter) : kept;
}
