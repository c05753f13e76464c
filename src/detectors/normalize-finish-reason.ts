/** Trimmed, lower-cased, `_` replaced by `-`: so `STOP`, ` stop ` and `tool_calls` match their usual spellings. */
export function normalizeFinishReason(reason: string): string {
  return reason.trim().toLowerCase().replaceAll('_', '-');
}
