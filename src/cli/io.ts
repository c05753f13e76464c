/** Where the command writes. Tests pass their own; the bin passes the process's streams. */
export interface CliIo {
  /** Writes text to standard output as given (the caller adds newlines). */
  readonly stdout: (text: string) => void;
  /** Writes text to standard error as given (the caller adds newlines). */
  readonly stderr: (text: string) => void;
  /**
   * Resolves once both streams have taken what was written. The command awaits it after each run, so a slow reader
   * holds the replay back instead of letting output pile up in memory. Absent: output is taken at once.
   */
  readonly drained?: () => Promise<void>;
}

/** The part of a process stream the command uses. */
export interface OutputStream {
  /** Returns false when the stream's buffer is full: more can be written after 'drain'. */
  write(text: string): boolean;
  on(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
}

/** Writes to one stream until it fails, then drops what follows. */
interface GuardedStream {
  write(text: string): void;
  drained(): Promise<void>;
}

/**
 * A stream that cannot break the command. Once it errs or closes (a reader that went away, `... | head`: EPIPE; a
 * closed descriptor: EBADF; anything else), later text is dropped: the listener records the failure and never throws,
 * so the replay goes on and the other stream still gets the summary.
 */
function guardedStream(stream: OutputStream): GuardedStream {
  let failed = false;
  let waiting: Promise<void> | undefined;
  let release: (() => void) | undefined;
  const wake = (): void => {
    const resolve = release;
    release = undefined;
    waiting = undefined;
    resolve?.();
  };
  const fail = (): void => {
    failed = true;
    wake();
  };
  stream.on('drain', wake);
  stream.on('error', fail);
  stream.on('close', fail);
  return {
    write(text) {
      if (failed) return;
      try {
        if (stream.write(text) || waiting !== undefined) return;
      } catch {
        fail();
        return;
      }
      waiting = new Promise((resolve) => {
        release = resolve;
      });
    },
    drained: () => waiting ?? Promise.resolve(),
  };
}

/**
 * Output to the process's streams: a failing stream drops its output instead of crashing the command, and
 * `drained` waits for both to take what they were given.
 * @param stdout - standard output
 * @param stderr - standard error
 */
export function processIo(stdout: OutputStream, stderr: OutputStream): CliIo {
  const out = guardedStream(stdout);
  const err = guardedStream(stderr);
  return {
    stdout: (text) => {
      out.write(text);
    },
    stderr: (text) => {
      err.write(text);
    },
    drained: async () => {
      await Promise.all([out.drained(), err.drained()]);
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
