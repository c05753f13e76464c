/** The parts of package.json that the packaging rules read. */
export interface PackageManifest {
  readonly name?: string;
  readonly main?: string;
  readonly module?: string;
  readonly types?: string;
  readonly exports?: unknown;
  readonly bin?: string | Readonly<Record<string, string>>;
  readonly scripts?: Readonly<Record<string, string>>;
  readonly engines?: Readonly<Record<string, string>>;
  readonly [field: string]: unknown;
}

/** What the library build ships for its root entry: each module format and its declarations. */
export const LIBRARY_FILES: readonly string[] = ['dist/index.cjs', 'dist/index.d.cts', 'dist/index.d.ts', 'dist/index.js'];

/**
 * A chunk that entries share: code (esbuild's `chunk-<hash>.js`, and rollup's CommonJS `.cjs` of it) or declarations
 * (rollup-plugin-dts's `<module>-<hash>.d.ts` and `.d.cts`). Their names change with their content, so they are told
 * by their form; that each one is loaded by an entry is checked on the built files (module-graph.ts).
 */
const SHARED_CHUNK = /^dist\/(?:chunk-[A-Z0-9]{8}\.c?js|[a-z0-9-]+-[A-Za-z0-9_-]{8}\.d\.c?ts)$/;

/** What every tarball carries besides the build: npm adds package.json, README and LICENSE; `files` adds CHANGELOG.md. */
export const PACKAGE_DOCUMENTS: readonly string[] = ['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json'];

/** Fields through which npm installs other packages alongside this one (npm 7+ installs peers too). */
const DEPENDENCY_FIELDS = [
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'bundleDependencies',
  'bundledDependencies',
] as const;

/** Scripts npm runs on the user's machine when the package is installed (from the registry, a folder or git). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'preprepare', 'prepare', 'postprepare', 'prepublish'];

function withoutDotSlash(path: string): string {
  return path.startsWith('./') ? path.slice(2) : path;
}

/**
 * The files the package's commands run, relative to the package root.
 * @param manifest - package.json
 * @returns one path per `bin` entry, without duplicates
 */
export function binTargets(manifest: PackageManifest): string[] {
  const { bin } = manifest;
  const targets = bin === undefined ? [] : typeof bin === 'string' ? [bin] : Object.values(bin);
  return [...new Set(targets.map(withoutDotSlash))];
}

/**
 * The names of the subpath exports (`./openai-agents` is `openai-agents`), not counting `./package.json`.
 * @param manifest - package.json
 */
export function subpathNames(manifest: PackageManifest): string[] {
  const { exports } = manifest;
  if (exports === null || typeof exports !== 'object') return [];
  return Object.keys(exports)
    .filter((key) => key.startsWith('./') && key !== './package.json')
    .map((key) => key.slice(2));
}

/**
 * What each subpath export ships, like the root entry: both module formats and their declarations in `dist/<name>.*`,
 * and `<name>/package.json`, which points resolvers that do not read `exports` (TypeScript's `node10`) at the CommonJS
 * build.
 * @param manifest - package.json
 */
export function subpathFiles(manifest: PackageManifest): string[] {
  return subpathNames(manifest).flatMap((name) => [
    ...LIBRARY_FILES.map((path) => path.replace('dist/index.', `dist/${name}.`)),
    `${name}/package.json`,
  ]);
}

/**
 * The files a tarball must hold: the library build, each subpath's, the documents and each command.
 * @param manifest - package.json
 * @returns the paths, sorted
 */
export function expectedFiles(manifest: PackageManifest): string[] {
  return [...new Set([...LIBRARY_FILES, ...subpathFiles(manifest), ...PACKAGE_DOCUMENTS, ...binTargets(manifest)])].sort();
}

/**
 * @param files - the tarball's files
 * @returns the chunks among them that entries share
 */
export function sharedChunks(files: readonly string[]): string[] {
  return files.filter((path) => SHARED_CHUNK.test(path));
}

/**
 * @param files - the tarball's files
 * @param manifest - package.json
 * @returns required files the tarball lacks
 */
export function missingFiles(files: readonly string[], manifest: PackageManifest): string[] {
  return expectedFiles(manifest).filter((path) => !files.includes(path));
}

/**
 * @param files - the tarball's files
 * @param manifest - package.json
 * @returns files the tarball should not hold (sources, tests, configs, source maps, stray build output...)
 */
export function unexpectedFiles(files: readonly string[], manifest: PackageManifest): string[] {
  const required = expectedFiles(manifest);
  return files.filter((path) => !required.includes(path) && !SHARED_CHUNK.test(path));
}

function exportTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(exportTargets);
}

/**
 * Every file package.json points to: `main`, `module`, `types`, each `exports` target and each `bin`.
 * @param manifest - package.json
 * @returns paths relative to the package root, without duplicates, sorted
 */
export function referencedFiles(manifest: PackageManifest): string[] {
  const entryFields = [manifest.main, manifest.module, manifest.types].filter((path) => path !== undefined);
  const paths = [...entryFields, ...exportTargets(manifest.exports)].map(withoutDotSlash);
  return [...new Set([...paths, ...binTargets(manifest)])].sort();
}

/**
 * @param manifest - package.json
 * @returns one `field: name` entry per package npm would install with this one; a peer that `peerDependenciesMeta`
 *   marks optional is not installed by npm, so it is not one
 */
export function runtimeDependencies(manifest: PackageManifest): string[] {
  const optionalPeers = optionalPeerNames(manifest);
  return DEPENDENCY_FIELDS.flatMap((field) =>
    dependencyNames(manifest[field])
      .filter((name) => field !== 'peerDependencies' || !optionalPeers.includes(name))
      .map((name) => `${field}: ${name}`),
  );
}

/**
 * @param manifest - package.json
 * @returns the peers `peerDependenciesMeta` marks `optional: true`: npm installs them only when the user does
 */
export function optionalPeerNames(manifest: PackageManifest): string[] {
  const meta = manifest.peerDependenciesMeta;
  if (meta === null || typeof meta !== 'object') return [];
  return Object.entries(meta as Record<string, unknown>)
    .filter(([, value]) => value !== null && typeof value === 'object' && (value as { optional?: unknown }).optional === true)
    .map(([name]) => name);
}

function dependencyNames(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  // bundleDependencies may be a list of names, or `true` for "all of them".
  if (Array.isArray(value)) return value.map((name: unknown) => (typeof name === 'string' ? name : JSON.stringify(name)));
  return typeof value === 'object' ? Object.keys(value) : [JSON.stringify(value)];
}

/**
 * @param manifest - package.json
 * @returns the names of scripts npm would run on a user's machine at install time
 */
export function installScripts(manifest: PackageManifest): string[] {
  return Object.keys(manifest.scripts ?? {}).filter((name) => INSTALL_SCRIPTS.includes(name));
}
