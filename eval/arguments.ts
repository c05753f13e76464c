/** The command line of `npm run eval`: which trace folders to read, and where to write the report. */

/** The help text. */
export const EVAL_USAGE = `Usage: npm run eval [-- [--traces DIR]... [--out DIR]]

Replays every run of the trace files (*.jsonl.gz, *.jsonl, *.json, *.json.gz) in eval/data and in each DIR given
with --traces, under the default guard, each detector alone, threshold sweeps and other agents' rules, and writes
RESULTS.md and pareto.svg. A file whose name was already read from an earlier folder is skipped.

Options:
  --traces DIR   also read the trace files in DIR (repeatable), e.g. --traces ../shared/traces
  --out DIR      write RESULTS.md and pareto.svg into DIR (default: eval/)
  -h, --help     print this help
`;

/** What the command line asks for. */
export type EvalRequest =
  | { readonly kind: 'help' }
  | {
      readonly kind: 'run';
      /** Folders given with `--traces`, in order, after the default one. */
      readonly traces: readonly string[];
      /** Folder given with `--out`, or `undefined` for the default. */
      readonly out: string | undefined;
    }
  | { readonly kind: 'usage-error'; readonly message: string };

/** `--name=value` carries its value; `--name value` leaves it to the next argument. */
function split(argument: string): { readonly name: string; readonly attached: string | undefined } {
  const equals = argument.indexOf('=');
  return argument.startsWith('--') && equals !== -1
    ? { name: argument.slice(0, equals), attached: argument.slice(equals + 1) }
    : { name: argument, attached: undefined };
}

/**
 * Reads the eval's arguments (what follows `npm run eval --`).
 * @param argv - the arguments, without the node and script paths
 */
export function parseEvalArguments(argv: readonly string[]): EvalRequest {
  const traces: string[] = [];
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i] ?? '';
    const { name, attached } = split(argument);
    if (name === '-h' || name === '--help') return { kind: 'help' };
    if (name !== '--traces' && name !== '--out') {
      const what = argument.startsWith('-') ? `unknown option ${argument}` : `unexpected argument ${argument}: give folders with --traces DIR`;
      return { kind: 'usage-error', message: what };
    }
    const value = attached ?? argv[++i];
    // `--traces --out x` lacks a folder: an option is never taken for one unless attached with `=`.
    if (value === undefined || value === '' || (attached === undefined && value.startsWith('-'))) {
      return { kind: 'usage-error', message: `${name} needs a folder` };
    }
    if (name === '--traces') traces.push(value);
    else if (out !== undefined) return { kind: 'usage-error', message: '--out given twice' };
    else out = value;
  }
  return { kind: 'run', traces, out };
}
