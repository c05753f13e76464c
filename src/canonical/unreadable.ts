/** The key under which every copy of this library in a process (its ESM and CJS builds, bundled copies) finds one counter. */
export const UNREADABLE_COUNTER_KEY: unique symbol = Symbol.for('agent-loopguard.unreadable') as never;

/** The process-wide count behind `[Unreadable:<n>]` placeholders. */
export interface UnreadableCounter {
  /** The last number handed out. */
  count: number;
}

let counter: UnreadableCounter | undefined;
// The highest number this copy has handed out, so a counter tampered with elsewhere can never make it repeat one.
let highest = 0;

/**
 * The counter registered on a global object, registering a new one there when there is none. A global that cannot
 * take one (frozen, or holding something else under the key) leaves this copy with a counter of its own.
 * @param host - the global object, or a stand-in in tests
 * @returns the counter to use
 */
export function sharedCounter(host: object): UnreadableCounter {
  const existing: unknown = Reflect.get(host, UNREADABLE_COUNTER_KEY);
  if (typeof existing === 'object' && existing !== null && typeof (existing as { count?: unknown }).count === 'number') {
    return existing as UnreadableCounter;
  }
  const created: UnreadableCounter = { count: 0 };
  if (existing === undefined) Reflect.defineProperty(host, UNREADABLE_COUNTER_KEY, { value: created });
  return created;
}

/**
 * The next placeholder for a value that could not be read: `[Unreadable:<n>]`, with `n` counted process-wide (across
 * every copy of this library loaded in the process), so no two placeholders are ever equal.
 * @returns the placeholder
 */
export function unreadablePlaceholder(): string {
  counter ??= sharedCounter(globalThis);
  const shared = counter.count;
  // A count someone else set to something that is not a number we handed out is ignored, never repeated.
  highest = (Number.isSafeInteger(shared) && shared > highest ? shared : highest) + 1;
  counter.count = highest;
  return '[Unreadable:' + String(highest) + ']';
}
