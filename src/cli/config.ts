import { readFile } from 'node:fs/promises';
import { createGuard, type GuardOptions } from '../index.js';
import { errorMessage } from './io.js';

/** Guard options read from a file, or why they could not be. */
export type LoadedConfig = { readonly options: GuardOptions; readonly error?: never } | { readonly error: string; readonly options?: never };

/**
 * Reads a JSON file of guard options and validates it exactly as `createGuard` does, by calling it.
 * @param file - path of the file
 * @returns the options, or an error message that starts with the file name
 */
export async function loadConfig(file: string): Promise<LoadedConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { error: `${file}: cannot read: ${errorMessage(error)}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { error: `${file}: not valid JSON: ${errorMessage(error)}` };
  }
  try {
    createGuard(value as GuardOptions);
  } catch (error) {
    return { error: `${file}: ${errorMessage(error).replace(/^agent-loopguard: /, '')}` };
  }
  return { options: value as GuardOptions };
}
