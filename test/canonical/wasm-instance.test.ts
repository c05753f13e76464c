import { describe, expect, it } from 'vitest';
import { instantiateWasm } from '../../src/canonical/wasm-instance.js';
import { moduleHex } from '../../scripts/wasm-emitter.js';
import { recordingHost, refusingHost } from '../support/wasm-hosts.js';

/** The smallest module that exports something: one memory of one page, exported as `memory`. */
const MEMORY_ONLY = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x05, 0x03, 0x01, 0x00, 0x01, 0x07, 0x0a, 0x01, 0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02, 0x00];
/** The same module as {@link instantiateWasm} takes it, written out as the emitter writes the project's modules. */
const MEMORY_ONLY_HEX = moduleHex(Uint8Array.from(MEMORY_ONLY));

describe('instantiateWasm', () => {
  it('compiles the bytes given and returns the instance’s exports, its memory as bytes', () => {
    const { host, compiled } = recordingHost();
    const instance = instantiateWasm<{ memory: { buffer: ArrayBuffer } }>(MEMORY_ONLY_HEX, host);
    expect([...(compiled[0] ?? [])]).toEqual(MEMORY_ONLY);
    expect(instance?.functions.memory.buffer.byteLength).toBe(65_536);
    expect(instance?.bytes.buffer).toBe(instance?.functions.memory.buffer);
  });

  it('is undefined on a host without WebAssembly', () => {
    expect(instantiateWasm(MEMORY_ONLY_HEX, {})).toBeUndefined();
  });

  it('is undefined where the host refuses to compile, and for bytes that are no module', () => {
    expect(instantiateWasm(MEMORY_ONLY_HEX, refusingHost)).toBeUndefined();
    expect(instantiateWasm('0061736d02', recordingHost().host)).toBeUndefined();
  });
});
