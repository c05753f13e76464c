/** The part of a global object the hash mixers need: WebAssembly, typed only as far as it is used. */
export interface WasmHost {
  /** Absent where the host runs without it (Node with `--jitless`, say). */
  readonly WebAssembly?: {
    readonly Module: new (bytes: Uint8Array) => object;
    readonly Instance: new (module: object) => { readonly exports: object };
  };
}

/** An instance of one of the project's modules: its memory as bytes, and its exported functions. */
export interface WasmInstance<Functions> {
  /** The exported memory `memory`. None of the modules grows it, so this view stays valid. */
  readonly bytes: Uint8Array;
  /** The exports, typed as the module's source in scripts/ declares them. */
  readonly functions: Functions;
}

/**
 * An instance of one of the project's own modules, compiled synchronously (they are a few hundred bytes, well under
 * the size browsers allow compiling on the main thread).
 * @param hex - the module as hexadecimal digits, two per byte; it exports its memory as `memory`
 * @param host - the global object, or a stand-in in tests
 * @returns the instance, or `undefined` where the host has no WebAssembly or refuses to compile it (a page's content
 *   security policy, some edge runtimes)
 */
export function instantiateWasm<Functions>(hex: string, host: WasmHost = globalThis as WasmHost): WasmInstance<Functions> | undefined {
  const bytes = Uint8Array.from({ length: hex.length / 2 }, (_, index) => Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16));
  let instance: WasmInstance<Functions> | undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/non-nullable-type-assertion-style -- the strict config forbids `!`; a cast says it.
    const wasm = host.WebAssembly as NonNullable<WasmHost['WebAssembly']>;
    const exports = new wasm.Instance(new wasm.Module(bytes)).exports as Functions & { readonly memory: { readonly buffer: ArrayBuffer } };
    instance = { bytes: new Uint8Array(exports.memory.buffer), functions: exports };
  } catch {
    // Without WebAssembly, reading `Module` of undefined threw; or the host refused to compile. Either way there is no
    // instance, and the caller does its arithmetic in JavaScript.
  }
  return instance;
}
