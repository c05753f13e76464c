/** The four 32-bit lanes of MurmurHash3 x86_128. */
export type Lanes = readonly [number, number, number, number];

/** MurmurHash3_x86_128 written straight from Austin Appleby's C reference, byte by byte, as an independent check. */
export function referenceMurmur3(bytes: Uint8Array, seed: number | Lanes): Lanes {
  const c1 = 0x239b961b;
  const c2 = 0xab0e9789;
  const c3 = 0x38b34ae5;
  const c4 = 0xa1e38b93;
  const rotl = (x: number, r: number): number => (x << r) | (x >>> (32 - r));
  const byte = (index: number): number => bytes[index] ?? 0;
  const word = (index: number): number =>
    byte(index) | (byte(index + 1) << 8) | (byte(index + 2) << 16) | (byte(index + 3) << 24);
  // The reference starts every lane at one seed; a key gives each lane its own.
  const lanes: Lanes = typeof seed === 'number' ? [seed, seed, seed, seed] : seed;
  let h1 = lanes[0] | 0;
  let h2 = lanes[1] | 0;
  let h3 = lanes[2] | 0;
  let h4 = lanes[3] | 0;
  const blocks = bytes.length >> 4;
  for (let block = 0; block < blocks; block++) {
    let k1 = word(block * 16);
    let k2 = word(block * 16 + 4);
    let k3 = word(block * 16 + 8);
    let k4 = word(block * 16 + 12);
    k1 = Math.imul(rotl(Math.imul(k1, c1), 15), c2);
    h1 ^= k1;
    h1 = rotl(h1, 19);
    h1 = (h1 + h2) | 0;
    h1 = (Math.imul(h1, 5) + 0x561ccd1b) | 0;
    k2 = Math.imul(rotl(Math.imul(k2, c2), 16), c3);
    h2 ^= k2;
    h2 = rotl(h2, 17);
    h2 = (h2 + h3) | 0;
    h2 = (Math.imul(h2, 5) + 0x0bcaa747) | 0;
    k3 = Math.imul(rotl(Math.imul(k3, c3), 17), c4);
    h3 ^= k3;
    h3 = rotl(h3, 15);
    h3 = (h3 + h4) | 0;
    h3 = (Math.imul(h3, 5) + 0x96cd1c35) | 0;
    k4 = Math.imul(rotl(Math.imul(k4, c4), 18), c1);
    h4 ^= k4;
    h4 = rotl(h4, 13);
    h4 = (h4 + h1) | 0;
    h4 = (Math.imul(h4, 5) + 0x32ac3b17) | 0;
  }
  const tail = blocks * 16;
  let k1 = 0;
  let k2 = 0;
  let k3 = 0;
  let k4 = 0;
  // The reference's fall-through switch over the tail length, as a ladder of conditions.
  const rest = bytes.length & 15;
  if (rest >= 15) k4 ^= byte(tail + 14) << 16;
  if (rest >= 14) k4 ^= byte(tail + 13) << 8;
  if (rest >= 13) {
    k4 ^= byte(tail + 12);
    h4 ^= Math.imul(rotl(Math.imul(k4, c4), 18), c1);
  }
  if (rest >= 12) k3 ^= byte(tail + 11) << 24;
  if (rest >= 11) k3 ^= byte(tail + 10) << 16;
  if (rest >= 10) k3 ^= byte(tail + 9) << 8;
  if (rest >= 9) {
    k3 ^= byte(tail + 8);
    h3 ^= Math.imul(rotl(Math.imul(k3, c3), 17), c4);
  }
  if (rest >= 8) k2 ^= byte(tail + 7) << 24;
  if (rest >= 7) k2 ^= byte(tail + 6) << 16;
  if (rest >= 6) k2 ^= byte(tail + 5) << 8;
  if (rest >= 5) {
    k2 ^= byte(tail + 4);
    h2 ^= Math.imul(rotl(Math.imul(k2, c2), 16), c3);
  }
  if (rest >= 4) k1 ^= byte(tail + 3) << 24;
  if (rest >= 3) k1 ^= byte(tail + 2) << 16;
  if (rest >= 2) k1 ^= byte(tail + 1) << 8;
  if (rest >= 1) {
    k1 ^= byte(tail);
    h1 ^= Math.imul(rotl(Math.imul(k1, c1), 15), c2);
  }
  const fmix = (h: number): number => {
    let x = h ^ (h >>> 16);
    x = Math.imul(x, 0x85ebca6b);
    x ^= x >>> 13;
    x = Math.imul(x, 0xc2b2ae35);
    return x ^ (x >>> 16);
  };
  h1 ^= bytes.length;
  h2 ^= bytes.length;
  h3 ^= bytes.length;
  h4 ^= bytes.length;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h3 = fmix(h3);
  h4 = fmix(h4);
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  return [h1, h2, h3, h4];
}

/** The first 112 bits of a hash, as 28 hex digits: what the library's hashes are. */
export function referenceHex(lanes: Lanes): string {
  return lanes
    .map((lane) => (lane >>> 0).toString(16).padStart(8, '0'))
    .join('')
    .slice(0, 28);
}

/** UTF-8 bytes of a string. */
export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** UTF-16LE code units of a string, as bytes. */
export function utf16le(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  for (let index = 0; index < text.length; index++) {
    bytes[index * 2] = text.charCodeAt(index) & 0xff;
    bytes[index * 2 + 1] = text.charCodeAt(index) >>> 8;
  }
  return bytes;
}
