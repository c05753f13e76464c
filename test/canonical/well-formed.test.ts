import { describe, expect, it, vi } from 'vitest';
import { isWellFormed, isWellFormedByPattern } from '../../src/canonical/well-formed.js';

const cases: readonly (readonly [string, boolean])[] = [
  ['', true],
  ['plain', true],
  ['é日本', true],
  ['\u{1F600}', true],
  ['a\u{1F600}b\u{1F680}', true],
  ['\ud800', false],
  ['\udc00', false],
  ['x\ud83d', false],
  ['\ude00x', false],
  ['\udc00\ud800', false],
  ['\ud83d\ud83d\ude00', false],
  ['\ud800a', false],
  ['a\udc00', false],
  ['\ud800\udc00\udc00', false],
  ['\ud800\udc00\ud800\udc00', true],
];

describe('isWellFormed', () => {
  it.each(cases)('%j is well formed: %s', (text, expected) => {
    expect(isWellFormed(text)).toBe(expected);
    expect(isWellFormedByPattern(text)).toBe(expected);
  });
});

describe('isWellFormed on an engine without String.prototype.isWellFormed', () => {
  it('falls back to the pattern', async () => {
    const original = Object.getOwnPropertyDescriptor(String.prototype, 'isWellFormed');
    if (original === undefined) throw new Error('this engine has no isWellFormed to take away');
    Reflect.deleteProperty(String.prototype, 'isWellFormed');
    try {
      vi.resetModules();
      const fresh = await import('../../src/canonical/well-formed.js');
      expect(fresh.isWellFormed).toBe(fresh.isWellFormedByPattern);
      expect(fresh.isWellFormed('\ud800')).toBe(false);
    } finally {
      Object.defineProperty(String.prototype, 'isWellFormed', original);
    }
  });
});
