import { relative } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import base from './vitest.config.js';

/**
 * Test files in the order that finds a mutant soonest: the file that failed last first (it most likely covers the code
 * now mutated, too), then the quickest. Vitest's own order runs the slowest files first, which suits a whole suite
 * but not Stryker, which stops at the first failing test: a mutant the detector's own unit tests kill in milliseconds
 * would wait for the seconds-long differential and huge-input tests to pass first.
 */
class QuickestFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const state = (file: TestSpecification) => cache.getFileTestResults(`${file.project.name}:${relative(config.root, file.moduleId)}`);
    return Promise.resolve(
      [...files].sort((a, b) => {
        const stateA = state(a);
        const stateB = state(b);
        if (stateA?.failed !== stateB?.failed) return stateA?.failed === true ? -1 : 1;
        return (stateA?.duration ?? 0) - (stateB?.duration ?? 0);
      }),
    );
  }
}

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
    sequence: { sequencer: QuickestFirstSequencer },
  },
});
