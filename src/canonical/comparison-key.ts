import { jsonQuote } from './json-quote.js';
import type { TextHash } from './text-hash.js';
import { stringToken } from './tokens.js';

/** Forms and strings up to this length are compared as they are; longer ones by length and hash. */
export const COMPARISON_KEY_LIMIT = 256;

/**
 * The key a form is compared by: the form itself when it is at most {@link COMPARISON_KEY_LIMIT} characters long,
 * otherwise `#<length>:<hash>`. A form starts with `#` only as a token (`#s`, `#n`), never with `#` and a digit, so the
 * two kinds never meet.
 * @param form - a form from a walker
 * @param hash - the public hash, or a guard's keyed one
 * @returns the form, or its length and hash
 */
export function formKeyWith(form: string, hash: TextHash): string {
  return form.length <= COMPARISON_KEY_LIMIT ? form : '#' + String(form.length) + ':' + hash(form);
}

/**
 * The key a string is compared by, for tool names and texts: its JSON-quoted text when it is at most
 * {@link COMPARISON_KEY_LIMIT} code units long, otherwise its token `#s<length>:<hash>`. Never escapes, lower-cases or
 * copies more than that many code units, whatever the string's length. A quoted key starts with `"`, a token with `#`.
 * @param text - the string
 * @param hash - the public hash, or a guard's keyed one
 * @returns the quoted string, or its length and hash
 */
export function stringKeyWith(text: string, hash: TextHash): string {
  return text.length <= COMPARISON_KEY_LIMIT ? jsonQuote(text) : stringToken(text, hash);
}
