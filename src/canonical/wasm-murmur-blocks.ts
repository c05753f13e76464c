import { CHUNK_BYTES } from './byte-feed.js';
import { instantiateWasm, type WasmHost } from './wasm-instance.js';

/** Pages of 64 KiB in the module's memory: the byte feed's buffer, then the lanes. */
export const MEMORY_PAGES = 2;
/** Where `lanes` writes h1 to h4, past the byte feed's buffer (`CHUNK_BYTES + 16` bytes). */
export const LANES_OFFSET = CHUNK_BYTES + 16;

// The module scripts/murmur-blocks-module.ts emits, where each instruction is written out; a test keeps the two equal.
const MODULE =
  '0061736d01000000010f0360047f7f7f7f0060017f0060000003040300010205030100020615047f0141000b7f0141000b7f0141000b7f01' +
  '41000b072004066d656d6f7279020005626567696e0000036d69780001056c616e657300020aa30203120020002400200124012002240220' +
  '0324030be60101057f2300210223012103230221042303210502400340200120004f0d012001280200419bacee9c026c410f774189afbad8' +
  '7a6c20027341137720036a41056c419b9af3b0056a210220012802044189afbad87a6c41107741e595cdc5036c20037341117720046a4105' +
  '6c41c7ceaade006a2103200128020841e595cdc5036c4111774193978e8f7a6c200473410f7720056a41056c41b5b8b4b6796a2104200128' +
  '020c4193978e8f7a6c411277419bacee9c026c200573410d7720026a41056c4197f6b095036a2105200141106a21010c000b0b2002240020' +
  '03240120042402200524030b26004100230036029080044100230136029480044100230236029880044100230336029c80040b';

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
