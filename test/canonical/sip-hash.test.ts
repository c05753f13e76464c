import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bestSipMixer, createSipHash, SIPHASH_1_3, SIPHASH_2_4, type SipHash, type SipKey, sipHash } from '../../src/canonical/sip-hash.js';
import { createScriptSipMixer } from '../../src/canonical/sip-mixer.js';
import { createWasmSipMixer } from '../../src/canonical/wasm-sip-mixer.js';
import { hexOf, messageOf, referenceSipHash } from '../support/sip-hash-reference.js';
import { SIPHASH_1_3_128_EMPTY, SIPHASH_1_3_64, SIPHASH_2_4_128, SIPHASH_2_4_64 } from '../support/sip-hash-vectors.js';

const KEY_BYTES = Uint8Array.from({ length: 16 }, (_, index) => index);
/** The key 00 01 ... 0f as little-endian words. */
const KEY: SipKey = [0x03020100, 0x07060504, 0x0b0a0908, 0x0f0e0d0c];
const messageOfLength = (length: number): Uint8Array => Uint8Array.from({ length }, (_, index) => index);
/** The string whose UTF-8 bytes are 00 01 ... length-1 (all below 0x80). */
const textOfLength = (length: number): string => String.fromCharCode(...messageOfLength(length));
const littleEndian64 = (bytes: Uint8Array): string => hexOf(bytes.slice().reverse());
const LENGTHS = Array.from({ length: 64 }, (_, length) => length);

describe('the reference implementation used by these tests', () => {
  it('gives the published SipHash-2-4 vectors, 64-bit and 128-bit', () => {
    for (const length of LENGTHS) {
      expect(littleEndian64(referenceSipHash(messageOfLength(length), KEY_BYTES, 2, 4, 8))).toBe(SIPHASH_2_4_64[length]);
      expect(hexOf(referenceSipHash(messageOfLength(length), KEY_BYTES, 2, 4, 16))).toBe(SIPHASH_2_4_128[length]);
    }
  });

  it('gives the published SipHash-1-3 vectors, 64-bit, and the 128-bit one of the empty message', () => {
    for (const length of LENGTHS) expect(littleEndian64(referenceSipHash(messageOfLength(length), KEY_BYTES, 1, 3, 8))).toBe(SIPHASH_1_3_64[length]);
    expect(hexOf(referenceSipHash(new Uint8Array(0), KEY_BYTES, 1, 3, 16))).toBe(SIPHASH_1_3_128_EMPTY);
  });
});

const wasmMixer = createWasmSipMixer();
if (wasmMixer === undefined) throw new Error('these tests expect a host with WebAssembly');
const HASHES: readonly (readonly [string, SipHash])[] = [
  ['in WebAssembly', createSipHash(wasmMixer)],
  ['in JavaScript', createSipHash(createScriptSipMixer())],
];

describe.each(HASHES)('createSipHash with the mixer %s', (_, sipHash) => {
  it("gives the first 14 bytes of the reference implementation's SipHash-2-4-128 vectors", () => {
    for (const length of LENGTHS) expect(sipHash(textOfLength(length), KEY, SIPHASH_2_4)).toBe(SIPHASH_2_4_128[length]?.slice(0, 28));
  });

  it('is SipHash-1-3-128 by default, as published for the empty message and as the reference gives for every length to 63', () => {
    expect(sipHash('', KEY)).toBe(SIPHASH_1_3_128_EMPTY.slice(0, 28));
    for (const length of LENGTHS) {
      expect(sipHash(textOfLength(length), KEY, SIPHASH_1_3)).toBe(hexOf(referenceSipHash(messageOfLength(length), KEY_BYTES, 1, 3, 16)).slice(0, 28));
    }
  });

  it('hashes a well-formed string over its UTF-8 bytes and one with a lone surrogate over 0xff and its UTF-16LE code units', () => {
    const key: SipKey = [0x01234567, -0x76543211, 0x7fffffff, 0];
    const keyBytes = new Uint8Array(new Uint32Array(key.map((word) => word >>> 0)).buffer);
    const expected = (text: string, rounds: [number, number]): string => hexOf(referenceSipHash(messageOf(text), keyBytes, ...rounds, 16)).slice(0, 28);
    const texts = ['a', 'é€\u{1F600}'.repeat(50), '\ud800', 'a\udc00b', '\udbff\ud800'.repeat(3), 'x'.repeat(70_000), '€'.repeat(30_000), `\ud800${'y'.repeat(40_000)}`];
    for (const text of texts) {
      expect(sipHash(text, key)).toBe(expected(text, [1, 3]));
      expect(sipHash(text, key, SIPHASH_2_4)).toBe(expected(text, [2, 4]));
    }
  });

  it('agrees with the reference on any string, any key', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.tuple(fc.integer(), fc.integer(), fc.integer(), fc.integer()), (text, key) => {
        const keyBytes = new Uint8Array(new Uint32Array(key.map((word) => word >>> 0)).buffer);
        expect(sipHash(text, key)).toBe(hexOf(referenceSipHash(messageOf(text), keyBytes, 1, 3, 16)).slice(0, 28));
      }),
      { numRuns: 300 },
    );
  });

  it('never hashes a string with a lone surrogate like one without, though their bytes may coincide', () => {
    // The UTF-16LE code units of "\udc41\u0080" (41 dc 80 00) are the UTF-8 bytes of "A\u0700\u0000"; 0xff first, a
    // byte UTF-8 never holds, keeps the two apart.
    const lone = '\udc41\u0080';
    const wellFormed = 'A\u0700\u0000';
    expect(hexOf(new TextEncoder().encode(wellFormed))).toBe('41dc8000');
    expect(hexOf(messageOf(lone))).toBe('ff41dc8000');
    expect(sipHash(lone, KEY)).not.toBe(sipHash(wellFormed, KEY));
    expect(sipHash(lone, KEY)).toBe(hexOf(referenceSipHash(Uint8Array.of(0xff, 0x41, 0xdc, 0x80, 0x00), KEY_BYTES, 1, 3, 16)).slice(0, 28));
  });

  it('depends on every word of the key', () => {
    const hashes = new Set([KEY, [KEY[0] ^ 1, KEY[1], KEY[2], KEY[3]], [KEY[0], KEY[1] ^ 1, KEY[2], KEY[3]], [KEY[0], KEY[1], KEY[2] ^ 1, KEY[3]], [KEY[0], KEY[1], KEY[2], KEY[3] ^ 1]].map((key) => sipHash('text', key as unknown as SipKey)));
    expect(hashes.size).toBe(5);
  });
});

describe('sipHash', () => {
  it('runs in WebAssembly where the host has it, and gives what both mixers give', () => {
    expect(bestSipMixer().kind).toBe('wasm');
    const script = createSipHash(createScriptSipMixer());
    for (const text of ['', 'a', 'x'.repeat(70_000), '\ud800z']) expect(sipHash(text, KEY)).toBe(script(text, KEY));
    expect(sipHash('text', KEY, SIPHASH_2_4)).toBe(script('text', KEY, SIPHASH_2_4));
  });

  it('picks the mixer in JavaScript on a host without WebAssembly', () => {
    expect(bestSipMixer({}).kind).toBe('script');
  });

  it('falls back to JavaScript in a process without WebAssembly (node --jitless)', () => {
    const program = `import('./src/canonical/sip-hash.ts').then((module) => console.log(module.bestSipMixer().kind, module.sipHash('abc', [1, 2, 3, 4])))`;
    const result = spawnSync(process.execPath, ['--jitless', '--import', 'tsx', '--input-type=module', '-e', program], { encoding: 'utf8' });
    expect(result.stdout.trim()).toBe(`script ${sipHash('abc', [1, 2, 3, 4])}`);
  });

  it('keeps the state of the two mixers apart: hashes interleaved give what each gives alone', () => {
    const script = createSipHash(createScriptSipMixer());
    const alone = [sipHash('first', KEY), script('second', KEY)];
    expect([sipHash('first', KEY), script('second', KEY)]).toEqual(alone);
  });
});
