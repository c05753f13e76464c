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

// Objects of one shape recur: the rows of an array, the items of a list, the same tool's arguments step after step.
// So layouts are remembered, first the last one used at each depth (rows of one shape in a list), then a few per first
// key (shapes that alternate). A hit needs the same keys in the same order, compared one by one, so it is never wrong,
// and layouts never change once built. The store is bounded and starts over when full.
const lastByDepth: (MemberLayout | undefined)[] = [];
const layoutsByFirstKey = new Map<string | undefined, MemberLayout[]>();
const LAYOUTS_PER_FIRST_KEY = 4;
const FIRST_KEYS_LIMIT = 512;
// Layouts with a key longer than this are not stored, so a pathological key is not kept alive.
const REMEMBERED_KEY_LENGTH_LIMIT = 256;

/** Objects with more keys than this are written without a layout: they rarely repeat, and the store would keep them. */
export const LAYOUT_KEYS_LIMIT = 64;

/**
 * The layout for an object with these keys, reusing a remembered one for the same keys in the same order.
 * @param keys - the object's own enumerable keys, in `Object.keys` order, 1 to {@link LAYOUT_KEYS_LIMIT} of them;
 *   not modified, and kept by the layout
 * @param depth - the object's depth, which picks the slot checked first
 * @returns the layout
 */
export function memberLayout(keys: readonly string[], depth: number): MemberLayout {
  const last = lastByDepth[depth];
  // Stryker disable next-line ConditionalExpression: skipping the per-depth shortcut finds or builds the same layout.
  if (last !== undefined && sameKeys(last.source, keys)) return last;
  const firstKey = keys[0];
  const stored = layoutsByFirstKey.get(firstKey);
  const found = stored?.find((layout) => sameKeys(layout.source, keys));
  if (found !== undefined) {
    lastByDepth[depth] = found;
    return found;
  }
  const layout: MemberLayout = {
    source: keys,
    members: sortKeys(keys.slice()).map((key) => ({ key, prefix: jsonMemberPrefix(key) })),
  };
  if (keys.every((key) => key.length <= REMEMBERED_KEY_LENGTH_LIMIT)) {
    lastByDepth[depth] = layout;
    if (stored === undefined) {
      // Stryker disable next-line EqualityOperator: a cache bound one entry either way changes no layout.
      if (layoutsByFirstKey.size >= FIRST_KEYS_LIMIT) layoutsByFirstKey.clear();
      layoutsByFirstKey.set(firstKey, [layout]);
    } else {
      if (stored.length >= LAYOUTS_PER_FIRST_KEY) stored.pop();
      stored.unshift(layout);
    }
  }
  return layout;
}

function sameKeys(left: readonly string[], right: readonly string[]): boolean {
  const length = left.length;
  if (length !== right.length) return false;
  // Stryker disable next-line EqualityOperator: one step past the end compares undefined with undefined.
  for (let index = 0; index < length; index++) {
    if (left[index] !== right[index]) return false;
  }
  return true;
}
