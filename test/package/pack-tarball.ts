import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute path of the tarball `npm pack` made from the current build. */
    packedTarball: string;
  }
}

interface PackResult {
  readonly filename: string;
}

/**
 * Packs the project once for all package tests and removes the tarball afterwards.
 * @param project - the vitest project, to hand the tarball's path to the tests
 * @returns the teardown
 */
export default function packTarball(project: TestProject): () => void {
  if (!existsSync('dist/index.js')) throw new Error('dist/ is missing: run `npm run build` before the package tests');
  const destination = mkdtempSync(join(tmpdir(), 'agent-loopguard-pack-'));
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], { encoding: 'utf8' });
  const [packed] = JSON.parse(output) as PackResult[];
  if (packed === undefined) throw new Error(`npm pack reported no tarball: ${output}`);
  project.provide('packedTarball', join(destination, packed.filename));
  return () => {
    rmSync(destination, { recursive: true, force: true });
  };
}
