// The source of the WebAssembly block mixing of MurmurHash3 x86_128 whose bytes src/canonical/wasm-murmur-blocks.ts
// holds, written out instruction by instruction. A test checks that the bytes in src/ are exactly what this emits.
// After a change, run `npx tsx scripts/murmur-blocks-module.ts` and paste what it prints.
import { pathToFileURL } from 'node:url';
import { LANES_OFFSET, MEMORY_PAGES } from '../src/canonical/wasm-murmur-blocks.js';
import {
  block,
  branch,
  branchIf,
  type Bytes,
  emitModule,
  end,
  globalGet,
  globalSet,
  I32,
  i32Add,
  i32Const,
  i32GeU,
  i32Load,
  i32Mul,
  i32Rotl,
  i32Store,
  i32Xor,
  localGet,
  localSet,
  loop,
  printModule,
} from './wasm-emitter.js';

// Globals 0 to 3 hold the lanes h1 to h4 between calls.
const LANES = [0, 1, 2, 3] as const;

/** begin(h1, h2, h3, h4): the lanes to start from. */
function beginBody(): Bytes {
  return [...LANES.flatMap((lane) => [...localGet(lane), ...globalSet(lane)]), ...end];
}

/**
 * mix(end): each 16-byte block from the front of memory up to `end`, as the reference's block loop (Austin Appleby's
 * MurmurHash3_x86_128). Locals: 1 the position, 2 to 5 the lanes (kept in locals while the loop runs).
 */
function mixBody(): Bytes {
  const [stop, position] = [0, 1];
  // Lane i (h1 to h4) is kept in local 2 + i.
  const local = (lane: number): number => 2 + lane;
  const laneStep = (lane: number, multiplier: number, rotation: number, nextMultiplier: number, laneRotation: number, addend: number): Bytes => [
    // k = rotl(word * c, r) * c'; h ^= k; h = rotl(h, r'); h += next lane; h = h * 5 + addend
    ...localGet(position),
    ...i32Load(lane * 4),
    ...i32Const(multiplier),
    ...i32Mul,
    ...i32Const(rotation),
    ...i32Rotl,
    ...i32Const(nextMultiplier),
    ...i32Mul,
    ...localGet(local(lane)),
    ...i32Xor,
    ...i32Const(laneRotation),
    ...i32Rotl,
    ...localGet(local((lane + 1) % 4)),
    ...i32Add,
    ...i32Const(5),
    ...i32Mul,
    ...i32Const(addend),
    ...i32Add,
    ...localSet(local(lane)),
  ];
  const [c1, c2, c3, c4] = [0x239b961b, 0xab0e9789, 0x38b34ae5, 0xa1e38b93];
  return [
    ...LANES.flatMap((lane) => [...globalGet(lane), ...localSet(local(lane))]),
    ...block,
    ...loop,
    ...localGet(position),
    ...localGet(stop),
    ...i32GeU,
    ...branchIf(1),
    ...laneStep(0, c1, 15, c2, 19, 0x561ccd1b),
    ...laneStep(1, c2, 16, c3, 17, 0x0bcaa747),
    ...laneStep(2, c3, 17, c4, 15, 0x96cd1c35),
    ...laneStep(3, c4, 18, c1, 13, 0x32ac3b17),
    ...localGet(position),
    ...i32Const(16),
    ...i32Add,
    ...localSet(position),
    ...branch(0),
    ...end,
    ...end,
    ...LANES.flatMap((lane) => [...localGet(local(lane)), ...globalSet(lane)]),
    ...end,
  ];
}

/** lanes(): h1 to h4, little-endian, at LANES_OFFSET. */
function lanesBody(): Bytes {
  return [...LANES.flatMap((lane) => [...i32Const(0), ...globalGet(lane), ...i32Store(LANES_OFFSET + lane * 4)]), ...end];
}

/**
 * The module: memory `memory` of {@link MEMORY_PAGES} pages, and `begin`, `mix` and `lanes` as WasmMurmurBlocks
 * describes them.
 * @returns the module's bytes
 */
export function murmurBlocksModule(): Uint8Array {
  return emitModule({
    pages: MEMORY_PAGES,
    globals: LANES.map(() => I32),
    functions: [
      { parameters: 4, locals: [], body: beginBody(), exportAs: 'begin' },
      { parameters: 1, locals: [[5, I32]], body: mixBody(), exportAs: 'mix' },
      { parameters: 0, locals: [], body: lanesBody(), exportAs: 'lanes' },
    ],
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) printModule(murmurBlocksModule());
