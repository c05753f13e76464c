// The source of the WebAssembly SipHash mixer whose bytes src/canonical/wasm-sip-mixer.ts holds: a small emitter of
// the binary format and the four functions, written out instruction by instruction. A test checks that the bytes in
// src/ are exactly what this emits. After a change, run `npx tsx scripts/sip-mixer-module.ts` and paste what it prints.
import { pathToFileURL } from 'node:url';
import { MEMORY_PAGES, OUTPUT_OFFSET, ZERO_OFFSET } from '../src/canonical/wasm-sip-mixer.js';

type Bytes = readonly number[];

/** Unsigned LEB128. */
function unsigned(value: number): Bytes {
  const out: number[] = [];
  let rest = value;
  do {
    const low = rest & 0x7f;
    rest >>>= 7;
    out.push(rest === 0 ? low : low | 0x80);
  } while (rest !== 0);
  return out;
}

/** Signed LEB128 of a 64-bit value. */
function signed(value: bigint): Bytes {
  const out: number[] = [];
  let rest = BigInt.asIntN(64, value);
  for (;;) {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    const done = (rest === 0n && (low & 0x40) === 0) || (rest === -1n && (low & 0x40) !== 0);
    out.push(done ? low : low | 0x80);
    if (done) return out;
  }
}

const vector = (items: readonly Bytes[]): Bytes => [...unsigned(items.length), ...items.flat()];
const section = (id: number, body: Bytes): Bytes => [id, ...unsigned(body.length), ...body];
const name = (text: string): Bytes => [...unsigned(text.length), ...Array.from(text, (character) => character.charCodeAt(0))];

const I32 = 0x7f;
const I64 = 0x7e;
const FUNCTION_TYPE = 0x60;
const EMPTY_BLOCK = 0x40;

// Instructions (WebAssembly core specification, section 5.4).
const localGet = (index: number): Bytes => [0x20, ...unsigned(index)];
const localSet = (index: number): Bytes => [0x21, ...unsigned(index)];
const localTee = (index: number): Bytes => [0x22, ...unsigned(index)];
const globalGet = (index: number): Bytes => [0x23, ...unsigned(index)];
const globalSet = (index: number): Bytes => [0x24, ...unsigned(index)];
const i32Const = (value: number): Bytes => [0x41, ...signed(BigInt(value))];
const i64Const = (value: bigint): Bytes => [0x42, ...signed(value)];
const call = (index: number): Bytes => [0x10, ...unsigned(index)];
const branch = (depth: number): Bytes => [0x0c, depth];
const branchIf = (depth: number): Bytes => [0x0d, depth];
const block: Bytes = [0x02, EMPTY_BLOCK];
const loop: Bytes = [0x03, EMPTY_BLOCK];
const end: Bytes = [0x0b];
/** Natural alignment (2^3 bytes), offset 0. */
const i64Load: Bytes = [0x29, 3, 0];
const i64Store: Bytes = [0x37, 3, 0];
const i32Add: Bytes = [0x6a];
const i32Sub: Bytes = [0x6b];
const i32Eqz: Bytes = [0x45];
const i32GeU: Bytes = [0x4f];
const i64Add: Bytes = [0x7c];
const i64Or: Bytes = [0x84];
const i64Xor: Bytes = [0x85];
const i64Shl: Bytes = [0x86];
const i64Rotl: Bytes = [0x89];
const i64ExtendI32U: Bytes = [0xad];

// Functions, by index.
const BEGIN = 0;
const MIX_RANGE = 1;
const MIX = 2;
const FINISH = 3;

// Globals 0 to 3 hold v0 to v3 between calls.
const STATE = [0, 1, 2, 3] as const;

/** begin(k0Low, k0High, k1Low, k1High): the 128-bit variant's initial state. Locals 4 and 5 are k0 and k1. */
function beginBody(): Bytes {
  const join = (low: number, high: number, to: number): Bytes => [
    ...localGet(low),
    ...i64ExtendI32U,
    ...localGet(high),
    ...i64ExtendI32U,
    ...i64Const(32n),
    ...i64Shl,
    ...i64Or,
    ...localSet(to),
  ];
  const start = (state: number, key: number, constant: bigint): Bytes => [...localGet(key), ...i64Const(constant), ...i64Xor, ...globalSet(state)];
  return [
    ...vector([[2, I64]]),
    ...join(0, 1, 4),
    ...join(2, 3, 5),
    ...start(0, 4, 0x736f6d6570736575n),
    ...start(1, 5, 0x646f72616e646f6dn ^ 0xeen),
    ...start(2, 4, 0x6c7967656e657261n),
    ...start(3, 5, 0x7465646279746573n),
    ...end,
  ];
}

/**
 * mixRange(start, end, rounds): each 8-byte little-endian word from `start` up to `end`, `rounds` SipRounds each.
 * Locals: 3 the rounds left, 4 the message word, 5 to 8 v0 to v3 (kept in locals while the loop runs).
 */
function mixRangeBody(): Bytes {
  const [position, stop, rounds, left, message, v0, v1, v2, v3] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const add = (to: number, from: number): Bytes => [...localGet(to), ...localGet(from), ...i64Add, ...localSet(to)];
  const rotate = (word: number, bits: number): Bytes => [...localGet(word), ...i64Const(BigInt(bits)), ...i64Rotl];
  const rotateXor = (word: number, bits: number, by: number): Bytes => [...rotate(word, bits), ...localGet(by), ...i64Xor, ...localSet(word)];
  const sipRound = [
    ...add(v0, v1),
    ...rotateXor(v1, 13, v0),
    ...rotate(v0, 32),
    ...localSet(v0),
    ...add(v2, v3),
    ...rotateXor(v3, 16, v2),
    ...add(v0, v3),
    ...rotateXor(v3, 21, v0),
    ...add(v2, v1),
    ...rotateXor(v1, 17, v2),
    ...rotate(v2, 32),
    ...localSet(v2),
  ];
  // Local v0 to v3 from and to globals 0 to 3.
  const locals = [v0, v1, v2, v3];
  return [
    ...vector([
      [1, I32],
      [5, I64],
    ]),
    ...locals.flatMap((local, state) => [...globalGet(state), ...localSet(local)]),
    ...block,
    ...loop,
    ...localGet(position),
    ...localGet(stop),
    ...i32GeU,
    ...branchIf(1),
    ...localGet(position),
    ...i64Load,
    ...localTee(message),
    ...localGet(v3),
    ...i64Xor,
    ...localSet(v3),
    ...localGet(rounds),
    ...localSet(left),
    ...block,
    ...loop,
    ...localGet(left),
    ...i32Eqz,
    ...branchIf(1),
    ...sipRound,
    ...localGet(left),
    ...i32Const(1),
    ...i32Sub,
    ...localSet(left),
    ...branch(0),
    ...end,
    ...end,
    ...localGet(v0),
    ...localGet(message),
    ...i64Xor,
    ...localSet(v0),
    ...localGet(position),
    ...i32Const(8),
    ...i32Add,
    ...localSet(position),
    ...branch(0),
    ...end,
    ...end,
    ...locals.flatMap((local, state) => [...localGet(local), ...globalSet(state)]),
    ...end,
  ];
}

/** mix(byteCount, rounds): the words at the front of memory, where the byte feed stages them. */
function mixBody(): Bytes {
  return [...vector([]), ...i32Const(0), ...localGet(0), ...localGet(1), ...call(MIX_RANGE), ...end];
}

/** finish(rounds): finalization, over the zero word at ZERO_OFFSET; the two output halves at OUTPUT_OFFSET. */
function finishBody(): Bytes {
  const flip = (state: number, constant: bigint): Bytes => [...globalGet(state), ...i64Const(constant), ...i64Xor, ...globalSet(state)];
  const rounds = [...i32Const(ZERO_OFFSET), ...i32Const(ZERO_OFFSET + 8), ...localGet(0), ...call(MIX_RANGE)];
  const store = (offset: number): Bytes => [
    ...i32Const(offset),
    ...globalGet(0),
    ...globalGet(1),
    ...i64Xor,
    ...globalGet(2),
    ...i64Xor,
    ...globalGet(3),
    ...i64Xor,
    ...i64Store,
  ];
  return [...vector([]), ...flip(2, 0xeen), ...rounds, ...store(OUTPUT_OFFSET), ...flip(1, 0xddn), ...rounds, ...store(OUTPUT_OFFSET + 8), ...end];
}

/**
 * The module: memory `memory` of {@link MEMORY_PAGES} pages, and `begin`, `mix` and `finish` as the SipMixer
 * interface describes them.
 * @returns the module's bytes
 */
export function sipMixerModule(): Uint8Array {
  const functionType = (parameters: number): Bytes => [FUNCTION_TYPE, ...vector(Array.from({ length: parameters }, () => [I32])), 0];
  const bodies = [beginBody(), mixRangeBody(), mixBody(), finishBody()];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    // Types: (i32 x4), (i32 x3), (i32 x2), (i32), none returning anything.
    ...section(1, vector([functionType(4), functionType(3), functionType(2), functionType(1)])),
    ...section(3, vector([[BEGIN], [MIX_RANGE], [MIX], [FINISH]])),
    ...section(5, vector([[0x00, ...unsigned(MEMORY_PAGES)]])),
    ...section(6, vector(STATE.map(() => [I64, 0x01, ...i64Const(0n), ...end]))),
    ...section(
      7,
      vector([
        [...name('memory'), 0x02, 0],
        [...name('begin'), 0x00, BEGIN],
        [...name('mix'), 0x00, MIX],
        [...name('finish'), 0x00, FINISH],
      ]),
    ),
    ...section(10, vector(bodies.map((body) => [...unsigned(body.length), ...body]))),
  ]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const numbers = [...sipMixerModule()].join(', ');
  console.log(`const MODULE = [\n  ${numbers.replace(/(.{1,110})(?:, |$)/g, '$1,\n  ').trimEnd()}\n];`);
}
