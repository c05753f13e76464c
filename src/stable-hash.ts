import { canonicalize } from './canonicalize.js';

/** PLACEHOLDER: replaced by the full normaliser. */
export function hashString(text: string): string {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16).padStart(28, '0');
}

/** PLACEHOLDER: 28 hex characters from the canonical form. */
export function stableHash(value: unknown): string {
  return hashString(canonicalize(value));
}

/** PLACEHOLDER: the key the guard compares: a canonical form when short, else its length plus its hash. */
export function comparisonKey(form: string): string {
  return form.length <= 256 ? form : `#${String(form.length)}:${hashString(form)}`;
}
