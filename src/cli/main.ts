import { printable } from '../utils/text.js';
import type { GuardOptions } from '../index.js';
import { parseArguments, USAGE } from './arguments.js';
import { loadConfig } from './config.js';
import type { CliIo } from './io.js';
import { DEFAULT_READ_LIMITS, readRuns, type ReadLimits } from './read-runs.js';
import { createTally, replayRun } from './replay.js';
import { formatInputError, jsonReport, MAX_LISTED_ERRORS, textReport } from './report.js';

/** Exit status: every input read (and, with `--fail-on-fault`, no run stopped for a fault). */
export const EXIT_OK = 0;
/** Exit status: some line or file could not be read; the rest was replayed. Outranks {@link EXIT_FAULT_STOPS}. */
export const EXIT_BAD_INPUT = 1;
/** Exit status: bad command line or config; nothing was replayed. */
export const EXIT_USAGE = 2;
/**
 * Exit status with `--fail-on-fault`: every input read, and the guard stopped at least one run for a fault (`isFault`:
 * every stop but a normal `stop` finish).
 */
export const EXIT_FAULT_STOPS = 3;

/** How much of the input one line or document may be, and how many input errors the JSON report lists. */
export interface ReplayLimits extends ReadLimits {
  readonly maxListedErrors: number;
}

/** The limits the command uses; tests pass smaller ones. */
export const DEFAULT_LIMITS: ReplayLimits = Object.freeze({ ...DEFAULT_READ_LIMITS, maxListedErrors: MAX_LISTED_ERRORS });

/**
 * Runs the `agent-loopguard` command in-process. Runs are replayed and reported one at a time, so memory does not
 * grow with their number.
 * @param argv - the arguments after the script path, e.g. `['replay', '--json', 'runs.jsonl']`
 * @param io - where output goes
 * @param limits - caps on input and report size
 * @returns the exit status: 0 when every input was read, 1 when some line or file was bad, 2 for usage errors; with
 *   `--fail-on-fault`, 3 when every input was read and some run had a fault stop
 */
export async function main(argv: readonly string[], io: CliIo, limits: ReplayLimits = DEFAULT_LIMITS): Promise<number> {
  const request = parseArguments(argv);
  if (request.kind === 'help') {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  if (request.kind === 'usage-error') {
    io.stderr(`agent-loopguard: ${printable(request.message)}\n\n${USAGE}`);
    return EXIT_USAGE;
  }

  let options: GuardOptions | undefined;
  if (request.config !== undefined) {
    const loaded = await loadConfig(request.config);
    if (loaded.error !== undefined) {
      io.stderr(`agent-loopguard: ${printable(loaded.error)}\n`);
      return EXIT_USAGE;
    }
    options = loaded.options;
  }

  const tally = createTally();
  const report = request.json ? jsonReport(io, limits.maxListedErrors) : textReport(io, request.stuckStatus);
  let badInputs = 0;
  for (const file of request.files) {
    for await (const item of readRuns(file, limits)) {
      if (item.error === undefined) {
        const replay = replayRun(item.run, options, request.stuckStatus);
        tally.add(replay);
        report.run(replay, item.run);
      } else {
        badInputs++;
        io.stderr(`${formatInputError(item.error)}\n`);
        report.error(item.error);
      }
      await io.drained?.();
    }
  }
  const summary = tally.summary();
  report.end(summary);
  // Unread input outranks what the runs read say: their verdicts are not the whole answer.
  if (badInputs > 0) return EXIT_BAD_INPUT;
  return request.failOnFault === true && summary.faultStops > 0 ? EXIT_FAULT_STOPS : EXIT_OK;
}
