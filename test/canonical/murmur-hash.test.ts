import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { createMurmurHash, type MurmurHash, PUBLIC_SEEDS, hashText } from '../../src/canonical/murmur-hash.js';
import { createWasmMurmurBlocks } from '../../src/canonical/wasm-murmur-blocks.js';
import { isWellFormed } from '../../src/canonical/well-formed.js';
import { hashString } from '../../src/canonical/stable-hash.js';
import { murmurMulticollision } from '../support/murmur-multicollision.js';
import { type Lanes, referenceHex, referenceMurmur3, utf16le, utf8 } from '../support/reference-murmur.js';

describe('the reference implementation used by these tests', () => {
  it("passes SMHasher's verification value for MurmurHash3_x86_128 (0xB3ECE62A)", () => {
    const key = new Uint8Array(256);
    const hashes = new Uint8Array(16 * 256);
    for (let length = 0; length < 256; length++) {
      key[length] = length;
      const lanes = referenceMurmur3(key.subarray(0, length), 256 - length);
      lanes.forEach((lane, laneIndex) => {
        for (let byte = 0; byte < 4; byte++) hashes[length * 16 + laneIndex * 4 + byte] = (lane >>> (byte * 8)) & 0xff;
      });
    }
    expect(referenceMurmur3(hashes, 0)[0] >>> 0).toBe(0xb3ece62a);
  });

  it('gives all zeros for empty input with seed 0', () => {
    expect(referenceMurmur3(new Uint8Array(0), 0)).toEqual([0, 0, 0, 0]);
  });
});

const wasmBlocks = createWasmMurmurBlocks();
if (wasmBlocks === undefined) throw new Error('these tests expect a host with WebAssembly');
const HASHES: readonly (readonly [string, MurmurHash])[] = [
  ['in WebAssembly', createMurmurHash(wasmBlocks)],
  ['in JavaScript', createMurmurHash(undefined)],
];

describe.each(HASHES)('createMurmurHash with the block loop %s', (_, hash) => {
  const lanes: Lanes = [0x01234567, -0x76543211, 0x7fffffff, 0];
  const shift = 0x9747b28c ^ 0x4f1bbcdc;

  it('starts each lane of MurmurHash3 x86_128 at its own seed', () => {
    const texts = ['', 'a', 'The quick brown fox jumps over the lazy dog', 'é€\u{1F600}'.repeat(50), 'x'.repeat(70_000), '€'.repeat(30_000)];
    for (const text of texts) expect(hash(text, lanes)).toBe(referenceHex(referenceMurmur3(utf8(text), lanes)));
  });

  it('gives the reference hash for every length to 80, so every tail and block count', () => {
    for (let length = 0; length <= 80; length++) {
      const text = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(3).slice(0, length);
      expect(hash(text, PUBLIC_SEEDS)).toBe(referenceHex(referenceMurmur3(utf8(text), PUBLIC_SEEDS)));
    }
  });

  it('moves every lane by the same difference for text with a lone surrogate', () => {
    for (const text of ['lone \ud800 here', `\udc00${'y'.repeat(40_000)}`]) {
      const moved: Lanes = [lanes[0] ^ shift, lanes[1] ^ shift, lanes[2] ^ shift, lanes[3] ^ shift];
      expect(hash(text, lanes)).toBe(referenceHex(referenceMurmur3(utf16le(text), moved)));
    }
  });

  it('agrees with the reference on any string, any seeds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.tuple(fc.integer(), fc.integer(), fc.integer(), fc.integer()), (text, seeds) => {
        const wellFormed = isWellFormed(text);
        const moved: Lanes = wellFormed ? seeds : [seeds[0] ^ shift, seeds[1] ^ shift, seeds[2] ^ shift, seeds[3] ^ shift];
        expect(hash(text, seeds)).toBe(referenceHex(referenceMurmur3(wellFormed ? utf8(text) : utf16le(text), moved)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('hashText', () => {
  const lanes: Lanes = [0x01234567, -0x76543211, 0x7fffffff, 0];

  it('falls back to JavaScript in a process without WebAssembly (node --jitless), with the same hash', () => {
    const program = `import('./src/canonical/murmur-hash.ts').then((module) => console.log(module.hashText('x'.repeat(100), [1, 2, 3, 4])))`;
    const result = spawnSync(process.execPath, ['--jitless', '--import', 'tsx', '--input-type=module', '-e', program], { encoding: 'utf8' });
    expect(result.stdout.trim()).toBe(hashText('x'.repeat(100), [1, 2, 3, 4]));
  });

  it('gives what both block loops give', () => {
    const script = createMurmurHash(undefined);
    for (const text of ['', 'agent', 'x'.repeat(70_000), '\ud800z']) expect(hashText(text, lanes)).toBe(script(text, lanes));
  });

  it('is hashString with the public seeds, and differs with other seeds', () => {
    expect(PUBLIC_SEEDS).toEqual([0x9747b28c, 0x9747b28c, 0x9747b28c, 0x9747b28c]);
    expect(hashText('agent', PUBLIC_SEEDS)).toBe(hashString('agent'));
    expect(hashText('agent', lanes)).not.toBe(hashString('agent'));
    expect(hashText('agent', [1, 2, 3, 4])).not.toBe(hashText('agent', [1, 2, 3, 5]));
  });
});

describe('hashText under secret seeds', () => {
  it('is not a keyed hash: strings built without the seeds collide under all of them (why the guard keys SipHash)', () => {
    const strings = murmurMulticollision(300, 3);
    expect(new Set(strings).size).toBe(8);
    for (const seeds of [PUBLIC_SEEDS, [1, 2, 3, 4], [-0x80000000, 0x7fffffff, 0, 0x2545f491]] as const) {
      expect(new Set(strings.map((text) => hashText(text, seeds))).size).toBe(1);
    }
  });
});
