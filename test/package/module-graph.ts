import { posix } from 'node:path';

/**
 * A relative specifier in `import ... from`, `export ... from`, `import '...'`, `import('...')` or `require('...')`:
 * the forms in which esbuild, rollup and rollup-plugin-dts make one built file load another.
 */
const RELATIVE_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(["'])(\.\.?\/[^"']+)\1/g;

/**
 * The comment esbuild writes above each source module's code in a bundle that is not minified (`// src/guard/x.ts`),
 * which rollup keeps when it rewrites the bundle as CommonJS.
 */
const SOURCE_MODULE_COMMENT = /^\/\/ (src\/\S+)$/gm;

/** What a declaration file's specifier names: `./x.js` is typed by `./x.d.ts`, `./x.cjs` by `./x.d.cts`. */
const DECLARATION_OF: Readonly<Record<string, string>> = { '.js': '.d.ts', '.cjs': '.d.cts', '.mjs': '.d.mts' };

/**
 * @param code - a built file
 * @returns the relative specifiers it loads, in order of appearance, without duplicates
 */
export function relativeImports(code: string): string[] {
  return [...new Set([...code.matchAll(RELATIVE_SPECIFIER)].map((match) => match[2] ?? ''))];
}

/**
 * @param code - a built file
 * @returns the source modules compiled into it, as esbuild names them (`src/guard/create-guard.ts`)
 */
export function sourceModules(code: string): string[] {
  return [...code.matchAll(SOURCE_MODULE_COMMENT)].map((match) => match[1] ?? '');
}

function resolveSpecifier(from: string, specifier: string): string {
  const path = posix.join(posix.dirname(from), specifier);
  if (!/\.d\.[cm]?ts$/.test(from)) return path;
  const extension = posix.extname(path);
  const declaration = DECLARATION_OF[extension];
  return declaration === undefined ? path : path.slice(0, -extension.length) + declaration;
}

/**
 * Every file that loading an entry loads, following relative imports and requires.
 * @param entry - its path relative to the package root, such as `dist/index.js` or `dist/index.d.cts`
 * @param read - reads a file of the package by such a path
 * @returns the entry first, then the files it loads, each once
 */
export function loadedFiles(entry: string, read: (path: string) => string): string[] {
  const seen = new Set<string>();
  const pending = [posix.normalize(entry)];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (seen.has(path)) continue;
    seen.add(path);
    pending.push(...relativeImports(read(path)).map((specifier) => resolveSpecifier(path, specifier)));
  }
  return [...seen];
}

/**
 * @param codeByFile - built files by path
 * @returns `module: file, file` for each source module compiled into more than one of them: code loaded twice
 */
export function modulesInSeveralFiles(codeByFile: ReadonlyMap<string, string>): string[] {
  const filesOf = new Map<string, string[]>();
  for (const [path, code] of codeByFile) {
    for (const module of sourceModules(code)) filesOf.set(module, [...(filesOf.get(module) ?? []), path]);
  }
  return [...filesOf].filter(([, files]) => files.length > 1).map(([module, files]) => `${module}: ${files.join(', ')}`);
}
