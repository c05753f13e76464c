import type { WasmHost } from '../../src/canonical/wasm-instance.js';

const real = (globalThis as WasmHost).WebAssembly;
if (real === undefined) throw new Error('these tests expect a host with WebAssembly');
const { Module, Instance } = real;

/**
 * A host whose WebAssembly records the bytes it compiles, and compiles them for real.
 * @returns the host, and the list of what it compiled
 */
export function recordingHost(): { readonly host: WasmHost; readonly compiled: Uint8Array[] } {
  const compiled: Uint8Array[] = [];
  const host: WasmHost = {
    WebAssembly: {
      Module: class extends Module {
        constructor(bytes: Uint8Array) {
          compiled.push(bytes);
          super(bytes);
        }
      },
      Instance,
    },
  };
  return { host, compiled };
}

/** A host that refuses to compile anything, as a page whose content security policy forbids WebAssembly does. */
export const refusingHost: WasmHost = {
  WebAssembly: {
    Module: class extends Module {
      constructor(bytes: Uint8Array) {
        if (bytes.length > 0) throw new Error('WebAssembly.Module(): Wasm code generation disallowed by embedder');
        super(bytes);
      }
    },
    Instance,
  },
};
