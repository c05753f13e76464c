import { describe, expect, it } from 'vitest';
import { createScriptSipMixer } from '../../src/canonical/sip-mixer.js';
import { hexOf } from '../support/sip-hash-reference.js';
import { SIPHASH_2_4_128 } from '../support/sip-hash-vectors.js';

describe('createScriptSipMixer', () => {
  it("gives the published SipHash-2-4-128 output when driven block by block: the message, the last block, finalization", () => {
    const mixer = createScriptSipMixer();
    // The key 00 01 ... 0f; the message 00 01 ... 07, then the last block: no tail, the length (8) in its top byte.
    mixer.begin(0x03020100, 0x07060504, 0x0b0a0908, 0x0f0e0d0c);
    mixer.bytes.set([0, 1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 8]);
    mixer.mix(16, 2);
    mixer.finish(4);
    expect(hexOf(mixer.output)).toBe(SIPHASH_2_4_128[8]);
    expect(mixer.kind).toBe('script');
  });

  it('has a buffer of its own, a block longer than a stretch of the byte feed', () => {
    const first = createScriptSipMixer();
    const second = createScriptSipMixer();
    expect(first.bytes.byteLength).toBe(65_536 + 8);
    expect(first.bytes.buffer).not.toBe(second.bytes.buffer);
    expect(first.output.byteLength).toBe(16);
  });
});
