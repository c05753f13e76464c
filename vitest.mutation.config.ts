import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The suite Stryker runs for every mutant (`npm run test:mutation`): the unit tests, without what runs other
 * processes or whole hosts (`test/integration/`: real SDKs, the Claude CLI, Node 22 processes on SQLite), the
 * documentation's snippets and commands (`test/docs/`), and type tests, which no runtime mutant can fail. Those made
 * each surviving mutant cost minutes on a two-core machine, and they exercise the code the unit tests already cover.
 */
export default defineConfig({
  test: {
    ...base.test,
    exclude: [...configDefaults.exclude, 'test/package/**', 'test/integration/**', 'test/docs/**'],
    typecheck: { enabled: false },
  },
});
