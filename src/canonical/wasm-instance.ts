/** The part of a global object the hash mixers need: WebAssembly, typed only as far as it is used. */
export interface WasmHost {
  /** Absent where the host runs without it (Node with `--jitless`, say). */
  readonly WebAssembly?: {
    readonly Module: new (bytes: Uint8Array) => object;
    readonly Instance: new (module: object) => { readonly exports: object };
  };
}

/**
 * An instance of one of the project's own modules, compiled synchronously (they are a few hundred bytes, well under
 * the size browsers allow compiling on the main thread).
 * @param bytes - the module
 * @param host - the global object, or a stand-in in tests
 * @returns its exports, or `undefined` where the host has no WebAssembly or refuses to compile it (a page's content
 *   security policy, some edge runtimes)
 */
export function instantiateWasm(bytes: readonly number[], host: WasmHost): object | undefined {
  let exports: object | undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/non-nullable-type-assertion-style -- the strict config forbids `!`; a cast says it.
    const wasm = host.WebAssembly as NonNullable<WasmHost['WebAssembly']>;
    exports = new wasm.Instance(new wasm.Module(Uint8Array.from(bytes))).exports;
  } catch {
    // Without WebAssembly, reading `Module` of undefined threw; or the host refused to compile. Either way there are no
    // exports, and the caller does its arithmetic in JavaScript.
  }
  return exports;
}
