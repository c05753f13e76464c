/**
 * SipHash written a second way, for tests only: straight from the paper's description, on BigInt 64-bit words and a
 * byte array, with either output size. The fast implementation in `src/canonical/hash.ts` (32-bit halves, code units
 * read straight from the string, 128-bit output only) is checked against this one, and this one against published
 * vectors (`test/canonical/hash.test.ts`).
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

/**
 * The bytes the library hashes for a string: one byte per code unit followed by 0 when every code unit is below 256,
 * else each code unit's two bytes, low byte first (lone surrogates included), followed by 1.
 */
export function messageOf(text: string): Uint8Array {
  let oneByte = true;
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) > 255) oneByte = false;
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (oneByte) bytes.push(unit);
    else bytes.push(unit & 0xff, unit >>> 8);
  }
  bytes.push(oneByte ? 0 : 1);
  return Uint8Array.from(bytes);
}

/** Bytes written as hex, in order, to bytes: the form a key takes in a snapshot, as the reference takes it. */
export const bytesOfHex = (hex: string): Uint8Array => Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));

/** Bytes as lowercase hex, in order. */
export const hexOf = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** The key of `canonicalize` and `stableHash`, written out here rather than imported: pi's first 32 hex digits. */
export const PUBLIC_KEY = '243f6a8885a308d313198a2e03707344';

/**
 * What the library's hash gives for a string under a key: the first 112 bits of the reference SipHash-1-3-128 of the
 * string's message (see {@link messageOf}), as 28 hex characters.
 */
export const referenceHash = (text: string, key: string = PUBLIC_KEY): string =>
  hexOf(referenceSipHash(messageOf(text), bytesOfHex(key), 1, 3, 16)).slice(0, 28);
