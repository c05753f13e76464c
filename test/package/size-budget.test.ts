import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import {
  INSTALLED_BUDGET_BYTES,
  ROOT_ENTRY_GZIP_BUDGET_BYTES,
  TARBALL_BUDGET_BYTES,
  measureBundledEntry,
} from '../../scripts/size-budget.js';
import { subpathNames, type PackageManifest } from './package-rules.js';
import { readFromTarball } from './tarball.js';

/** The names an ESM entry exports: those of each `export { ... };` and `export { ... } from '...';` of its own. */
function exportedNames(code: string): string[] {
  return [...code.matchAll(/^export \{([^}]*)\}(?: from '[^']*')?;$/gm)]
    .flatMap((match) => (match[1] ?? '').split(','))
    .map((entry) => entry.trim().split(/\s+as\s+/).pop() ?? '')
    .filter((name) => name !== '');
}

describe('the size budgets', () => {
  it(`keep the tarball within ${String(TARBALL_BUDGET_BYTES)} bytes`, () => {
    const { tarball } = inject('packedSizes');
    expect(tarball, `npm pack made a tarball of ${String(tarball)} B`).toBeLessThanOrEqual(TARBALL_BUDGET_BYTES);
  });

  it(`keep the installed package within ${String(INSTALLED_BUDGET_BYTES)} bytes`, () => {
    const { unpacked } = inject('packedSizes');
    expect(unpacked, `the tarball's files weigh ${String(unpacked)} B`).toBeLessThanOrEqual(INSTALLED_BUDGET_BYTES);
  });

  it(`keep the root ES module entry with its chunks, minified and gzipped, within ${String(ROOT_ENTRY_GZIP_BUDGET_BYTES)} bytes`, async () => {
    const size = await measureBundledEntry(join(inject('installation').packageFolder, 'dist/index.js'));
    expect(size.minified).toBeLessThan(size.raw);
    expect(size.gzipped).toBeLessThan(size.minified);
    expect(
      size.gzipped,
      `dist/index.js with the chunks it imports weighs ${String(size.gzipped)} B minified and gzipped (npm run size)`,
    ).toBeLessThanOrEqual(ROOT_ENTRY_GZIP_BUDGET_BYTES);
  });

  it('leave each framework adapter to its subpath: the root entry exports none of their functions', () => {
    const tarball = inject('packedTarball');
    const manifest = JSON.parse(readFromTarball(tarball, 'package.json')) as PackageManifest;
    const root = exportedNames(readFromTarball(tarball, 'dist/index.js'));
    expect(root).toContain('createGuard');
    const subpaths = subpathNames(manifest);
    expect(subpaths).toEqual(['openai-agents', 'claude-agent-sdk', 'langchain', 'mastra', 'otel']);
    for (const name of subpaths) {
      const own = exportedNames(readFromTarball(tarball, `dist/${name}.js`));
      expect(own.length, name).toBeGreaterThan(0);
      expect(own.filter((exported) => root.includes(exported)), name).toEqual([]);
    }
  });
});
