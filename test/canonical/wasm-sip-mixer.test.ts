import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES } from '../../src/canonical/byte-feed.js';
import { createScriptSipMixer } from '../../src/canonical/sip-mixer.js';
import { createWasmSipMixer, MEMORY_PAGES, OUTPUT_OFFSET, ZERO_OFFSET } from '../../src/canonical/wasm-sip-mixer.js';
import { sipMixerModule } from '../../scripts/sip-mixer-module.js';
import { recordingHost, refusingHost } from '../support/wasm-hosts.js';

describe('createWasmSipMixer', () => {
  it('compiles exactly the module scripts/sip-mixer-module.ts emits', () => {
    const { host, compiled } = recordingHost();
    expect(createWasmSipMixer(host)?.kind).toBe('wasm');
    expect(compiled).toHaveLength(1);
    expect([...(compiled[0] ?? [])]).toEqual([...sipMixerModule()]);
  });

  it('lays out its memory as the byte feed and the emitter expect', () => {
    const mixer = createWasmSipMixer();
    expect(mixer?.bytes.byteLength).toBe(MEMORY_PAGES * 65_536);
    expect(ZERO_OFFSET).toBe(CHUNK_BYTES + 8);
    expect(OUTPUT_OFFSET + 16).toBeLessThanOrEqual(MEMORY_PAGES * 65_536);
    expect(mixer?.output.byteOffset).toBe(OUTPUT_OFFSET);
    expect(mixer?.output.byteLength).toBe(16);
    expect(mixer?.output.buffer).toBe(mixer?.bytes.buffer);
  });

  it('gives the same state, step by step, as the mixer in JavaScript', () => {
    const wasm = createWasmSipMixer();
    const script = createScriptSipMixer();
    if (wasm === undefined) throw new Error('expected WebAssembly');
    const message = Uint8Array.from({ length: 64 }, (_, index) => (index * 37 + 11) & 0xff);
    for (const [rounds, finalization] of [
      [1, 3],
      [2, 4],
      [0, 1],
    ] as const) {
      for (const mixer of [wasm, script]) {
        mixer.begin(0x01234567, -0x76543211, 0x7fffffff, -1);
        mixer.bytes.set(message);
        mixer.mix(64, rounds);
        mixer.mix(8, rounds);
        mixer.finish(finalization);
      }
      expect([...wasm.output]).toEqual([...script.output]);
    }
  });

  it('mixes nothing for a byte count of zero', () => {
    const wasm = createWasmSipMixer();
    if (wasm === undefined) throw new Error('expected WebAssembly');
    wasm.begin(1, 2, 3, 4);
    wasm.finish(3);
    const direct = [...wasm.output];
    wasm.begin(1, 2, 3, 4);
    wasm.mix(0, 1);
    wasm.finish(3);
    expect([...wasm.output]).toEqual(direct);
  });

  it('is undefined on a host without WebAssembly', () => {
    expect(createWasmSipMixer({})).toBeUndefined();
  });

  it('is undefined where the host refuses to compile (a content security policy, say)', () => {
    expect(createWasmSipMixer(refusingHost)).toBeUndefined();
  });
});
