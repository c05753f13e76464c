import { parseArgs } from 'node:util';
import { errorMessage } from './error-message.js';

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
