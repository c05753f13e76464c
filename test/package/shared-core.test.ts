import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { SECOND_COPY } from './guards-compared.js';
import { loadedFiles, modulesInSeveralFiles, sourceModules } from './module-graph.js';
import { subpathNames, type PackageManifest } from './package-rules.js';

const { project, packageFolder } = inject('installation');
const read = (path: string): string => readFileSync(join(packageFolder, path), 'utf8');
const manifest = JSON.parse(read('package.json')) as PackageManifest;
const subpaths = subpathNames(manifest);

/** The guard's own code, which every entry needs: where `createGuard` is defined, not just re-exported. */
const DEFINES_CREATE_GUARD = /^(?:export )?function createGuard\(/m;

describe.each([
  { format: 'ES module', extension: 'js' },
  { format: 'CommonJS', extension: 'cjs' },
])('the $format build', ({ extension }) => {
  const entries = ['index', ...subpaths].map((name) => `dist/${name}.${extension}`);
  const loaded = [...new Set(entries.flatMap((entry) => loadedFiles(entry, read)))];

  it('compiles each source module into one file only: no entry carries a copy of code that another loads', () => {
    // Each file names the source modules in it, or the check below would pass on anything (a minified build, say).
    expect(loaded.filter((path) => sourceModules(read(path)).length === 0)).toEqual([]);
    expect(modulesInSeveralFiles(new Map(loaded.map((path) => [path, read(path)])))).toEqual([]);
  });

  it('has the root entry and every subpath that makes guards load the one file that defines createGuard', () => {
    const core = loaded.filter((path) => DEFINES_CREATE_GUARD.test(read(path)));
    expect(core).toHaveLength(1);
    // The /otel subpath records verdicts and makes no guard, so it need not load the guard's code.
    const makers = entries.filter((entry) => entry !== `dist/otel.${extension}`);
    expect(makers).toHaveLength(entries.length - 1);
    for (const entry of makers) expect(loadedFiles(entry, read), entry).toContain(core[0]);
  });
});

describe('a guard made through a subpath', () => {
  const secondCopy = 'second-copy-of-the-package';

  beforeAll(async () => {
    cpSync(packageFolder, join(project, 'node_modules', secondCopy), { recursive: true });
    const source = fileURLToPath(new URL('guards-compared.ts', import.meta.url));
    await build({ entryPoints: [source], format: 'cjs', platform: 'node', target: 'node18', outfile: join(project, 'guards-compared.cjs') });
  });

  const names = JSON.stringify([manifest.name, secondCopy]).slice(1, -1);
  it.each([
    {
      loader: 'import',
      options: ['--input-type=module', '--eval'],
      script: `import probe from './guards-compared.cjs';
        console.log(JSON.stringify(await probe.compareGuards((specifier) => import(specifier), ${names})));`,
    },
    {
      loader: 'require',
      options: ['--eval'],
      script: `require('./guards-compared.cjs').compareGuards(async (specifier) => require(specifier), ${names})
        .then((report) => console.log(JSON.stringify(report)));`,
    },
  ])('shares the prototype of a guard of the root entry, through $loader: one copy of the guard is loaded', ({ options, script }) => {
    const report = JSON.parse(execFileSync(process.execPath, [...options, script], { cwd: project, encoding: 'utf8' })) as unknown;
    // The /otel subpath records verdicts and makes no guard: it has nothing to compare.
    const guardMakers = subpaths.filter((subpath) => subpath !== 'otel');
    expect(report).toEqual({ ...Object.fromEntries(guardMakers.map((subpath) => [subpath, true])), [SECOND_COPY]: false });
  });
});
