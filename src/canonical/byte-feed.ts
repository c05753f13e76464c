import { littleEndianWords } from './little-endian-words.js';

/** Bytes encoded per round: a long string is read a stretch at a time, so no copy of it is ever made whole. */
export const CHUNK_BYTES = 1 << 16;

const encoder = new TextEncoder();

/** Each byte as two lowercase hex digits, for writing a hash out. */
export const HEX_BYTES: readonly string[] = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * A block hash's view of a string: the bytes go through one staging buffer a stretch at a time, the whole blocks at
 * its front are handed to the hash's mixing function, and the bytes of an unfinished block wait at the front of the
 * buffer for the next stretch (and, at the end, for the hash's own last block).
 */
export interface ByteFeed {
  /** The staging buffer; after a feed, its first `tail` bytes are the unfinished block. */
  readonly bytes: Uint8Array;
  /** The same memory as 32-bit words, for the mixing function to read. */
  readonly words: Int32Array;
  /** Makes the first `count` bytes (a multiple of 4) readable as little-endian words, for a mixer in JavaScript. */
  readonly prepareWords: (count: number) => void;
  /** Bytes of the unfinished block left at the front by the last feed. */
  tail: number;
  /**
   * Feeds the text's UTF-8 bytes (it must be well-formed) after the first `carry` bytes already in the buffer.
   * @returns the text's byte count
   */
  utf8(text: string, carry: number): number;
  /**
   * Feeds the text's UTF-16LE code units after the first `carry` bytes already in the buffer.
   * @returns the byte count, twice the text's length
   */
  utf16(text: string, carry: number): number;
}

/**
 * A feed over a buffer reused by every call, so hashing allocates nothing.
 * @param blockBytes - the hash's block size, a multiple of 4 (8 for SipHash, 16 for MurmurHash3 x86_128)
 * @param mix - mixes the first `byteCount` bytes of the buffer, all whole blocks, as they are in memory (a mixer in
 *   JavaScript reads them through `words` after `prepareWords`; WebAssembly reads memory little-endian anyway)
 * @param buffer - where the bytes are staged, at least `CHUNK_BYTES + blockBytes` long (a block more, for the bytes of
 *   an unfinished block carried to the next stretch); a new buffer of that size by default
 */
export function createByteFeed(blockBytes: number, mix: (byteCount: number) => void, buffer = new ArrayBuffer(CHUNK_BYTES + blockBytes)): ByteFeed {
  const bytes = new Uint8Array(buffer);
  const words = new Int32Array(buffer);
  // One view per possible carry, so no stretch allocates.
  // Stryker disable next-line ArithmeticOperator: a view of `carry` bytes instead makes more, smaller stretches over the same bytes in the same order.
  const destinations = Array.from({ length: blockBytes }, (_, carry) => bytes.subarray(carry, carry + CHUNK_BYTES));
  const prepareWords = littleEndianWords(bytes);

  /** Mixes every whole block of the first `filled` bytes and moves the rest to the front; returns how many moved. */
  function mixBuffered(filled: number): number {
    const whole = filled - (filled % blockBytes);
    mix(whole);
    bytes.copyWithin(0, whole, filled);
    return filled - whole;
  }

  const feed: ByteFeed = {
    bytes,
    words,
    prepareWords,
    tail: 0,
    utf8(text, carry) {
      let position = 0;
      let filled = carry;
      let total = 0;
      do {
        // Stryker disable next-line ConditionalExpression: substring(0) is the whole text; the shortcut saves a copy.
        const rest = position === 0 ? text : text.substring(position);
        const progress = encoder.encodeInto(rest, destinations[filled] as Uint8Array);
        position += progress.read;
        total += progress.written;
        filled = mixBuffered(filled + progress.written);
      } while (position < text.length);
      feed.tail = filled;
      return total;
    },
    utf16(text, carry) {
      let filled = carry;
      // Stryker disable next-line EqualityOperator: one more stretch at the end adds no bytes and mixes nothing.
      for (let start = 0; start < text.length; start += CHUNK_BYTES / 2) {
        const end = Math.min(text.length, start + CHUNK_BYTES / 2);
        let offset = filled;
        for (let index = start; index < end; index++) {
          const unit = text.charCodeAt(index);
          bytes[offset++] = unit & 0xff;
          bytes[offset++] = unit >>> 8;
        }
        filled = mixBuffered(offset);
      }
      feed.tail = filled;
      return text.length * 2;
    },
  };
  return feed;
}
