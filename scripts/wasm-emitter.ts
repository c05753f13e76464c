// A small emitter of the WebAssembly binary format (core specification, chapter 5), enough for the hash mixers whose
// bytes src/canonical holds: each module's source in scripts/ writes its functions out instruction by instruction.
export type Bytes = readonly number[];

/** Unsigned LEB128. */
export function unsigned(value: number): Bytes {
  const out: number[] = [];
  let rest = value;
  do {
    const low = rest & 0x7f;
    rest >>>= 7;
    out.push(rest === 0 ? low : low | 0x80);
  } while (rest !== 0);
  return out;
}

/** Signed LEB128 of a 64-bit value. */
export function signed(value: bigint): Bytes {
  const out: number[] = [];
  let rest = BigInt.asIntN(64, value);
  for (;;) {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    const done = (rest === 0n && (low & 0x40) === 0) || (rest === -1n && (low & 0x40) !== 0);
    out.push(done ? low : low | 0x80);
    if (done) return out;
  }
}

export const vector = (items: readonly Bytes[]): Bytes => [...unsigned(items.length), ...items.flat()];
export const section = (id: number, body: Bytes): Bytes => [id, ...unsigned(body.length), ...body];
export const name = (text: string): Bytes => [...unsigned(text.length), ...Array.from(text, (character) => character.charCodeAt(0))];

export const I32 = 0x7f;
export const I64 = 0x7e;
export const FUNCTION_TYPE = 0x60;
export const EMPTY_BLOCK = 0x40;

// Instructions (WebAssembly core specification, section 5.4).
export const localGet = (index: number): Bytes => [0x20, ...unsigned(index)];
export const localSet = (index: number): Bytes => [0x21, ...unsigned(index)];
export const localTee = (index: number): Bytes => [0x22, ...unsigned(index)];
export const globalGet = (index: number): Bytes => [0x23, ...unsigned(index)];
export const globalSet = (index: number): Bytes => [0x24, ...unsigned(index)];
export const i32Const = (value: number): Bytes => [0x41, ...signed(BigInt(value | 0))];
export const i64Const = (value: bigint): Bytes => [0x42, ...signed(value)];
export const call = (index: number): Bytes => [0x10, ...unsigned(index)];
export const branch = (depth: number): Bytes => [0x0c, depth];
export const branchIf = (depth: number): Bytes => [0x0d, depth];
export const block: Bytes = [0x02, EMPTY_BLOCK];
export const loop: Bytes = [0x03, EMPTY_BLOCK];
export const end: Bytes = [0x0b];
/** Natural alignment (2^3 bytes), offset 0. */
export const i64Load: Bytes = [0x29, 3, 0];
export const i64Store: Bytes = [0x37, 3, 0];
export const i32Add: Bytes = [0x6a];
export const i32Sub: Bytes = [0x6b];
export const i32Eqz: Bytes = [0x45];
export const i32GeU: Bytes = [0x4f];
export const i64Add: Bytes = [0x7c];
export const i64Or: Bytes = [0x84];
export const i64Xor: Bytes = [0x85];
export const i64Shl: Bytes = [0x86];
export const i64Rotl: Bytes = [0x89];
export const i64ExtendI32U: Bytes = [0xad];
export const i32Mul: Bytes = [0x6c];
export const i32Xor: Bytes = [0x73];
export const i32Rotl: Bytes = [0x77];
/** A 32-bit load, naturally aligned, at `offset` past the address on the stack. */
export const i32Load = (offset: number): Bytes => [0x28, 2, ...unsigned(offset)];
export const i32Store = (offset: number): Bytes => [0x36, 2, ...unsigned(offset)];

/** A function of a module: all its parameters are i32, it returns nothing. */
export interface FunctionSpec {
  readonly parameters: number;
  /** Runs of locals after the parameters, as [count, type]. */
  readonly locals: readonly (readonly [count: number, type: number])[];
  /** Its instructions, the final `end` included. */
  readonly body: Bytes;
  /** The name it is exported under, if it is. */
  readonly exportAs?: string;
}

/** A module: one memory exported as `memory`, mutable globals initialised to zero, and functions. */
export interface ModuleSpec {
  /** Pages of 64 KiB. */
  readonly pages: number;
  /** The type of each global, `I32` or `I64`. */
  readonly globals: readonly number[];
  readonly functions: readonly FunctionSpec[];
}

/**
 * The bytes of a module.
 * @param spec - what it holds
 * @returns the binary module
 */
export function emitModule(spec: ModuleSpec): Uint8Array {
  // One function type per parameter count, in order of first use.
  const typeCounts = [...new Set(spec.functions.map((entry) => entry.parameters))];
  const functionType = (parameters: number): Bytes => [FUNCTION_TYPE, ...vector(Array.from({ length: parameters }, () => [I32])), 0];
  const zero = (type: number): Bytes => (type === I64 ? i64Const(0n) : i32Const(0));
  const exported = spec.functions.flatMap((entry, index) => (entry.exportAs === undefined ? [] : [[...name(entry.exportAs), 0x00, index]]));
  const bodies = spec.functions.map((entry) => {
    const body = [...vector(entry.locals.map(([count, type]) => [...unsigned(count), type])), ...entry.body];
    return [...unsigned(body.length), ...body];
  });
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector(typeCounts.map(functionType))),
    ...section(3, vector(spec.functions.map((entry) => [typeCounts.indexOf(entry.parameters)]))),
    ...section(5, vector([[0x00, ...unsigned(spec.pages)]])),
    ...section(6, vector(spec.globals.map((type) => [type, 0x01, ...zero(type), ...end]))),
    ...section(7, vector([[...name('memory'), 0x02, 0], ...exported])),
    ...section(10, vector(bodies)),
  ]);
}

/**
 * A module's bytes as hexadecimal digits, two per byte: the form src/canonical holds them in (smaller in the gzipped
 * bundle than a list of numbers or base64).
 * @param bytes - the module
 * @returns the digits
 */
export function moduleHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

/**
 * Prints a module's bytes as the TypeScript constant src/canonical holds.
 * @param bytes - the module
 */
export function printModule(bytes: Uint8Array): void {
  const lines = moduleHex(bytes).match(/.{1,112}/g) ?? [];
  console.log(`const MODULE =\n  ${lines.map((line) => `'${line}'`).join(' +\n  ')};`);
}
