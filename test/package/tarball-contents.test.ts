import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { loadedFiles } from './module-graph.js';
import {
  missingFiles,
  referencedFiles,
  sharedChunks,
  subpathNames,
  unexpectedFiles,
  type PackageManifest,
} from './package-rules.js';
import { listTarball, readFromTarball } from './tarball.js';

const tarball = inject('packedTarball');
const files = listTarball(tarball);
const manifest = JSON.parse(readFromTarball(tarball, 'package.json')) as PackageManifest;

describe('the packed tarball', () => {
  it('holds both module formats and their declarations for every entry, the documents and package.json', () => {
    expect(missingFiles(files, manifest)).toEqual([]);
  });

  it('holds nothing else but shared chunks: no sources, tests, examples, configs, source maps or stray build output', () => {
    expect(unexpectedFiles(files, manifest)).toEqual([]);
  });

  it('holds no shared chunk that no entry loads, in either module format or declaration kind', () => {
    const { packageFolder } = inject('installation');
    const read = (path: string): string => readFileSync(join(packageFolder, path), 'utf8');
    const entries = ['index', ...subpathNames(manifest)].flatMap((name) =>
      ['js', 'cjs', 'd.ts', 'd.cts'].map((extension) => `dist/${name}.${extension}`),
    );
    const loaded = new Set(entries.flatMap((entry) => loadedFiles(entry, read)));
    const chunks = sharedChunks(files);
    expect(chunks.filter((path) => path.endsWith('.js')).length).toBeGreaterThan(0);
    expect(chunks.filter((path) => path.endsWith('.cjs')).length).toBeGreaterThan(0);
    expect(chunks.filter((path) => !loaded.has(path))).toEqual([]);
  });

  it('points resolvers that do not read exports from each subpath folder at its CommonJS build', () => {
    const stubs = subpathNames(manifest).map((name) => ({ name, stub: JSON.parse(readFromTarball(tarball, `${name}/package.json`)) as unknown }));
    expect(stubs.map(({ name }) => name)).toEqual(['openai-agents', 'claude-agent-sdk', 'langchain', 'mastra', 'otel']);
    for (const { name, stub } of stubs) expect(stub).toEqual({ main: `../dist/${name}.cjs`, types: `../dist/${name}.d.cts` });
  });

  it('holds every file package.json points to', () => {
    const referenced = referencedFiles(manifest);
    expect(referenced).toContain('dist/index.js');
    expect(referenced.filter((path) => !files.includes(path))).toEqual([]);
  });
});
