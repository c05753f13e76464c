import { describe, expect, inject, it } from 'vitest';
import { missingFiles, referencedFiles, subpathNames, unexpectedFiles, type PackageManifest } from './package-rules.js';
import { listTarball, readFromTarball } from './tarball.js';

const tarball = inject('packedTarball');
const files = listTarball(tarball);
const manifest = JSON.parse(readFromTarball(tarball, 'package.json')) as PackageManifest;

describe('the packed tarball', () => {
  it('holds both module formats, their declarations and source maps, the documents and package.json', () => {
    expect(missingFiles(files, manifest)).toEqual([]);
  });

  it('holds nothing else: no sources, tests, examples, configs or stray build output', () => {
    expect(unexpectedFiles(files, manifest)).toEqual([]);
  });

  it('points resolvers that do not read exports from each subpath folder at its CommonJS build', () => {
    const stubs = subpathNames(manifest).map((name) => ({ name, stub: JSON.parse(readFromTarball(tarball, `${name}/package.json`)) as unknown }));
    expect(stubs.map(({ name }) => name)).toEqual(['openai-agents', 'claude-agent-sdk', 'langchain', 'mastra']);
    for (const { name, stub } of stubs) expect(stub).toEqual({ main: `../dist/${name}.cjs`, types: `../dist/${name}.d.cts` });
  });

  it('holds every file package.json points to', () => {
    const referenced = referencedFiles(manifest);
    expect(referenced).toContain('dist/index.js');
    expect(referenced.filter((path) => !files.includes(path))).toEqual([]);
  });
});
