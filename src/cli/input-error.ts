/** A problem with one input: a file that cannot be read, a line that is not a run. */
export interface InputError {
  readonly file: string;
  /** 1-based line of a JSON-lines file, or `null` when the problem is not tied to a line. */
  readonly line: number | null;
  readonly message: string;
}

/**
 * The `file:line: message` form editors and terminals recognise.
 * @param error - the problem
 */
export function formatInputError(error: InputError): string {
  const where = error.line === null ? error.file : `${error.file}:${String(error.line)}`;
  return `${where}: ${error.message}`;
}
