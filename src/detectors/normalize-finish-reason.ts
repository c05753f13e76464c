import { MAX_NORMALIZED_TEXT, preview } from '../guard/normalize-text.js';

/**
 * Trimmed, lower-cased, `_` replaced by `-`: so `STOP`, ` stop ` and `tool_calls` match their usual spellings. A reason
 * longer than `MAX_NORMALIZED_TEXT` once trimmed is normalised from its start, shortened as a preview is, as step texts
 * are: lower-casing hundreds of millions of characters can crash the process. So long a reason matches no reason a
 * provider sends or `finishReason.terminal` lists (at most 1,000 characters) either way.
 */
export function normalizeFinishReason(reason: string): string {
  const trimmed = reason.trim();
  return (trimmed.length > MAX_NORMALIZED_TEXT ? preview(trimmed, MAX_NORMALIZED_TEXT) : trimmed).toLowerCase().replaceAll('_', '-');
}
