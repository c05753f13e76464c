import { rmSync } from 'node:fs';
import { defineConfig } from 'tsup';

// The builds below run at the same time and all write to dist/. A build's own `clean` would race the others' output
// (tsup's declaration step deletes every .d.ts in the folder), so dist/ is emptied once, here, before any of them starts.
rmSync('dist', { recursive: true, force: true });

export default defineConfig([
  {
    // The root entry and the subpath exports (`package.json` maps `./<name>` to `dist/<name>.js` and `.cjs`) in one
    // build, so that code they share goes into shared chunks once: a program that imports the root and a subpath loads
    // one copy of the guard, and the package does not carry one per subpath. For CommonJS, tsup hands esbuild's split
    // ES modules to rollup (because `treeshake` is on), which writes the chunks as CommonJS files that the entries
    // `require`; without `treeshake`, tsup's own experimental CommonJS splitting would be used instead.
    entry: {
      'index': 'src/index.ts',
      'openai-agents': 'src/adapters/openai-agents.ts',
      'claude-agent-sdk': 'src/adapters/claude-agent-sdk.ts',
      'langchain': 'src/adapters/langchain.ts',
      'mastra': 'src/adapters/mastra.ts',
      'otel': 'src/adapters/otel.ts',
    },
    format: ['esm', 'cjs'],
    target: 'node18',
    platform: 'neutral',
    // tsup injects `baseUrl`, which TypeScript 6 deprecates (TS5101).
    dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
    // Source maps would ship every source file again, inlined, once per bundle (4.3 of the 6.0 MB installed).
    sourcemap: false,
    clean: false,
    treeshake: true,
    splitting: true,
  },
  {
    // The `agent-loopguard` command: a separate bundle, so the library's chunks stay free of node: imports and of the
    // command's shebang.
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
