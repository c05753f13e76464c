import { describe, expect, inject, it } from 'vitest';
import { ESM_ENTRY_GZIP_BUDGET_BYTES, measureEntry } from '../../scripts/size-budget.js';
import { subpathNames, type PackageManifest } from './package-rules.js';
import { readFromTarball } from './tarball.js';

/** The names an ESM entry exports: those of each `export { ... };` and `export { ... } from '...';` of its own. */
function exportedNames(code: string): string[] {
  return [...code.matchAll(/^export \{([^}]*)\}(?: from '[^']*')?;$/gm)]
    .flatMap((match) => (match[1] ?? '').split(','))
    .map((entry) => entry.trim().split(/\s+as\s+/).pop() ?? '')
    .filter((name) => name !== '');
}

describe('the size budget', () => {
  it(`keeps the packed ESM entry, minified and gzipped, under ${String(ESM_ENTRY_GZIP_BUDGET_BYTES)} bytes`, async () => {
    const size = await measureEntry(readFromTarball(inject('packedTarball'), 'dist/index.js'));
    expect(size.minified).toBeLessThan(size.raw);
    expect(size.gzipped).toBeLessThan(size.minified);
    expect(size.gzipped).toBeLessThan(ESM_ENTRY_GZIP_BUDGET_BYTES);
  });

  it('leaves each framework adapter to its subpath: the root entry exports none of their functions', () => {
    const tarball = inject('packedTarball');
    const manifest = JSON.parse(readFromTarball(tarball, 'package.json')) as PackageManifest;
    const root = exportedNames(readFromTarball(tarball, 'dist/index.js'));
    expect(root).toContain('createGuard');
    const subpaths = subpathNames(manifest);
    expect(subpaths).toEqual(['openai-agents', 'claude-agent-sdk', 'langchain', 'mastra']);
    for (const name of subpaths) {
      const own = exportedNames(readFromTarball(tarball, `dist/${name}.js`));
      expect(own.length, name).toBeGreaterThan(0);
      expect(own.filter((exported) => root.includes(exported)), name).toEqual([]);
    }
  });
});
