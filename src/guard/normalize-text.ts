/** Lower-cased, runs of whitespace collapsed to one space, trimmed: the form in which step texts are compared. */
export function normalizeText(text: string): string {
  // One linear pass; `\s+` cannot backtrack catastrophically.
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Texts longer than this are not normalised whole: lower-casing hundreds of millions of characters can exhaust the
 * heap. Such a text is compared by its exact length and hash, and previewed from its start.
 */
export const MAX_NORMALIZED_TEXT = 4_194_304;

/** Longest preview put into evidence. */
export const PREVIEW_LENGTH = 120;

/** Longest tool name put into evidence and details; a longer one is shortened as a preview is. */
export const NAME_LENGTH = 1024;

/**
 * Shortens text for evidence, marking the cut with an ellipsis. The cut never falls between the two halves of a
 * surrogate pair, so a preview is always well-formed where the text was.
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
