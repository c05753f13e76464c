import { CHUNK_BYTES } from './byte-feed.js';
import type { SipMixer } from './sip-mixer.js';
import { instantiateWasm, type WasmHost } from './wasm-instance.js';

/** Pages of 64 KiB in the module's memory: the byte feed's buffer, then a zero word, then the output. */
export const MEMORY_PAGES = 2;
/** Where the eight zero bytes finalization mixes lie, past the byte feed's buffer (`CHUNK_BYTES + 8` bytes). */
export const ZERO_OFFSET = CHUNK_BYTES + 8;
/** Where `finish` writes its 16 output bytes. */
export const OUTPUT_OFFSET = ZERO_OFFSET + 8;

// The module scripts/sip-mixer-module.ts emits, where each instruction is written out; a test keeps the two equal.
const MODULE =
  '0061736d0100000001170460047f7f7f7f0060037f7f7f0060027f7f0060017f000305040001020305030100020615047e0142000b7e0142' +
  '000b7e0142000b7e0142000b072104066d656d6f7279020005626567696e0000036d697800020666696e69736800030af302045c01027e20' +
  '00ad2001ad4220868421042002ad2003ad422086842105200442f5cacd83d7acdbb7f30085240020054283df91f396ccdcb7e40085240120' +
  '0442e1e495f3d6ecd9bcec00852402200542f3cad1cba78cd9b2f4008524030bb90102017f057e2300210523012106230221072303210802' +
  '400340200020014f0d0120002903002204200885210820022103024003402003450d01200520067c21052006420d89200585210620054220' +
  '892105200720087c210720084210892007852108200520087c210520084215892005852108200720067c2107200642118920078521062007' +
  '4220892107200341016b21030c000b0b20052004852105200041086a21000c000b0b200524002006240120072402200824030b0a00410020' +
  '00200110010b4e00230242ee01852402418880044190800420001001419080042300230185230285230385370300230142dd018524014188' +
  '800441908004200010014198800423002301852302852303853703000b';

/**
 * The mixer in WebAssembly, which has 64-bit integers: about four times as fast as the one in JavaScript on a 2 KB
 * text and six times on 200 KB.
 * @param host - the global object, or a stand-in in tests
 * @returns the mixer, or `undefined` where the host has no WebAssembly or refuses to compile it (a page's content
 *   security policy, some edge runtimes)
 */
export function createWasmSipMixer(host?: WasmHost): SipMixer | undefined {
  const instance = instantiateWasm<Pick<SipMixer, 'begin' | 'mix' | 'finish'>>(MODULE, host);
  if (instance === undefined) return undefined;
  const { bytes, functions } = instance;
  return {
    kind: 'wasm',
    bytes,
    output: bytes.subarray(OUTPUT_OFFSET, OUTPUT_OFFSET + 16),
    begin: functions.begin,
    mix: functions.mix,
    finish: functions.finish,
  };
}
