import { describe, expect, it } from 'vitest';
import {
  LIBRARY_FILES,
  PACKAGE_DOCUMENTS,
  binTargets,
  installScripts,
  missingFiles,
  referencedFiles,
  optionalPeerNames,
  runtimeDependencies,
  sharedChunks,
  subpathFiles,
  subpathNames,
  unexpectedFiles,
} from './package-rules.js';

const complete = [...LIBRARY_FILES, ...PACKAGE_DOCUMENTS];
const withCommand = { bin: { 'agent-loopguard': './dist/cli.js' } };

describe('missingFiles and unexpectedFiles', () => {
  it('accept exactly the library build plus the documents when there is no bin', () => {
    expect(missingFiles(complete, {})).toEqual([]);
    expect(unexpectedFiles(complete, {})).toEqual([]);
  });

  it('report each required file that is absent', () => {
    const withoutDeclarations = complete.filter((path) => path !== 'dist/index.d.cts' && path !== 'CHANGELOG.md');
    expect(missingFiles(withoutDeclarations, {})).toEqual(['CHANGELOG.md', 'dist/index.d.cts']);
  });

  it('report sources, tests, configs, source maps and stray build output', () => {
    const extra = ['src/index.ts', 'test/a.test.ts', 'tsconfig.json', 'dist/index.js.map', 'dist/chunk-1.js', 'dist/cli.js'];
    expect(unexpectedFiles([...complete, ...extra], {})).toEqual(extra);
  });

  it('accept the chunks that entries share, code and declarations, but not their source maps', () => {
    const chunks = ['dist/chunk-T6N4OR3W.js', 'dist/chunk-EJ6QX7JY.cjs', 'dist/types-C7vgcZXj.d.ts', 'dist/to-guard-step-COv9mp31.d.cts'];
    expect(unexpectedFiles([...complete, ...chunks, 'dist/chunk-T6N4OR3W.js.map'], {})).toEqual(['dist/chunk-T6N4OR3W.js.map']);
    expect(missingFiles([...complete, ...chunks], {})).toEqual([]);
  });

  it('require a declared command, and nothing else built for it, not even a source map', () => {
    expect(missingFiles(complete, withCommand)).toEqual(['dist/cli.js']);
    const shipped = [...complete, 'dist/cli.js', 'dist/cli.js.map', 'dist/cli.d.ts'];
    expect(unexpectedFiles(shipped, withCommand)).toEqual(['dist/cli.js.map', 'dist/cli.d.ts']);
    expect(unexpectedFiles([...complete, 'dist/cli.js'], withCommand)).toEqual([]);
  });
});

describe('sharedChunks', () => {
  it('picks out the chunks by the names esbuild, rollup and rollup-plugin-dts give them', () => {
    const files = ['dist/chunk-T6N4OR3W.js', 'dist/chunk-EJ6QX7JY.cjs', 'dist/types-C7vgcZXj.d.cts', 'dist/index.js', 'dist/mastra.d.ts'];
    expect(sharedChunks([...files, 'chunk-T6N4OR3W.js', 'dist/chunk-T6N4OR3W.js.map'])).toEqual(files.slice(0, 3));
  });
});

describe('subpath exports', () => {
  const manifest = { exports: { '.': './dist/index.js', './openai-agents': {}, './package.json': './package.json' } };

  it('are every exports key but the root and package.json', () => {
    expect(subpathNames(manifest)).toEqual(['openai-agents']);
    expect(subpathNames({})).toEqual([]);
    expect(subpathNames({ exports: './dist/index.js' })).toEqual([]);
  });

  it('each ship both formats, declarations and a package.json for node10 resolution', () => {
    const files = subpathFiles(manifest);
    expect(files).toEqual([
      'dist/openai-agents.cjs',
      'dist/openai-agents.d.cts',
      'dist/openai-agents.d.ts',
      'dist/openai-agents.js',
      'openai-agents/package.json',
    ]);
    expect(missingFiles(complete, manifest)).toEqual(files);
    expect(unexpectedFiles([...complete, ...files, 'dist/langchain.js'], manifest)).toEqual(['dist/langchain.js']);
  });
});

describe('binTargets', () => {
  it('reads a string bin, a map of commands, and no bin', () => {
    expect(binTargets({ bin: 'dist/cli.js' })).toEqual(['dist/cli.js']);
    expect(binTargets({ bin: { a: './dist/a.js', b: 'dist/a.js', c: 'dist/c.js' } })).toEqual(['dist/a.js', 'dist/c.js']);
    expect(binTargets({})).toEqual([]);
  });
});

describe('referencedFiles', () => {
  it('collects main, module, types, every nested exports target and bins', () => {
    const manifest = {
      main: './dist/index.cjs',
      module: './dist/index.js',
      types: './dist/index.d.cts',
      exports: {
        '.': { import: { types: './dist/index.d.ts', default: './dist/index.js' }, require: './dist/index.cjs' },
        './package.json': './package.json',
        './internal': null,
      },
      ...withCommand,
    };
    expect(referencedFiles(manifest)).toEqual([
      'dist/cli.js',
      'dist/index.cjs',
      'dist/index.d.cts',
      'dist/index.d.ts',
      'dist/index.js',
      'package.json',
    ]);
  });
});

describe('runtimeDependencies', () => {
  it('finds every field through which npm installs another package', () => {
    const manifest = {
      dependencies: { a: '1' },
      optionalDependencies: { b: '1' },
      peerDependencies: { c: '1' },
      bundleDependencies: ['d'],
      bundledDependencies: true,
      devDependencies: { vitest: '4' },
    };
    expect(runtimeDependencies(manifest)).toEqual([
      'dependencies: a',
      'optionalDependencies: b',
      'peerDependencies: c',
      'bundleDependencies: d',
      'bundledDependencies: true',
    ]);
  });

  it('reports nothing for empty fields and dev dependencies', () => {
    expect(runtimeDependencies({ dependencies: {}, bundleDependencies: [], devDependencies: { a: '1' } })).toEqual([]);
  });

  it('leaves out a peer marked optional, which npm does not install, and keeps one marked otherwise', () => {
    const manifest = {
      peerDependencies: { a: '1', b: '1', c: '1' },
      peerDependenciesMeta: { a: { optional: true }, b: { optional: false }, d: { optional: true } },
    };
    expect(runtimeDependencies(manifest)).toEqual(['peerDependencies: b', 'peerDependencies: c']);
    expect(optionalPeerNames(manifest)).toEqual(['a', 'd']);
    expect(optionalPeerNames({ peerDependenciesMeta: 'a' })).toEqual([]);
  });
});

describe('installScripts', () => {
  it('finds every script npm runs at install time and ignores the others', () => {
    const scripts = {
      preinstall: 'x',
      install: 'x',
      postinstall: 'x',
      prepare: 'x',
      prepublish: 'x',
      build: 'x',
      test: 'x',
      prepack: 'x',
      prepublishOnly: 'x',
    };
    expect(installScripts({ scripts })).toEqual(['preinstall', 'install', 'postinstall', 'prepare', 'prepublish']);
    expect(installScripts({})).toEqual([]);
  });
});
