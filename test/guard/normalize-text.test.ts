import { describe, expect, it } from 'vitest';
import { createGuard } from '../../src/index.js';
import { normalizeText, preview, PREVIEW_LENGTH } from '../../src/guard/normalize-text.js';

describe('preview', () => {
  it('keeps text of exactly the preview length whole, and shortens one character more', () => {
    const exact = 'x'.repeat(PREVIEW_LENGTH);
    expect(preview(exact)).toBe(exact);
    const longer = `${exact}y`;
    expect(preview(longer)).toBe(`${'x'.repeat(PREVIEW_LENGTH - 1)}…`);
    expect(preview(longer)).toHaveLength(PREVIEW_LENGTH);
  });
});

describe('preview and surrogate pairs', () => {
  it('never cuts between the two halves of a pair, so previews stay well-formed', () => {
    // The pair would straddle the cut: characters 118 and 119.
    const text = `${'x'.repeat(PREVIEW_LENGTH - 2)}😀${'y'.repeat(10)}`;
    expect(preview(text)).toBe(`${'x'.repeat(PREVIEW_LENGTH - 2)}…`);
    const before = `${'x'.repeat(PREVIEW_LENGTH - 3)}😀${'y'.repeat(10)}`;
    expect(preview(before)).toBe(`${'x'.repeat(PREVIEW_LENGTH - 3)}😀…`);
  });
});

describe('normalizeText: linear on huge inputs', { timeout: 60_000 }, () => {
  it('normalises 1 MB of whitespace in step text in linear time and compares it as one space', () => {
    const megabyte = 1024 * 1024;
    const whitespace = ' \t\n\r\u00a0\u2003'.repeat(megabyte / 6);
    expect(normalizeText(`Same${whitespace}TEXT`)).toBe('same text');
    expect(normalizeText(whitespace)).toBe('');
    const guard = createGuard({ maxSteps: false, noProgress: { threshold: 2, warnBefore: false }, finishReason: false });
    expect(guard.check({ text: `Same${whitespace}text` })).toEqual({ stop: false });
    expect(guard.check({ text: ' same text ' })).toMatchObject({ stop: true, reason: 'no-progress', evidence: { textPreview: 'same text' } });
  });

  it('normalises text built to make a backtracking expression go quadratic', () => {
    const half = 512 * 1024;
    // Whitespace runs that never end in a match a naive trim or collapse expression would retry from each position.
    expect(normalizeText(`a${' '.repeat(half)}\u0000`)).toBe('a \u0000');
    expect(normalizeText(' a'.repeat(half))).toBe(`a${' a'.repeat(half - 1)}`);
    expect(normalizeText(`${' \t'.repeat(half)}x`)).toBe('x');
  });
});
