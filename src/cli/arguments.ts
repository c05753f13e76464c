import { errorMessage } from './io.js';
import { DEFAULT_STUCK_STATUS } from './replay.js';

/** The command's help text. */
export const USAGE = `Usage: agent-loopguard replay [--config guard.json] [--json] [--stuck-status REGEX] FILE...

Replays recorded agent runs through a fresh guard each, step by step, and reports where the guard would have stopped
them.

FILE        .jsonl or .jsonl.gz: one run a line, {"id", "outcome"?, "steps": [step, ...]}
            .json or .json.gz: an array of steps (one run), an array of runs, or one run
            a line or document: at most 64 MiB and 4,000,000 JSON values; a run: at most 100,000 steps
Options:
  -c, --config FILE          JSON file of guard options (every option but functions)
      --json                 print one JSON report instead of text
      --fail-on-fault        exit 3 when a run was stopped for a fault (not a normal finish)
      --stuck-status REGEX   exit statuses of unresolved runs that count as stuck
                             (default: ${DEFAULT_STUCK_STATUS.source})
  -h, --help                 print this help

Exit status: 0 when every input was read, 1 when some line or file could not be, 2 for usage errors or a bad config;
with --fail-on-fault, 3 when every input was read and the guard stopped a run for a fault.
`;

/** What the command line asks for. */
export type CliRequest =
  | { readonly kind: 'help' }
  | {
      readonly kind: 'replay';
      readonly config: string | undefined;
      readonly json: boolean;
      /** Exit statuses of stuck runs: `--stuck-status`, or {@link DEFAULT_STUCK_STATUS}. */
      readonly stuckStatus: RegExp;
      /** `--fail-on-fault`: exit status 3 when a run was stopped for a fault; absent when not given. */
      readonly failOnFault?: true | undefined;
      readonly files: readonly string[];
    }
  | { readonly kind: 'usage-error'; readonly message: string };

/** The options as read so far. */
interface Options {
  config?: string;
  stuckStatus?: string;
  json?: boolean;
  help?: boolean;
  failOnFault?: boolean;
}

const FLAGS: Readonly<Record<string, 'json' | 'help' | 'failOnFault'>> = {
  '--json': 'json',
  '--help': 'help',
  '-h': 'help',
  '--fail-on-fault': 'failOnFault',
};

/** Options that take a value: where the value goes, the long name messages use, and what the value is called. */
const VALUED: Readonly<Record<string, readonly ['config' | 'stuckStatus', string, string]>> = {
  '--config': ['config', '--config', 'FILE'],
  '-c': ['config', '--config', 'FILE'],
  '--stuck-status': ['stuckStatus', '--stuck-status', 'REGEX'],
};

/** `--name=value` and `-nvalue` carry their value; `--name value` and `-n value` leave it to the next argument. */
function splitOption(argument: string): { readonly name: string; readonly attached: string | undefined } {
  if (argument.startsWith('--')) {
    const equals = argument.indexOf('=');
    return equals === -1 ? { name: argument, attached: undefined } : { name: argument.slice(0, equals), attached: argument.slice(equals + 1) };
  }
  return { name: argument.slice(0, 2), attached: argument.length > 2 ? argument.slice(2) : undefined };
}

/**
 * Reads the option at `argv[index]` into `options`.
 * @returns how many arguments it took (1 or 2), or the usage error
 */
function readOption(argv: readonly string[], index: number, options: Options): number | string {
  const { name, attached } = splitOption(argv[index] ?? '');
  const flag = FLAGS[name];
  if (flag !== undefined) {
    if (attached !== undefined) return `option "${name}" takes no value`;
    options[flag] = true;
    return 1;
  }
  const valued = VALUED[name];
  if (valued === undefined) return `unknown option "${name}"`;
  const [key, long, valueName] = valued;
  const value = attached ?? argv[index + 1];
  if (value === undefined || value === '') return `option "${long}" needs a ${valueName}`;
  // A forgotten value would otherwise swallow the next option: `--config --json`.
  if (attached === undefined && value.startsWith('-') && value !== '-') {
    return `option "${long}" needs a ${valueName}; for one that starts with "-", write ${long}=${valueName}`;
  }
  options[key] = value;
  return attached === undefined ? 2 : 1;
}

/**
 * Reads the command line (without the node and script paths). A small parser of its own rather than `util.parseArgs`,
 * which Node gained only in 18.3 while the package supports 18.0: options may come anywhere, `--` ends them, and
 * a later option overrides an earlier one.
 * @param argv - the arguments, e.g. `['replay', '--json', 'runs.jsonl']`
 */
export function parseArguments(argv: readonly string[]): CliRequest {
  const options: Options = {};
  const positionals: string[] = [];
  for (let index = 0; index < argv.length; ) {
    const argument = argv[index] ?? '';
    if (argument === '--') {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    if (!argument.startsWith('-') || argument === '-') {
      positionals.push(argument);
      index++;
      continue;
    }
    const taken = readOption(argv, index, options);
    if (typeof taken === 'string') return { kind: 'usage-error', message: taken };
    index += taken;
  }

  if (options.help === true) return { kind: 'help' };
  const [command, ...files] = positionals;
  if (command === undefined) return { kind: 'usage-error', message: 'missing command: expected "replay"' };
  if (command !== 'replay') return { kind: 'usage-error', message: `unknown command "${command}": expected "replay"` };
  if (files.length === 0) return { kind: 'usage-error', message: 'replay needs at least one FILE' };
  let stuckStatus = DEFAULT_STUCK_STATUS;
  if (options.stuckStatus !== undefined) {
    try {
      stuckStatus = new RegExp(options.stuckStatus);
    } catch (error) {
      return { kind: 'usage-error', message: `option "--stuck-status" needs a valid REGEX: ${errorMessage(error)}` };
    }
  }
  const request = { kind: 'replay', config: options.config, json: options.json === true, stuckStatus, files } as const;
  // Left out unless given, so a request reads the same as before the option existed.
  return options.failOnFault === true ? { ...request, failOnFault: true } : request;
}
