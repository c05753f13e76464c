/**
 * Builds two different strings with the same MurmurHash3 x86_128 hash under a seed the builder knows: the attack a
 * public seed allows. Each 16-byte block can drive the four lanes to any state (every step of the block function can
 * be inverted), so two different first blocks, each followed by the block that leads to one chosen state, hash alike.
 * The strings hold a lone surrogate, so they are hashed over their UTF-16 code units, where any 16-bit unit is valid.
 */
/** Four 32-bit lane seeds. */
type LaneSeeds = readonly [number, number, number, number];

/** The public seeds of the MurmurHash3 the library used before it hashed with SipHash; kept here to show the attack. */
const PUBLIC_SEEDS: LaneSeeds = [0x9747b28c, 0x9747b28c, 0x9747b28c, 0x9747b28c];

const C1 = 0x239b961b;
const C2 = 0xab0e9789;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93;
const UTF16_SHIFT = 0x9747b28c ^ 0x4f1bbcdc;
const ADD = [0x561ccd1b, 0x0bcaa747, 0x96cd1c35, 0x32ac3b17] as const;

const rotl = (value: number, bits: number): number => (value << bits) | (value >>> (32 - bits));
const rotr = (value: number, bits: number): number => (value >>> bits) | (value << (32 - bits));

/** The inverse of an odd number modulo 2^32, by Newton's iteration. */
function inverse(odd: number): number {
  let x = odd;
  for (let round = 0; round < 5; round++) x = Math.imul(x, 2 - Math.imul(odd, x));
  return x;
}

const INV5 = inverse(5);
const [INV_C1, INV_C2, INV_C3, INV_C4] = [inverse(C1), inverse(C2), inverse(C3), inverse(C4)];

type State = [number, number, number, number];

function mixBlock([h1, h2, h3, h4]: State, [k1, k2, k3, k4]: State): State {
  h1 ^= Math.imul(rotl(Math.imul(k1, C1), 15), C2);
  h1 = (Math.imul((rotl(h1, 19) + h2) | 0, 5) + ADD[0]) | 0;
  h2 ^= Math.imul(rotl(Math.imul(k2, C2), 16), C3);
  h2 = (Math.imul((rotl(h2, 17) + h3) | 0, 5) + ADD[1]) | 0;
  h3 ^= Math.imul(rotl(Math.imul(k3, C3), 17), C4);
  h3 = (Math.imul((rotl(h3, 15) + h4) | 0, 5) + ADD[2]) | 0;
  h4 ^= Math.imul(rotl(Math.imul(k4, C4), 18), C1);
  h4 = (Math.imul((rotl(h4, 13) + h1) | 0, 5) + ADD[3]) | 0;
  return [h1, h2, h3, h4];
}

/** The block that takes the lanes from `state` to `target`. */
function solveBlock([s1, s2, s3, s4]: State, [t1, t2, t3, t4]: State): State {
  const lane = (target: number, add: number, plus: number, rotation: number, before: number): number =>
    rotr((Math.imul((target - add) | 0, INV5) - plus) | 0, rotation) ^ before;
  const m1 = lane(t1, ADD[0], s2, 19, s1);
  const m2 = lane(t2, ADD[1], s3, 17, s2);
  const m3 = lane(t3, ADD[2], s4, 15, s3);
  const m4 = lane(t4, ADD[3], t1, 13, s4);
  return [
    Math.imul(rotr(Math.imul(m1, INV_C2), 15), INV_C1),
    Math.imul(rotr(Math.imul(m2, INV_C3), 16), INV_C2),
    Math.imul(rotr(Math.imul(m3, INV_C4), 17), INV_C3),
    Math.imul(rotr(Math.imul(m4, INV_C1), 18), INV_C4),
  ];
}

/** Eight UTF-16 code units whose little-endian bytes are the block's four words. */
function unitsOf(block: State): string {
  return block.map((word) => String.fromCharCode(word & 0xffff, word >>> 16)).join('');
}

function wordsOf(units: string): State {
  const word = (index: number): number => units.charCodeAt(index * 2) | (units.charCodeAt(index * 2 + 1) << 16);
  return [word(0), word(1), word(2), word(3)];
}

/**
 * Two different strings of `length` code units (at least 16) that hash alike under `seeds`.
 * @param seeds - the lane seeds the attacker knows; the public ones by default
 * @param length - the strings' length
 * @returns the pair
 */
export function forgeCollision(length: number, seeds: LaneSeeds = PUBLIC_SEEDS): [string, string] {
  const start: State = [seeds[0] ^ UTF16_SHIFT, seeds[1] ^ UTF16_SHIFT, seeds[2] ^ UTF16_SHIFT, seeds[3] ^ UTF16_SHIFT];
  const target: State = [1, 2, 3, 4];
  const tail = 'x'.repeat(length - 16);
  // A lone surrogate in each first block: the strings are hashed as UTF-16 code units.
  return ['\ud800first!!', '\ud800seconds'].map((first) => {
    const afterFirst = mixBlock(start, wordsOf(first));
    return first + unitsOf(solveBlock(afterFirst, target)) + tail;
  }) as [string, string];
}
