import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // No test asserts speed: work is bounded by counting, not timing. A generous limit keeps the heavy ones (huge
    // inputs, property runs, child processes) from failing on a busy two-core machine, where they take a few seconds.
    testTimeout: 60_000,
    // Worker threads rather than forked processes: the same isolation per file for this suite, and a fifth less CPU.
    pool: 'threads',
    hookTimeout: 120_000,
    // The packed-tarball tests need a build: `npm run test:package` runs them (vitest.package.config.ts).
    exclude: [...configDefaults.exclude, 'test/package/**'],
    // The type tests (`*.test-d.ts`) are compile-time assertions: `npm run typecheck` compiles them with the rest of
    // the project, so running the compiler a second time here would only double the suite's cost.
    typecheck: { enabled: false },
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['text-summary', 'text'],
      thresholds: { lines: 100, statements: 100, functions: 100, branches: 95 },
    },
  },
});
