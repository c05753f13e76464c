import { gzipSync } from 'node:zlib';
import { transform } from 'esbuild';

/**
 * The most the ESM entry (`dist/index.js`) may weigh once minified and gzipped, in bytes. Set from a measurement with
 * a small margin; re-measure with `npm run size` after a change that adds code, and update docs/measurements.md too.
 */
export const ESM_ENTRY_GZIP_BUDGET_BYTES = 26_550;

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
