/**
 * The library as users run it: `src/` bundled by esbuild as tsup bundles `dist/` (ESM, platform neutral, target
 * Node 18, tree-shaken), not the sources as tsx runs them. tsx keeps function names, which wraps every function it
 * creates in a property definition: a closure made per call (each detector of a new guard, for one) then costs several
 * times what it costs in the published build, and `createGuard()` measured through tsx is several times as slow. The
 * bundle is built into a temporary file when a benchmark starts, so it always holds the working tree's code.
 *
 * The file is an `.mjs`: tsx transforms a `.js` file with `export`s outside a `"type": "module"` package as it
 * transforms TypeScript, names kept, so a bundle written as `library.js` in a temporary folder was measured with every
 * closure wrapped after all. A probe in the bundle tells if a loader ever rewrites it again.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

const PROBE_NAME = 'benchLoaderProbe';
// A named closure: a loader that keeps names wraps it in `__name`, which its source then shows.
const PROBE = `\nexport const ${PROBE_NAME} = () => { const named = () => 0; return named; };\n`;

/**
 * Bundles an entry file the way the published build is bundled and imports it.
 * @param entry - the entry's path
 * @returns the bundle's exports
 */
export async function importBundled<Module>(entry: string): Promise<Module> {
  const result = buildSync({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'neutral', target: 'node18', treeShaking: true, write: false });
  const directory = mkdtempSync(join(tmpdir(), 'agent-loopguard-bench-library-'));
  const file = join(directory, 'library.mjs');
  writeFileSync(file, (result.outputFiles[0]?.text ?? '') + PROBE);
  try {
    const loaded = (await import(pathToFileURL(file).href)) as Module & { readonly [PROBE_NAME]: () => unknown };
    if (String(loaded[PROBE_NAME]).includes('__name')) throw new Error(`${file} was rewritten on loading, names kept: it would not measure the published build`);
    return loaded;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

// The public entry only: what users import, so the benchmarks keep working however `src/` is laid out behind it.
const library = await importBundled<typeof import('../src/index.js')>(fileURLToPath(new URL('../src/index.ts', import.meta.url)));

export const { createGuard, toGuardStep, toStopWhen } = library;
export type { Guard, GuardOptions, GuardStep } from '../src/index.js';

// The AI SDK's steering hooks, from the root entry, and the Mastra subpath, bundled as tsup bundles it.
export const { toAgentSettings } = library;
export const { toMastraOptions } = await importBundled<typeof import('../src/adapters/mastra.js')>(
  fileURLToPath(new URL('../src/adapters/mastra.ts', import.meta.url)),
);
