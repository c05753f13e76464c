/** Where the command writes. Tests pass their own; the bin passes the process's streams. */
export interface CliIo {
  /** Writes text to standard output as given (the caller adds newlines). */
  readonly stdout: (text: string) => void;
  /** Writes text to standard error as given (the caller adds newlines). */
  readonly stderr: (text: string) => void;
}
