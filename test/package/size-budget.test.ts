import { describe, expect, inject, it } from 'vitest';
import { ESM_ENTRY_GZIP_BUDGET_BYTES, measureEntry } from '../../scripts/size-budget.js';
import { readFromTarball } from './tarball.js';

describe('the size budget', () => {
  it(`keeps the packed ESM entry, minified and gzipped, under ${String(ESM_ENTRY_GZIP_BUDGET_BYTES)} bytes`, async () => {
    const size = await measureEntry(readFromTarball(inject('packedTarball'), 'dist/index.js'));
    expect(size.minified).toBeLessThan(size.raw);
    expect(size.gzipped).toBeLessThan(size.minified);
    expect(size.gzipped).toBeLessThan(ESM_ENTRY_GZIP_BUDGET_BYTES);
  });
});
