// The source of the WebAssembly SipHash mixer whose bytes src/canonical/wasm-sip-mixer.ts holds: its four functions,
// written out instruction by instruction. A test checks that the bytes in src/ are exactly what this emits. After a
// change, run `npx tsx scripts/sip-mixer-module.ts` and paste what it prints.
import { pathToFileURL } from 'node:url';
import { OUTPUT_128, SECOND_HALF } from '../src/canonical/sip-mixer.js';
import { MEMORY_PAGES, OUTPUT_OFFSET, ZERO_OFFSET } from '../src/canonical/wasm-sip-mixer.js';
import {
  block,
  branch,
  branchIf,
  type Bytes,
  call,
  emitModule,
  end,
  globalGet,
  globalSet,
  I32,
  i32Add,
  i32Const,
  i32Eqz,
  i32GeU,
  i32Sub,
  I64,
  i64Add,
  i64Const,
  i64ExtendI32U,
  i64Load,
  i64Or,
  i64Rotl,
  i64Shl,
  i64Store,
  i64Xor,
  localGet,
  localSet,
  localTee,
  loop,
  printModule,
} from './wasm-emitter.js';

// Functions, by index: begin, mixRange, mix, finish.
const MIX_RANGE = 1;

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
    ...join(0, 1, 4),
    ...join(2, 3, 5),
    ...start(0, 4, 0x736f6d6570736575n),
    ...start(1, 5, 0x646f72616e646f6dn ^ BigInt(OUTPUT_128)),
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
  return [...i32Const(0), ...localGet(0), ...localGet(1), ...call(MIX_RANGE), ...end];
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
  return [...flip(2, BigInt(OUTPUT_128)), ...rounds, ...store(OUTPUT_OFFSET), ...flip(1, BigInt(SECOND_HALF)), ...rounds, ...store(OUTPUT_OFFSET + 8), ...end];
}

/**
 * The module: memory `memory` of {@link MEMORY_PAGES} pages, and `begin`, `mix` and `finish` as the SipMixer
 * interface describes them.
 * @returns the module's bytes
 */
export function sipMixerModule(): Uint8Array {
  return emitModule({
    pages: MEMORY_PAGES,
    globals: STATE.map(() => I64),
    functions: [
      { parameters: 4, locals: [[2, I64]], body: beginBody(), exportAs: 'begin' },
      {
        parameters: 3,
        locals: [
          [1, I32],
          [5, I64],
        ],
        body: mixRangeBody(),
      },
      { parameters: 2, locals: [], body: mixBody(), exportAs: 'mix' },
      { parameters: 1, locals: [], body: finishBody(), exportAs: 'finish' },
    ],
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) printModule(sipMixerModule());
