/**
 * Which built-in an object is, told by the engine's internal slots rather than by `instanceof`, so objects made in
 * another realm (`node:vm`, an iframe, a test environment) are recognised like local ones. A prototype or a tag only
 * suggests a kind; the writer then reads the object through the kind's own intrinsic (`Date.prototype.getTime`, the
 * `Map.prototype.size` getter...), which throws for anything that lacks the slot, so a value posing as a built-in
 * is unreadable rather than mistaken for one.
 */

/** A built-in with a form of its own. Typed arrays and `DataView` are recognised by `ArrayBuffer.isView` instead. */
export type BuiltinKind =
  | 'Date'
  | 'Error'
  | 'Map'
  | 'Set'
  | 'RegExp'
  | 'ArrayBuffer'
  | 'SharedArrayBuffer'
  | 'Number'
  | 'String'
  | 'Boolean'
  | 'BigInt'
  | 'Symbol';

/* eslint-disable @typescript-eslint/unbound-method -- intrinsics captured once and always called with `.call`, so a
   value cannot redirect them by shadowing a method. */
const objectToString = Object.prototype.toString;
const nativeIsError = (Error as { isError?: (value: unknown) => boolean }).isError;
/* eslint-enable @typescript-eslint/unbound-method */

// Browsers without cross-origin isolation have no SharedArrayBuffer: there is then nothing of that kind to recognise.
const sharedArrayBuffer = typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer : undefined;

const KINDS: readonly (readonly [BuiltinKind, { readonly prototype: object } | undefined])[] = [
  ['Date', Date],
  ['Map', Map],
  ['Set', Set],
  ['RegExp', RegExp],
  ['ArrayBuffer', ArrayBuffer],
  ['SharedArrayBuffer', sharedArrayBuffer],
  ['Number', Number],
  ['String', String],
  ['Boolean', Boolean],
  ['BigInt', BigInt],
  ['Symbol', Symbol],
];

// This realm's prototypes: a local built-in whose tag was overwritten is still found by its prototype.
const kindByPrototype = new Map<unknown, BuiltinKind>();
// `Object.prototype.toString` tags: what another realm's built-ins show (their prototypes are not this realm's).
const kindByTag = new Map<string, BuiltinKind>();
for (const [kind, constructor] of KINDS) {
  if (constructor === undefined) continue;
  kindByPrototype.set(constructor.prototype, kind);
  kindByTag.set(`[object ${kind}]`, kind);
}

/**
 * The built-in an object is, or claims to be: by its prototype when that is this realm's prototype of a built-in,
 * otherwise by its `Object.prototype.toString` tag. An `Error` is recognised by `Error.isError` where the engine has
 * it; elsewhere by the tag `[object Error]` that only objects with an error's internal slot get, provided no
 * `Symbol.toStringTag` property speaks for the object instead (an error carrying its own tag is then not recognised).
 * @param value - an object that is neither a plain object nor an array
 * @param prototype - its prototype, already read by the caller
 * @returns the kind, or `undefined` for an ordinary object
 */
export function builtinKind(value: object, prototype: unknown): BuiltinKind | undefined {
  const local = kindByPrototype.get(prototype);
  if (local !== undefined) return local;
  if (nativeIsError?.(value) === true) return 'Error';
  const tag = objectToString.call(value);
  if (tag === '[object Error]') return isErrorByTag(value) ? 'Error' : undefined;
  return kindByTag.get(tag);
}

/**
 * Whether an object tagged `[object Error]` got that tag from an error's internal slot rather than from a
 * `Symbol.toStringTag` property. Only for engines without `Error.isError`.
 * @param value - an object whose `Object.prototype.toString` tag is `[object Error]`
 * @returns `true` when no `Symbol.toStringTag` string stands in for the slot's tag
 */
export function isErrorByTag(value: object): boolean {
  return nativeIsError === undefined && typeof (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] !== 'string';
}
