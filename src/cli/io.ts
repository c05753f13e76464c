/** Where the command writes. Tests pass their own; the bin passes the process's streams. */
export interface CliIo {
  /** Writes text to standard output as given (the caller adds newlines). */
  readonly stdout: (text: string) => void;
  /** Writes text to standard error as given (the caller adds newlines). */
  readonly stderr: (text: string) => void;
}

/** The part of a process stream the command uses. */
export interface OutputStream {
  write(text: string): unknown;
  on(event: 'error', listener: (error: Error & { code?: string }) => void): unknown;
}

/**
 * Output to the process's streams. A reader that goes away early (`... | head`) closes the pipe: further output is
 * dropped instead of crashing with EPIPE. Other stream errors are thrown.
 * @param stdout - standard output
 * @param stderr - standard error
 */
export function processIo(stdout: OutputStream, stderr: OutputStream): CliIo {
  let closed = false;
  stdout.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
    closed = true;
  });
  return {
    stdout: (text) => {
      if (!closed) stdout.write(text);
    },
    stderr: (text) => {
      stderr.write(text);
    },
  };
}

/**
 * The message of anything thrown.
 * @param error - what was caught
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
