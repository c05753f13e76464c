/* eslint-disable @typescript-eslint/non-nullable-type-assertion-style --
   Indices stay below `count`, which the caller keeps within the buffer. The strict config forbids `!`; a cast says it. */
/**
 * Makes a byte buffer readable as little-endian 32-bit words through an `Int32Array` over the same memory, so a hash
 * over those words is the same on every machine. On little-endian machines (nearly all) there is nothing to do; on
 * big-endian ones each word's bytes are reversed in place.
 * @param bytes - the buffer the words are read from
 * @param littleEndian - whether this machine stores words little-endian; detected when omitted
 * @returns a function that prepares the first `count` bytes (a multiple of 4) for reading
 */
export function littleEndianWords(
  bytes: Uint8Array,
  // Stryker disable next-line ConditionalExpression: true on the little-endian machines tests run on; the big-endian path is tested by passing false.
  littleEndian: boolean = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1,
): (count: number) => void {
  if (littleEndian) {
    return () => {
      // Words already read as little-endian.
    };
  }
  return (count) => {
    for (let index = 0; index < count; index += 4) {
      const first = bytes[index] as number;
      const second = bytes[index + 1] as number;
      bytes[index] = bytes[index + 3] as number;
      bytes[index + 1] = bytes[index + 2] as number;
      bytes[index + 2] = second;
      bytes[index + 3] = first;
    }
  };
}
