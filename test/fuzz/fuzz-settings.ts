import type { Parameters } from 'fast-check';

/**
 * How many runs each property gets. CI uses the bounded counts written next to each property; set `FUZZ_RUNS`
 * for a long run (`FUZZ_RUNS=100000 npm run test:fuzz`) and `FUZZ_SEED` to replay a failure fast-check reported.
 */
function readPositiveInteger(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}".`);
  return value;
}

const runsOverride = readPositiveInteger('FUZZ_RUNS');
const seed = readPositiveInteger('FUZZ_SEED');

/** fast-check parameters: `ciRuns` unless `FUZZ_RUNS` says otherwise. */
export function fuzzParameters<T>(ciRuns: number): Parameters<T> {
  return {
    numRuns: runsOverride ?? ciRuns,
    ...(seed === undefined ? {} : { seed }),
    endOnFailure: false,
  };
}
