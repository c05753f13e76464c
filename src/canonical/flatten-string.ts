/**
 * The same text, stored in one piece where the engine allows. In V8, `a + b` builds a tree of pieces that keeps every
 * piece alive; reading a character of such a string makes V8 copy it into one piece in place. A string a guard keeps
 * for the rest of a run is about half the size flat. Elsewhere this just reads a character.
 * @param text - any string
 * @returns the same string
 */
export function flattenString(text: string): string {
  text.charCodeAt(0);
  return text;
}
