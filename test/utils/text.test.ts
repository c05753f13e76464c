import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NAME_LENGTH, normalizeText, preview, PREVIEW_LENGTH, PRINTABLE_LENGTH, printable, toolList } from '../../src/utils/text.js';

/** Whether a string holds no lone surrogate half. */
function wellFormed(text: string): boolean {
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

describe('normalizeText', () => {
  it('lower-cases, collapses runs of whitespace of every kind to one space, and trims', () => {
    expect(normalizeText('  Hello\n\t WORLD \u00a0')).toBe('hello world');
    expect(normalizeText('a\u2003\u2028b')).toBe('a b');
    expect(normalizeText(' \n ')).toBe('');
    expect(normalizeText('')).toBe('');
  });

  it('normalises 1 MB of whitespace in linear time, as one space', () => {
    const whitespace = ' \t\n\r\u00a0\u2003'.repeat((1024 * 1024) / 6);
    expect(normalizeText(`Same${whitespace}TEXT`)).toBe('same text');
    expect(normalizeText(whitespace)).toBe('');
  });

  it('normalises text built to make a backtracking expression go quadratic', () => {
    const half = 512 * 1024;
    // Whitespace runs that never end in a match a naive trim or collapse expression would retry from each position.
    expect(normalizeText(`a${' '.repeat(half)}\u0000`)).toBe('a \u0000');
    expect(normalizeText(' a'.repeat(half))).toBe(`a${' a'.repeat(half - 1)}`);
    expect(normalizeText(`${' \t'.repeat(half)}x`)).toBe('x');
  });
});

describe('preview', () => {
  it(`keeps text of exactly ${String(PREVIEW_LENGTH)} characters whole, and shortens one character more with an ellipsis`, () => {
    const exact = 'x'.repeat(PREVIEW_LENGTH);
    expect(preview(exact)).toBe(exact);
    const longer = `${exact}y`;
    expect(preview(longer)).toBe(`${'x'.repeat(PREVIEW_LENGTH - 1)}…`);
    expect(preview(longer)).toHaveLength(PREVIEW_LENGTH);
  });

  it('takes another length, such as the one for tool names', () => {
    expect(preview('abcdef', 4)).toBe('abc…');
    expect(preview('abcd', 4)).toBe('abcd');
    expect(preview('n'.repeat(NAME_LENGTH + 1), NAME_LENGTH)).toBe(`${'n'.repeat(NAME_LENGTH - 1)}…`);
  });

  it('never cuts between the two halves of a surrogate pair, so previews stay well-formed', () => {
    // The pair would straddle the cut: characters 118 and 119.
    const text = `${'x'.repeat(PREVIEW_LENGTH - 2)}😀${'y'.repeat(10)}`;
    expect(preview(text)).toBe(`${'x'.repeat(PREVIEW_LENGTH - 2)}…`);
    const before = `${'x'.repeat(PREVIEW_LENGTH - 3)}😀${'y'.repeat(10)}`;
    expect(preview(before)).toBe(`${'x'.repeat(PREVIEW_LENGTH - 3)}😀…`);
    // A low half alone before the cut is kept: only a high half waits for its partner.
    expect(preview(`${'x'.repeat(PREVIEW_LENGTH - 2)}\udc00yy`)).toBe(`${'x'.repeat(PREVIEW_LENGTH - 2)}\udc00…`);
  });

  it('reads every high half as one, from \\ud800 to \\udbff, and the characters either side as whole', () => {
    const cut = (character: string): string => preview(`abc${character}\udc00def`, 5);
    expect(cut('\ud800')).toBe('abc…');
    expect(cut('\udbff')).toBe('abc…');
    expect(cut('\ud7ff')).toBe('abc\ud7ff…');
    expect(cut('\udc00')).toBe('abc\udc00…');
  });
});

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
    ['the line and paragraph separators', 'a\u2028b\u2029', 'a\\u2028b\\u2029'],
    ['a right-to-left override', 'abc\u202edef', 'abc\\u202edef'],
    ['an isolate and a direction mark', '\u2066x\u200f\u061c', '\\u2066x\\u200f\\u061c'],
    ['a lone high surrogate', 'x\ud800y', 'x\\ud800y'],
    ['a lone low surrogate', 'x\udc00', 'x\\udc00'],
  ])('escapes %s', (_label, text, escaped) => {
    expect(printable(text)).toBe(escaped);
  });

  it('never leaves a character that starts a new line or moves the cursor, and never a lone surrogate', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        const shown = printable(text);
        // eslint-disable-next-line no-control-regex
        expect(shown).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
        expect(wellFormed(shown)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('escapes text up to its length limit whole, and shortens a longer one first, as a preview', () => {
    const whole = `${'x'.repeat(PRINTABLE_LENGTH - 1)}\n`;
    expect(printable(whole)).toBe(`${'x'.repeat(PRINTABLE_LENGTH - 1)}\\n`);
    // One character more: shortened to its first 2^20 - 1 characters and an ellipsis, so the newline is cut off.
    expect(printable(`${whole}b`)).toBe(`${'x'.repeat(PRINTABLE_LENGTH - 1)}…`);
    expect(printable(`\n${'x'.repeat(PRINTABLE_LENGTH)}`)).toBe(`\\n${'x'.repeat(PRINTABLE_LENGTH - 2)}…`);
  });
});

describe('toolList', () => {
  it('names up to three distinct tools, and says "and others" only past three', () => {
    expect(toolList(['read', 'read'])).toBe('read');
    expect(toolList(['read', 'write', 'list'])).toBe('read, write, list');
    expect(toolList(['read', 'write', 'list', 'read'])).toBe('read, write, list');
    expect(toolList(['read', 'write', 'list', 'grep'])).toBe('read, write, list and others');
  });

  it('counts names that read as "a tool" once', () => {
    expect(toolList(['read', 'rm -rf /', 'write', 'drop table'])).toBe('read, a tool, write');
  });
});
