/**
 * Strings that collide under MurmurHash3 x86_128 whatever its seeds, after Aumasson and Bernstein ("Hash-flooding DoS
 * reloaded", 2012): the attack a secret seed does not stop. The block function XORs each lane with its mixed message
 * word, rotates it, adds a neighbour, multiplies by 5 and adds a constant. A difference in the top bit alone passes
 * the addition, the multiplication by an odd number and the constant unchanged, whatever the state: so a pair of
 * blocks whose mixed words differ in chosen bits puts a top-bit difference into lanes 1 and 4, and the next pair
 * takes it out again (lane 3 adds lane 4's top-bit difference to its own, which cancels). Each such pair of block
 * pairs doubles the number of strings with one hash; the message words are the mixed words run backwards.
 * The strings start with a lone surrogate, so they are hashed over their UTF-16 code units, where any unit is valid.
 */
const C1 = 0x239b961b;
const C2 = 0xab0e9789;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93;
const TOP = 0x80000000 | 0;

const rotr = (value: number, bits: number): number => (value >>> bits) | (value << (32 - bits));

/** The inverse of an odd number modulo 2^32, by Newton's iteration. */
function inverse(odd: number): number {
  let x = odd;
  for (let round = 0; round < 5; round++) x = Math.imul(x, 2 - Math.imul(odd, x));
  return x;
}

const [INV_C1, INV_C2, INV_C3, INV_C4] = [inverse(C1), inverse(C2), inverse(C3), inverse(C4)];

type Words = readonly [number, number, number, number];

/** The message block whose four words mix to `mixed` (each lane's `k = rotl(k * c, r) * c'` run backwards). */
function unmix([m1, m2, m3, m4]: Words): Words {
  return [
    Math.imul(rotr(Math.imul(m1, INV_C2), 15), INV_C1),
    Math.imul(rotr(Math.imul(m2, INV_C3), 16), INV_C2),
    Math.imul(rotr(Math.imul(m3, INV_C4), 17), INV_C3),
    Math.imul(rotr(Math.imul(m4, INV_C1), 18), INV_C4),
  ];
}

/** Eight UTF-16 code units whose little-endian bytes are the block's four words. */
function unitsOf(block: Words): string {
  return block.map((word) => String.fromCharCode(word & 0xffff, word >>> 16)).join('');
}

/** Two 32-unit pieces that leave any lanes equal: the first blocks differ by a top bit after lane 1's rotation. */
function collidingPieces(salt: number): [string, string] {
  const first: Words = [0x61626364 ^ salt, 0x65666768, 0x696a6b6c + salt, 0x6d6e6f70];
  const second: Words = [0x71727374, 0x75767778 ^ salt, 0x797a4142, 0x43444546 + salt];
  // Rotating lane 1 left by 19 takes bit 12 to the top; lane 3 rotates left by 15, taking bit 16 there.
  const firstOther: Words = [first[0] ^ 0x00001000, first[1], first[2], first[3]];
  const secondOther: Words = [second[0] ^ TOP, second[1], second[2] ^ 0x00010000, second[3] ^ TOP];
  return [unitsOf(unmix(first)) + unitsOf(unmix(second)), unitsOf(unmix(firstOther)) + unitsOf(unmix(secondOther))];
}

/**
 * `2 ** pairs` different strings of `length` code units (at least `8 + 32 * pairs`) with the same MurmurHash3 x86_128
 * hash under every seed, built without knowing one.
 * @param length - the strings' length
 * @param pairs - how many colliding pieces to chain
 * @returns the strings
 */
export function murmurMulticollision(length: number, pairs = 1): string[] {
  // Eight units, one block: a lone high surrogate followed by a letter.
  let strings = ['\ud800collide'];
  for (let pair = 0; pair < pairs; pair++) {
    const [one, other] = collidingPieces(pair);
    strings = strings.flatMap((start) => [start + one, start + other]);
  }
  return strings.map((start) => start + 'x'.repeat(length - start.length));
}
