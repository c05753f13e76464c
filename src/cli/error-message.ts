/**
 * The message of anything thrown.
 * @param error - what was caught
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
