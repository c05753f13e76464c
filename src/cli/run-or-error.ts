import type { InputError } from './input-error.js';
import type { RecordedRun } from './recorded-run.js';

/** What reading an input yields, item by item: a run to replay, or a problem to report. */
export type RunOrError = { readonly run: RecordedRun; readonly error?: never } | { readonly error: InputError; readonly run?: never };
