import { CHUNK_BYTES } from './byte-feed.js';
import { instantiateWasm, type WasmHost } from './wasm-instance.js';

/** Pages of 64 KiB in the module's memory: the byte feed's buffer, then the lanes. */
export const MEMORY_PAGES = 2;
/** Where `lanes` writes h1 to h4, past the byte feed's buffer (`CHUNK_BYTES + 16` bytes). */
export const LANES_OFFSET = CHUNK_BYTES + 16;

// The module scripts/murmur-blocks-module.ts emits, where each instruction is written out; a test keeps the two equal.
const MODULE: readonly number[] = [
  0, 97, 115, 109, 1, 0, 0, 0, 1, 15, 3, 96, 4, 127, 127, 127, 127, 0, 96, 1, 127, 0, 96, 0, 0, 3, 4, 3, 0, 1, 2,
  5, 3, 1, 0, 2, 6, 21, 4, 127, 1, 65, 0, 11, 127, 1, 65, 0, 11, 127, 1, 65, 0, 11, 127, 1, 65, 0, 11, 7, 32, 4,
  6, 109, 101, 109, 111, 114, 121, 2, 0, 5, 98, 101, 103, 105, 110, 0, 0, 3, 109, 105, 120, 0, 1, 5, 108, 97,
  110, 101, 115, 0, 2, 10, 163, 2, 3, 18, 0, 32, 0, 36, 0, 32, 1, 36, 1, 32, 2, 36, 2, 32, 3, 36, 3, 11, 230, 1,
  1, 5, 127, 35, 0, 33, 2, 35, 1, 33, 3, 35, 2, 33, 4, 35, 3, 33, 5, 2, 64, 3, 64, 32, 1, 32, 0, 79, 13, 1, 32,
  1, 40, 2, 0, 65, 155, 172, 238, 156, 2, 108, 65, 15, 119, 65, 137, 175, 186, 216, 122, 108, 32, 2, 115, 65, 19,
  119, 32, 3, 106, 65, 5, 108, 65, 155, 154, 243, 176, 5, 106, 33, 2, 32, 1, 40, 2, 4, 65, 137, 175, 186, 216,
  122, 108, 65, 16, 119, 65, 229, 149, 205, 197, 3, 108, 32, 3, 115, 65, 17, 119, 32, 4, 106, 65, 5, 108, 65,
  199, 206, 170, 222, 0, 106, 33, 3, 32, 1, 40, 2, 8, 65, 229, 149, 205, 197, 3, 108, 65, 17, 119, 65, 147, 151,
  142, 143, 122, 108, 32, 4, 115, 65, 15, 119, 32, 5, 106, 65, 5, 108, 65, 181, 184, 180, 182, 121, 106, 33, 4,
  32, 1, 40, 2, 12, 65, 147, 151, 142, 143, 122, 108, 65, 18, 119, 65, 155, 172, 238, 156, 2, 108, 32, 5, 115,
  65, 13, 119, 32, 2, 106, 65, 5, 108, 65, 151, 246, 176, 149, 3, 106, 33, 5, 32, 1, 65, 16, 106, 33, 1, 12, 0,
  11, 11, 32, 2, 36, 0, 32, 3, 36, 1, 32, 4, 36, 2, 32, 5, 36, 3, 11, 38, 0, 65, 0, 35, 0, 54, 2, 144, 128, 4,
  65, 0, 35, 1, 54, 2, 148, 128, 4, 65, 0, 35, 2, 54, 2, 152, 128, 4, 65, 0, 35, 3, 54, 2, 156, 128, 4, 11,
];

/**
 * MurmurHash3 x86_128's block loop in WebAssembly, over message bytes staged in the module's memory; the tail and the
 * finalization stay in JavaScript, as they are a few operations per hash.
 */
export interface WasmMurmurBlocks {
  /** The module's memory: a byte feed's buffer at its front. */
  readonly bytes: Uint8Array;
  /** Sets the four lanes. */
  readonly begin: (h1: number, h2: number, h3: number, h4: number) => void;
  /** Mixes the 16-byte blocks in the first `byteCount` bytes (a multiple of 16) into the lanes. */
  readonly mix: (byteCount: number) => void;
  /** Writes the lanes, little-endian, at {@link LANES_OFFSET}. */
  readonly lanes: () => void;
}

/**
 * The block loop in WebAssembly: about twice as fast as in JavaScript on long texts.
 * @param host - the global object, or a stand-in in tests
 * @returns the block loop, or `undefined` where the host has no WebAssembly or refuses to compile it
 */
export function createWasmMurmurBlocks(host?: WasmHost): WasmMurmurBlocks | undefined {
  const instance = instantiateWasm<Omit<WasmMurmurBlocks, 'bytes'>>(MODULE, host);
  if (instance === undefined) return undefined;
  const { bytes, functions } = instance;
  return { bytes, begin: functions.begin, mix: functions.mix, lanes: functions.lanes };
}
