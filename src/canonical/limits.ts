/** Containers at this depth or deeper (the root is depth 0) are written as {@link MAX_DEPTH_MARKER}. */
export const MAX_DEPTH = 64;
/** At most this many values are written per value read; the next one becomes {@link TRUNCATED_MARKER}. */
export const MAX_VALUES = 200_000;
/** At most this many characters of text are read per value read (see {@link ReadLimits.maxCharacters}). */
export const MAX_CHARACTERS = 16 * 1024 * 1024;
/** Strings longer than this are written as `#s<length>:<hash>` everywhere, never escaped. */
export const LONG_STRING_LENGTH = 1024 * 1024;
/** In comparison keys of tool results and errors, and in `stableHash`, strings longer than this are hashed raw. */
export const RAW_STRING_LENGTH = 1024;
/** Bigints of more bits than this are written as `#n<bits>:<hash>`, never in decimal. */
export const MAX_BIGINT_BITS = 65_536;
/** One step's reads share this many values between them. */
export const STEP_VALUES = 2_000_000;
/** One step's reads share this many characters of text between them. */
export const STEP_CHARACTERS = 64 * 1024 * 1024;
/** Stands for a container nested too deeply. */
export const MAX_DEPTH_MARKER = '[MaxDepth]';
/** Stands for the first value past a budget; nothing follows it. */
export const TRUNCATED_MARKER = '[Truncated]';

/** The cut-offs of a read. Every figure is a whole number of at least 1 (`maxDepth` at least 1, too). */
export interface ReadLimits {
  /** Containers at this depth or deeper are {@link MAX_DEPTH_MARKER}. */
  readonly maxDepth: number;
  /** Values written per value read: the root, every element, property value, `Map` key and value, member, byte. */
  readonly maxValues: number;
  /**
   * Characters of text read per value read: every string value, property name, symbol description, function name
   * and regular expression counts its length (at most `longStringLength`), a bigint its digits.
   */
  readonly maxCharacters: number;
  /** Longer strings are written as a length and hash, in every form. */
  readonly longStringLength: number;
  /** Longer strings are written as a length and hash in comparison keys of results and errors. */
  readonly rawStringLength: number;
  /** Bigints of more bits are written as a bit count and hash. */
  readonly maxBigIntBits: number;
  /** Values one step's reads share. */
  readonly stepValues: number;
  /** Characters one step's reads share. */
  readonly stepCharacters: number;
}

/** The limits every read uses unless a test says otherwise. */
export const DEFAULT_LIMITS: ReadLimits = Object.freeze({
  maxDepth: MAX_DEPTH,
  maxValues: MAX_VALUES,
  maxCharacters: MAX_CHARACTERS,
  longStringLength: LONG_STRING_LENGTH,
  rawStringLength: RAW_STRING_LENGTH,
  maxBigIntBits: MAX_BIGINT_BITS,
  stepValues: STEP_VALUES,
  stepCharacters: STEP_CHARACTERS,
});
