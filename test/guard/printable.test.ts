import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWellFormed } from '../../src/canonical/well-formed.js';
import { printable } from '../../src/guard/printable.js';

describe('printable', () => {
  it('leaves ordinary text, quotes and paired surrogates as they are', () => {
    for (const text of ['', 'search("x")', 'naïve café – 日本語 😀', 'tab-free \\ backslash']) expect(printable(text)).toBe(text);
  });

  it.each([
    ['a newline', 'a\nb', 'a\\nb'],
    ['a carriage return', 'a\rb', 'a\\rb'],
    ['a tab', 'a\tb', 'a\\tb'],
    ['an ANSI colour sequence', '\u001b[31mred', '\\u001b[31mred'],
    ['a NUL', 'a\u0000', 'a\\u0000'],
    ['DEL and a C1 control', '\u007f\u0085', '\\u007f\\u0085'],
    ['the line separator', 'a\u2028b', 'a\\u2028b'],
    ['a right-to-left override', 'abc\u202edef', 'abc\\u202edef'],
    ['a lone high surrogate', 'x\ud800y', 'x\\ud800y'],
    ['a lone low surrogate', 'x\udc00', 'x\\udc00'],
  ])('escapes %s', (_label, text, escaped) => {
    expect(printable(text)).toBe(escaped);
  });

  it('never leaves a character that starts a new line or moves the cursor', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        // eslint-disable-next-line no-control-regex
        expect(printable(text)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
        expect(isWellFormed(printable(text))).toBe(true);
      }),
    );
  });
});
