import { rmSync } from 'node:fs';
import { defineConfig } from 'tsup';

// The builds below run at the same time and all write to dist/. A build's own `clean` would race the others' output
// (tsup's declaration step deletes every .d.ts in the folder), so dist/ is emptied once, here, before any of them starts.
rmSync('dist', { recursive: true, force: true });

/**
 * Subpath exports (`package.json` maps `./<name>` to `dist/<name>.js` and `.cjs`), each a bundle of its own with its
 * own declarations, so the root entry and its size budget do not grow.
 */
const subpaths: Readonly<Record<string, string>> = {
  'openai-agents': 'src/adapters/openai-agents.ts',
  'claude-agent-sdk': 'src/adapters/claude-agent-sdk.ts',
  'langchain': 'src/adapters/langchain.ts',
  'mastra': 'src/adapters/mastra.ts',
};

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    target: 'node18',
    platform: 'neutral',
    // tsup injects `baseUrl`, which TypeScript 6 deprecates (TS5101).
    dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
    sourcemap: true,
    clean: false,
    treeshake: true,
    splitting: false,
  },
  ...Object.entries(subpaths).map(([name, source]) => ({
    entry: { [name]: source },
    format: ['esm' as const, 'cjs' as const],
    target: 'node18',
    platform: 'neutral' as const,
    dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
    sourcemap: true,
    clean: false,
    treeshake: true,
    splitting: false,
  })),
  {
    // The `agent-loopguard` command: a separate bundle, so the library's stays free of node: imports.
    entry: { cli: 'src/cli/bin.ts' },
    format: ['esm'],
    target: 'node18',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
    sourcemap: false,
    clean: false,
    treeshake: true,
    splitting: false,
  },
]);
