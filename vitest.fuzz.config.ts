import { defineConfig } from 'vitest/config';

/**
 * The property-based suite, kept out of `npm test` so that one stays fast. `npm run test:fuzz` runs the bounded
 * version CI uses; `FUZZ_RUNS=100000 npm run test:fuzz` runs every property that many times.
 */
export default defineConfig({
  test: {
    include: ['test/fuzz/**/*.fuzz.ts'],
    // A long run with FUZZ_RUNS set can take a while; the bounded one finishes well under two minutes.
    testTimeout: process.env.FUZZ_RUNS === undefined ? 60_000 : 0,
    hookTimeout: 60_000,
  },
});
