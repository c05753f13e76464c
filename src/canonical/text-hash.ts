/**
 * A hash of a string as a fixed number of lowercase hex characters, for the tokens and comparison keys a walker writes:
 * the public MurmurHash of `canonicalize` and `stableHash`, or the keyed SipHash of a guard's own comparisons.
 */
export type TextHash = (text: string) => string;
