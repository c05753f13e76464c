import { DETECTORS } from '../detectors/registry.js';
import { createGuard, type GuardOptions } from '../index.js';
import { safeRead } from '../utils/read.js';
import { errorMessage } from './io.js';
import { decodeUtf8, readCapped } from './read-runs.js';

/** Most bytes a config file may hold (1 MiB): options fit in a few hundred, and `--config /dev/zero` must end. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** Options that take functions, which a JSON file cannot hold: the detectors' that do, and the clock. */
const FUNCTION_OPTIONS = [...DETECTORS.filter((detector) => detector.takesFunctions === true).map((detector) => detector.option), 'now'];

/** Guard options read from a file, or why they could not be. */
export type LoadedConfig = { readonly options: GuardOptions; readonly error?: never } | { readonly error: string; readonly options?: never };

/** What the replay refuses before `createGuard` sees the options, or `undefined` when nothing. */
function replayProblem(value: unknown): string | undefined {
  for (const name of FUNCTION_OPTIONS) {
    if (safeRead(value, name) !== undefined) return `option "${name}" takes a function, which a JSON file cannot hold`;
  }
  return undefined;
}

/**
 * `createGuard`'s message without its prefix, and without the function options in a list of known ones: they are
 * known to `createGuard`, but naming them would suggest a JSON file could set them.
 */
function guardProblem(error: unknown): string {
  return errorMessage(error)
    .replace(/^agent-loopguard: /, '')
    .replace(/\(known: ([^)]*)\)/, (_whole, known: string) => {
      const names = known.split(', ').filter((name) => !FUNCTION_OPTIONS.includes(name));
      return `(known: ${names.join(', ')})`;
    });
}

/**
 * Reads a JSON file of guard options and validates it exactly as `createGuard` does, by calling it, after the checks
 * only a replay needs (no function options). Whatever goes wrong, even a throw
 * that is not a TypeError, comes back as an error message, never as an exception.
 * @param file - path of the file
 * @param maxBytes - most bytes the file may hold
 * @returns the options, or an error message that starts with the file name
 */
export async function loadConfig(file: string, maxBytes = MAX_CONFIG_BYTES): Promise<LoadedConfig> {
  let bytes: Buffer | null;
  try {
    bytes = await readCapped(file, false, maxBytes);
  } catch (error) {
    return { error: `${file}: cannot read: ${errorMessage(error)}` };
  }
  if (bytes === null) return { error: `${file}: larger than ${maxBytes} bytes` };
  const text = decodeUtf8(bytes);
  if (text === undefined) return { error: `${file}: not valid UTF-8` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `${file}: not valid JSON: ${errorMessage(error)}` };
  }
  const problem = replayProblem(value);
  if (problem !== undefined) return { error: `${file}: ${problem}` };
  try {
    createGuard(value as GuardOptions);
  } catch (error) {
    return { error: `${file}: ${guardProblem(error)}` };
  }
  return { options: value as GuardOptions };
}
