/** Lower-cased, runs of whitespace collapsed to one space, trimmed: the form in which step texts are compared. */
export function normalizeText(text: string): string {
  // One linear pass; `\s+` cannot backtrack catastrophically.
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Longest preview put into evidence. */
export const PREVIEW_LENGTH = 120;

/** Shortens text for evidence, marking the cut with an ellipsis. */
export function preview(text: string): string {
  return text.length <= PREVIEW_LENGTH ? text : `${text.slice(0, PREVIEW_LENGTH - 1)}…`;
}
