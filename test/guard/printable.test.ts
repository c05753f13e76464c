import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWellFormed } from '../../src/canonical/well-formed.js';
import { preview } from '../../src/guard/normalize-text.js';
import { PRINTABLE_LENGTH, printable } from '../../src/guard/printable.js';
import { createGuard } from '../../src/index.js';

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

describe('printable on huge text', () => {
  it('escapes text up to its length limit whole, and shortens a longer one first, as a preview', () => {
    const whole = 'a\n'.repeat(PRINTABLE_LENGTH / 2);
    expect(printable(whole)).toBe('a\\n'.repeat(PRINTABLE_LENGTH / 2));
    const longer = `${whole}b`;
    expect(printable(longer)).toBe(`${'a\\n'.repeat(PRINTABLE_LENGTH / 2 - 1)}a…`);
    expect(printable('x'.repeat(PRINTABLE_LENGTH + 1))).toBe(preview('x'.repeat(PRINTABLE_LENGTH + 1), PRINTABLE_LENGTH));
  });

  // The red-team size: escaping 100,000,000 control characters at once killed the process with a fatal V8 error
  // ("invalid size"), which no catch sees. A custom rule that quotes the step's text in its detail got there. Seconds on
  // a busy machine, so twice the 60 s every test gets.
  it('keeps the process alive on a detail of 100 MB of control characters', { timeout: 120_000 }, () => {
    const giant = '\u0001'.repeat(100_000_000);
    const guard = createGuard({ custom: (_history, step) => ({ stop: true, detail: `saw ${String(step.text)}` }) });
    const verdict = guard.check({ text: giant });
    expect(verdict.stop && verdict.detail).toBe(`saw ${'\\u0001'.repeat(PRINTABLE_LENGTH - 5)}…`);
  });
});
