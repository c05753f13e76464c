import { execFileSync } from 'node:child_process';

/** npm puts every file of a package under this folder in its tarball. */
const PACKAGE_ROOT = 'package/';

/**
 * Lists the files in an npm tarball, relative to the package root, sorted.
 * @param tarball - path of a `.tgz` made by `npm pack`
 * @returns paths such as `dist/index.js`
 */
export function listTarball(tarball: string): string[] {
  const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
  return listing
    .split('\n')
    .filter((entry) => entry !== '' && !entry.endsWith('/'))
    .map((entry) => {
      if (!entry.startsWith(PACKAGE_ROOT)) throw new Error(`tarball entry outside ${PACKAGE_ROOT}: ${entry}`);
      return entry.slice(PACKAGE_ROOT.length);
    })
    .sort();
}

/**
 * Reads one file of an npm tarball as text.
 * @param tarball - path of a `.tgz` made by `npm pack`
 * @param path - the file's path relative to the package root
 * @returns its content
 */
export function readFromTarball(tarball: string, path: string): string {
  return execFileSync('tar', ['-xzOf', tarball, `${PACKAGE_ROOT}${path}`], { encoding: 'utf8' });
}
