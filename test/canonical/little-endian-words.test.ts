import { describe, expect, it } from 'vitest';
import { littleEndianWords } from '../../src/canonical/little-endian-words.js';

describe('littleEndianWords', () => {
  it('leaves the bytes alone on a little-endian machine', () => {
    const bytes = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    littleEndianWords(bytes, true)(8);
    expect([...bytes]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('reverses each word of the prepared prefix on a big-endian machine', () => {
    const bytes = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    littleEndianWords(bytes, false)(8);
    expect([...bytes]).toEqual([4, 3, 2, 1, 8, 7, 6, 5, 9, 10, 11, 12]);
  });

  it('detects this machine', () => {
    const bytes = Uint8Array.from([1, 0, 0, 0]);
    littleEndianWords(bytes)(4);
    // Read through the same kind of view the hash uses: the word must come out as 1 either way.
    const swapped = new Int32Array(bytes.buffer)[0];
    expect(swapped).toBe(1);
  });
});
