import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES } from '../../src/canonical/byte-feed.js';
import { createWasmMurmurBlocks, LANES_OFFSET, MEMORY_PAGES } from '../../src/canonical/wasm-murmur-blocks.js';
import { murmurBlocksModule } from '../../scripts/murmur-blocks-module.js';
import { recordingHost, refusingHost } from '../support/wasm-hosts.js';

/** The four lanes as `lanes()` left them. */
function lanesOf(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, LANES_OFFSET, 16);
  return [0, 4, 8, 12].map((offset) => view.getInt32(offset, true));
}

describe('createWasmMurmurBlocks', () => {
  it('compiles exactly the module scripts/murmur-blocks-module.ts emits', () => {
    const { host, compiled } = recordingHost();
    expect(createWasmMurmurBlocks(host)).toBeDefined();
    expect(compiled).toHaveLength(1);
    expect([...(compiled[0] ?? [])]).toEqual([...murmurBlocksModule()]);
  });

  it('lays out its memory as the byte feed expects: the feed’s buffer, then the lanes', () => {
    const blocks = createWasmMurmurBlocks();
    expect(blocks?.bytes.byteLength).toBe(MEMORY_PAGES * 65_536);
    expect(LANES_OFFSET).toBe(CHUNK_BYTES + 16);
  });

  // That the blocks mix as the reference's do is checked through whole hashes in murmur-hash.test.ts.
  it('keeps the lanes between calls: two calls mix what one does, and a call over no bytes changes nothing', () => {
    const blocks = createWasmMurmurBlocks();
    if (blocks === undefined) throw new Error('expected WebAssembly');
    const message = Uint8Array.from({ length: 48 }, (_, index) => (index * 53 + 7) & 0xff);
    blocks.begin(1, 2, 3, 4);
    blocks.bytes.set(message);
    blocks.mix(32);
    blocks.bytes.copyWithin(0, 32, 48);
    blocks.mix(16);
    blocks.lanes();
    const split = lanesOf(blocks.bytes);
    blocks.begin(1, 2, 3, 4);
    blocks.bytes.set(message);
    blocks.mix(48);
    blocks.lanes();
    expect(lanesOf(blocks.bytes)).toEqual(split);
    blocks.begin(1, 2, 3, 4);
    blocks.mix(0);
    blocks.lanes();
    expect(lanesOf(blocks.bytes)).toEqual([1, 2, 3, 4]);
    expect(split).not.toEqual([1, 2, 3, 4]);
  });

  it('is undefined on a host without WebAssembly, or one that refuses to compile it', () => {
    expect(createWasmMurmurBlocks({})).toBeUndefined();
    expect(createWasmMurmurBlocks(refusingHost)).toBeUndefined();
  });
});
