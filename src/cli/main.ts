import type { GuardOptions } from '../index.js';
import { parseArguments, USAGE } from './arguments.js';
import { loadConfig } from './config.js';
import type { CliIo } from './io.js';
import { readRuns, type InputError } from './read-runs.js';
import { replayRun, summarize, type RunReplay } from './replay.js';
import { formatInputError, formatJson, formatStopLine, formatSummary } from './report.js';

/** Exit status: every input read. */
export const EXIT_OK = 0;
/** Exit status: some line or file could not be read; the rest was replayed. */
export const EXIT_BAD_INPUT = 1;
/** Exit status: bad command line or config; nothing was replayed. */
export const EXIT_USAGE = 2;

/**
 * Runs the `agent-loopguard` command in-process.
 * @param argv - the arguments after the script path, e.g. `['replay', '--json', 'runs.jsonl']`
 * @param io - where output goes
 * @returns the exit status: 0 when every input was read, 1 when some line or file was bad, 2 for usage errors
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const request = parseArguments(argv);
  if (request.kind === 'help') {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  if (request.kind === 'usage-error') {
    io.stderr(`agent-loopguard: ${request.message}\n\n${USAGE}`);
    return EXIT_USAGE;
  }

  let options: GuardOptions | undefined;
  if (request.config !== undefined) {
    const loaded = await loadConfig(request.config);
    if (loaded.error !== undefined) {
      io.stderr(`agent-loopguard: ${loaded.error}\n`);
      return EXIT_USAGE;
    }
    options = loaded.options;
  }

  const replays: RunReplay[] = [];
  const errors: InputError[] = [];
  let stopLines = 0;
  for (const file of request.files) {
    for await (const item of readRuns(file)) {
      await io.drained?.();
      if (item.error !== undefined) {
        errors.push(item.error);
        io.stderr(`${formatInputError(item.error)}\n`);
        continue;
      }
      const replay = replayRun(item.run, options);
      replays.push(replay);
      if (!request.json && replay.stop !== null) {
        io.stdout(formatStopLine(replay, replay.stop));
        stopLines++;
      }
    }
  }

  const summary = summarize(replays);
  if (request.json) io.stdout(formatJson({ runs: replays, summary, errors }));
  else io.stdout(`${stopLines > 0 ? '\n' : ''}${formatSummary(summary, errors.length)}`);
  return errors.length > 0 ? EXIT_BAD_INPUT : EXIT_OK;
}
