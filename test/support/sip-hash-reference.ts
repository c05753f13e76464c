/**
 * SipHash written a second way, for tests only: straight from the paper's description, on BigInt 64-bit words and a
 * byte array, with either output size. The fast implementation in `src/canonical/sip-hash.ts` (32-bit halves, a
 * streaming buffer, 128-bit output only) is checked against this one, and this one against published vectors.
 */
const MASK = (1n << 64n) - 1n;
const rotl = (word: bigint, bits: bigint): bigint => ((word << bits) | (word >> (64n - bits))) & MASK;

/**
 * SipHash-c-d of a byte string.
 * @param message - the bytes
 * @param key - the 16 key bytes
 * @param compression - rounds per block (c)
 * @param finalization - rounds at the end (d)
 * @param outputBytes - 8 or 16
 * @returns the output bytes, as the reference writes them
 */
export function referenceSipHash(message: Uint8Array, key: Uint8Array, compression: number, finalization: number, outputBytes: 8 | 16): Uint8Array {
  const read = (bytes: Uint8Array, offset: number): bigint => {
    let word = 0n;
    for (let index = 7; index >= 0; index--) word = (word << 8n) | BigInt(bytes[offset + index] ?? 0);
    return word;
  };
  const k0 = read(key, 0);
  const k1 = read(key, 8);
  const v = [k0 ^ 0x736f6d6570736575n, k1 ^ 0x646f72616e646f6dn, k0 ^ 0x6c7967656e657261n, k1 ^ 0x7465646279746573n] as [bigint, bigint, bigint, bigint];
  if (outputBytes === 16) v[1] ^= 0xeen;
  const round = (): void => {
    v[0] = (v[0] + v[1]) & MASK;
    v[1] = rotl(v[1], 13n) ^ v[0];
    v[0] = rotl(v[0], 32n);
    v[2] = (v[2] + v[3]) & MASK;
    v[3] = rotl(v[3], 16n) ^ v[2];
    v[0] = (v[0] + v[3]) & MASK;
    v[3] = rotl(v[3], 21n) ^ v[0];
    v[2] = (v[2] + v[1]) & MASK;
    v[1] = rotl(v[1], 17n) ^ v[2];
    v[2] = rotl(v[2], 32n);
  };
  const absorb = (word: bigint): void => {
    v[3] ^= word;
    for (let index = 0; index < compression; index++) round();
    v[0] ^= word;
  };
  const whole = message.length - (message.length % 8);
  for (let offset = 0; offset < whole; offset += 8) absorb(read(message, offset));
  const last = new Uint8Array(8);
  last.set(message.subarray(whole));
  last[7] = message.length & 0xff;
  absorb(read(last, 0));
  const output: bigint[] = [];
  v[2] ^= outputBytes === 16 ? 0xeen : 0xffn;
  for (let index = 0; index < finalization; index++) round();
  output.push(v[0] ^ v[1] ^ v[2] ^ v[3]);
  if (outputBytes === 16) {
    v[1] ^= 0xddn;
    for (let index = 0; index < finalization; index++) round();
    output.push(v[0] ^ v[1] ^ v[2] ^ v[3]);
  }
  const bytes = new Uint8Array(outputBytes);
  output.forEach((word, half) => {
    for (let index = 0; index < 8; index++) bytes[half * 8 + index] = Number((word >> BigInt(index * 8)) & 0xffn);
  });
  return bytes;
}

/** The bytes `sipHash` hashes a string over: UTF-8 when well-formed, else `0xff` and the UTF-16LE code units. */
export function messageOf(text: string): Uint8Array {
  if (isWellFormed(text)) return new TextEncoder().encode(text);
  const bytes = new Uint8Array(1 + text.length * 2);
  bytes[0] = 0xff;
  for (let index = 0; index < text.length; index++) {
    bytes[1 + index * 2] = text.charCodeAt(index) & 0xff;
    bytes[2 + index * 2] = text.charCodeAt(index) >>> 8;
  }
  return bytes;
}

/** Bytes as lowercase hex, in order. */
export const hexOf = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** Whether a string has no lone surrogate, asked of `encodeURIComponent` (which refuses one), not of the library. */
function isWellFormed(text: string): boolean {
  try {
    encodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}
