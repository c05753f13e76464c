import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute path of the tarball `npm pack` made from the current build. */
    packedTarball: string;
    /** The tarball's size and the total size of the files in it, in bytes, as `npm pack` reports them. */
    packedSizes: { tarball: number; unpacked: number };
    /** The tarball unpacked where npm installs it, in a project of its own that has nothing else installed. */
    installation: { project: string; packageFolder: string };
  }
}

interface PackResult {
  readonly filename: string;
  readonly size: number;
  readonly unpackedSize: number;
}

/**
 * Packs the project once for all package tests, unpacks the tarball into a project of its own (the package has no
 * dependencies and no install scripts, so that is what installing it does), and removes both afterwards.
 * @param project - the vitest project, to hand the tarball, its sizes and the unpacked package to the tests
 * @returns the teardown
 */
export default function packTarball(project: TestProject): () => void {
  if (!existsSync('dist/index.js')) throw new Error('dist/ is missing: run `npm run build` before the package tests');
  const destination = mkdtempSync(join(tmpdir(), 'agent-loopguard-pack-'));
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], { encoding: 'utf8' });
  const [packed] = JSON.parse(output) as PackResult[];
  if (packed === undefined) throw new Error(`npm pack reported no tarball: ${output}`);
  const tarball = join(destination, packed.filename);
  project.provide('packedTarball', tarball);
  project.provide('packedSizes', { tarball: packed.size, unpacked: packed.unpackedSize });
  const { name } = JSON.parse(readFileSync('package.json', 'utf8')) as { name: string };
  const consumer = join(destination, 'consumer');
  const packageFolder = join(consumer, 'node_modules', name);
  mkdirSync(packageFolder, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', packageFolder, '--strip-components=1']);
  project.provide('installation', { project: consumer, packageFolder });
  return () => {
    rmSync(destination, { recursive: true, force: true });
  };
}
