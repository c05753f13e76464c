import { parseArgs } from 'node:util';
import { errorMessage } from './io.js';

/** The command's help text. */
export const USAGE = `Usage: agent-loopguard replay [--config guard.json] [--json] FILE...

Replays recorded agent runs through a fresh guard each, step by step, and reports where the guard would have stopped
them.

FILE        .jsonl or .jsonl.gz: one run a line, {"id", "outcome"?, "steps": [step, ...]}
            .json or .json.gz: an array of steps (one run), an array of runs, or one run
Options:
  -c, --config FILE   JSON file of guard options (every option but functions)
      --json          print one JSON report instead of text
  -h, --help          print this help

Exit status: 0 when every input was read, 1 when some line or file could not be, 2 for usage errors or a bad config.
`;

/** What the command line asks for. */
export type CliRequest =
  | { readonly kind: 'help' }
  | { readonly kind: 'replay'; readonly config: string | undefined; readonly json: boolean; readonly files: readonly string[] }
  | { readonly kind: 'usage-error'; readonly message: string };

/**
 * Reads the command line (without the node and script paths).
 * @param argv - the arguments, e.g. `['replay', '--json', 'runs.jsonl']`
 */
export function parseArguments(argv: readonly string[]): CliRequest {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        config: { type: 'string', short: 'c' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return { kind: 'usage-error', message: errorMessage(error) };
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { kind: 'help' };
  const [command, ...files] = positionals;
  if (command === undefined) return { kind: 'usage-error', message: 'missing command: expected "replay"' };
  if (command !== 'replay') return { kind: 'usage-error', message: `unknown command "${command}": expected "replay"` };
  if (files.length === 0) return { kind: 'usage-error', message: 'replay needs at least one FILE' };
  return { kind: 'replay', config: values.config, json: values.json === true, files };
}
