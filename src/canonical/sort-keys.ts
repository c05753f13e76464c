/* eslint-disable @typescript-eslint/non-nullable-type-assertion-style --
   Indices stay below `length`. The strict config forbids `!`; a cast says it. */
// Insertion sort beats the native sort's call overhead on the handful of keys a tool argument object has.
const INSERTION_SORT_LIMIT = 24;

/**
 * Sorts strings in place by UTF-16 code unit order, the order `JSON.stringify` output is canonicalised in.
 * @param keys - the strings to sort; reordered in place
 * @returns the same array, sorted
 */
export function sortKeys(keys: string[]): string[] {
  const length = keys.length;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the native sort gives the same order; the cut is speed only.
  if (length > INSERTION_SORT_LIMIT) return keys.sort();
  for (let index = 1; index < length; index++) {
    const key = keys[index] as string;
    let position = index - 1;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: keys[-1] is undefined, which compares false; equal strings are interchangeable.
    while (position >= 0 && (keys[position] as string) > key) {
      keys[position + 1] = keys[position] as string;
      position--;
    }
    keys[position + 1] = key;
  }
  return keys;
}
