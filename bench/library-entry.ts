/** What the benchmarks use of the library: its public entry, and the internals the canonicalize benchmark compares. */
export * from '../src/index.js';
export { createHashKey } from '../src/canonical/hash-key.js';
export { hashString } from '../src/canonical/stable-hash.js';
export { StepReader } from '../src/canonical/step-reader.js';
