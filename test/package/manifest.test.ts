import { describe, expect, inject, it } from 'vitest';
import { installScripts, optionalPeerNames, runtimeDependencies, type PackageManifest } from './package-rules.js';
import { readFromTarball } from './tarball.js';

const manifest = JSON.parse(readFromTarball(inject('packedTarball'), 'package.json')) as PackageManifest;

describe('the packed package.json', () => {
  it('declares no runtime dependency of any kind', () => {
    expect(runtimeDependencies(manifest)).toEqual([]);
  });

  it('declares @opentelemetry/api, which only the /otel subpath imports, as its one peer, and an optional one', () => {
    expect(manifest.peerDependencies).toEqual({ '@opentelemetry/api': '>=1.3.0 <2' });
    expect(optionalPeerNames(manifest)).toEqual(['@opentelemetry/api']);
  });

  it('declares no script that runs when a user installs the package', () => {
    expect(installScripts(manifest)).toEqual([]);
  });

  it('declares the Node versions the smoke test proves', () => {
    expect(manifest.engines).toEqual({ node: '>=18' });
  });
});
