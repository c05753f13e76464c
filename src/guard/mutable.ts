/** `T` with its properties writable, for building a readonly value field by field before handing it out. */
export type Mutable<T> = { -readonly [Key in keyof T]: T[Key] };
