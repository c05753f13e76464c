import { jsonMemberPrefix } from './json-quote.js';
import { sortKeys } from './sort-keys.js';

/** One member of a layout: a key, and the quoted `"key":` that starts its text. */
export interface Member {
  readonly key: string;
  readonly prefix: string;
}

/** How an object's members are written: in key order, each with its prefix. */
export interface MemberLayout {
  /** The keys as `Object.keys` listed them, to recognise the next object with the same ones. */
  readonly source: readonly string[];
  /** The members in UTF-16 code unit order of their keys. */
  readonly members: readonly Member[];
}

// Objects of one shape tend to come in runs at one depth (the rows of an array, the items of a list), so the last
// layout built at each depth is kept. A hit needs the same keys in the same order, compared one by one, so it can never
// be wrong; layouts are never changed once built.
const lastLayouts: (MemberLayout | undefined)[] = [];

/** Objects with more keys than this are written without a layout: they rarely repeat, and a slot would keep them alive. */
export const LAYOUT_KEYS_LIMIT = 64;

/**
 * The layout for an object with these keys at this depth, reusing the previous one built at that depth when the keys
 * are the same.
 * @param keys - the object's own enumerable keys, in `Object.keys` order, at most {@link LAYOUT_KEYS_LIMIT}; not modified
 * @param depth - the object's depth, which selects the slot
 * @returns the layout
 */
export function memberLayout(keys: readonly string[], depth: number): MemberLayout {
  const last = lastLayouts[depth];
  if (last !== undefined && sameKeys(last.source, keys)) return last;
  const members = sortKeys(keys.slice()).map((key) => ({ key, prefix: jsonMemberPrefix(key) }));
  const layout: MemberLayout = { source: keys, members };
  lastLayouts[depth] = layout;
  return layout;
}

function sameKeys(left: readonly string[], right: readonly string[]): boolean {
  const length = left.length;
  if (length !== right.length) return false;
  for (let index = 0; index < length; index++) {
    if (left[index] !== right[index]) return false;
  }
  return true;
}
