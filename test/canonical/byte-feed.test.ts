import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, createByteFeed, HEX_BYTES } from '../../src/canonical/byte-feed.js';

describe('createByteFeed', () => {
  it('stages bytes in a buffer of its own a block longer than a stretch, or in the one given', () => {
    expect(createByteFeed(16, () => undefined).bytes.byteLength).toBe(CHUNK_BYTES + 16);
    const buffer = new ArrayBuffer(CHUNK_BYTES + 64);
    expect(createByteFeed(8, () => undefined, buffer).bytes.buffer).toBe(buffer);
  });

  it('hands the mixer whole blocks only, a stretch at a time, and keeps the unfinished block at the front', () => {
    const mixed: number[] = [];
    const feed = createByteFeed(8, (byteCount) => mixed.push(byteCount));
    expect(feed.utf8('abcdefghijk', 0)).toBe(11);
    expect(mixed).toEqual([8]);
    expect(feed.tail).toBe(3);
    expect(String.fromCharCode(...feed.bytes.subarray(0, 3))).toBe('ijk');
    mixed.length = 0;
    expect(feed.utf8('x'.repeat(CHUNK_BYTES + 5), 2)).toBe(CHUNK_BYTES + 5);
    expect(mixed).toEqual([CHUNK_BYTES, 0]);
    expect(feed.tail).toBe(7);
  });

  it('feeds UTF-16LE code units after the carried bytes', () => {
    const feed = createByteFeed(8, () => undefined);
    feed.bytes[0] = 0xff;
    expect(feed.utf16('\ud800A', 1)).toBe(4);
    expect([...feed.bytes.subarray(0, 5)]).toEqual([0xff, 0x00, 0xd8, 0x41, 0x00]);
    expect(feed.tail).toBe(5);
  });

  it('writes bytes as two lowercase hex digits', () => {
    expect([HEX_BYTES[0], HEX_BYTES[10], HEX_BYTES[255]]).toEqual(['00', '0a', 'ff']);
    expect(HEX_BYTES).toHaveLength(256);
  });
});
