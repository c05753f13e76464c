import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    target: 'node18',
    platform: 'neutral',
    // tsup injects `baseUrl`, which TypeScript 6 deprecates (TS5101).
    dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
    sourcemap: true,
    // Both builds write to dist/ at the same time: keep the command's output.
    clean: ['!cli.js'],
    treeshake: true,
    splitting: false,
  },
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
