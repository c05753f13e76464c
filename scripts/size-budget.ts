import { gzipSync } from 'node:zlib';
import { build, transform } from 'esbuild';

/**
 * The most the root ES module entry may weigh with the chunks it imports, once bundled, minified and gzipped, in bytes:
 * what an application that imports the package's root ships. Measured at 25,029 B, plus 2%. The restructuring brought
 * it to 19,497 B; what came after it (reading other libraries' step shapes, the `tools` option, structured results read
 * by their values, consistency checks of snapshots, messages that quote no tool output, parallel calls told apart by
 * position) is behaviour the entry documents (docs/measurements.md, "Size", says how much each weighs). Re-measure
 * with `npm run size` after a change that adds code, and update docs/measurements.md too.
 */
export const ROOT_ENTRY_GZIP_BUDGET_BYTES = 25_500;

/** The most the tarball `npm pack` makes may weigh, in bytes: what every install downloads. */
export const TARBALL_BUDGET_BYTES = 250_000;

/** The most the files in the tarball may weigh together, in bytes: what an install puts on disk. */
export const INSTALLED_BUDGET_BYTES = 1_200_000;

/** Sizes of one built entry, in bytes. */
export interface EntrySize {
  /** As built. */
  readonly raw: number;
  /** After esbuild's minifier. */
  readonly minified: number;
  /** Minified, then gzipped at level 9. */
  readonly gzipped: number;
}

/**
 * Measures an ESM bundle the way a bundler would ship it: minified by esbuild, then gzipped.
 * @param code - the bundle's source
 * @returns its raw, minified and minified-gzipped sizes
 */
export async function measureEntry(code: string): Promise<EntrySize> {
  const minified = await transform(code, { minify: true, format: 'esm', target: 'es2022', legalComments: 'none' });
  return {
    raw: Buffer.byteLength(code),
    minified: Buffer.byteLength(minified.code),
    gzipped: gzipSync(minified.code, { level: 9 }).byteLength,
  };
}

/**
 * Measures a built ES module entry together with every chunk it imports: an entry that shares chunks with others is
 * only a few lines of its own, and what an application ships is the whole of what it loads.
 * @param entry - path of the entry file, such as `dist/index.js`
 * @returns the raw, minified and minified-gzipped sizes of the entry bundled with its chunks
 */
export async function measureBundledEntry(entry: string): Promise<EntrySize> {
  const bundled = await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'neutral', write: false });
  const [output] = bundled.outputFiles;
  if (output === undefined) throw new Error(`esbuild wrote nothing for ${entry}`);
  return measureEntry(output.text);
}
