import { jsonMemberPrefix } from './json-quote.js';
import { sortKeys } from './sort-keys.js';

/** How an object's members are written: its keys in UTF-16 code unit order, and the `"key":` that starts each one. */
export interface MemberLayout {
  /** The keys as `Object.keys` listed them, to recognise the next object with the same ones. */
  readonly source: readonly string[];
  /** The keys in UTF-16 code unit order. */
  readonly keys: readonly string[];
  /**
   * The quoted `"key":` for the key at the same index, where the layout holds one. Where it does not (past the end of
   * this array, as for objects with many keys), the writer quotes the key itself when it reaches it.
   */
  readonly prefixes: readonly (string | undefined)[];
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
const NO_PREFIXES: readonly (string | undefined)[] = [];

/**
 * Objects with more keys than this get a layout of their own, not remembered and without prefixes: they rarely repeat,
 * the store would keep them, and a cut may leave most of their keys unwritten.
 */
export const LAYOUT_KEYS_LIMIT = 64;

/**
 * The layout for an object with these keys: a remembered one for the same keys in the same order when there is one.
 * This is the one place that decides what is cached; writers only read layouts.
 * @param keys - the object's own enumerable keys, in `Object.keys` order; the layout takes the array over (it may sort
 *   it in place, or keep it)
 * @param depth - the object's depth, which picks the slot checked first
 * @returns the layout
 */
export function memberLayout(keys: string[], depth: number): MemberLayout {
  if (keys.length > LAYOUT_KEYS_LIMIT) return { source: keys, keys: sortKeys(keys), prefixes: NO_PREFIXES };
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
  const sorted = sortKeys(keys.slice());
  const layout: MemberLayout = { source: keys, keys: sorted, prefixes: sorted.map(jsonMemberPrefix) };
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
