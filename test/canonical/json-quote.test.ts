import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapesLongStringsInPieces, jsonMemberPrefix, jsonQuote, jsonQuoteInPieces } from '../../src/canonical/json-quote.js';

const samples = [
  ...['', '"', '\\', '\n\t', '\u0000', '\ud800', 'plain', 'say "hi"', 'a\\b', 'tab\t', '\u0000\u001f', '\u2028'],
  ...['\u{1F600}', 'é', 'z'.repeat(5000), 'q'.repeat(4999)],
];

describe('jsonQuote', () => {
  it('matches JSON.stringify on every kind of string, short and long', () => {
    for (const sample of samples) expect(jsonQuote(sample)).toBe(JSON.stringify(sample));
  });

  it('matches JSON.stringify on strings long enough to be escaped in pieces', () => {
    const long = 'quote " tab \t pair \u{1F600} lone \ud800 '.repeat(4000);
    expect(long.length).toBeGreaterThan(98_304);
    expect(jsonQuote(long) === JSON.stringify(long)).toBe(true);
    // A pair straddling the first piece boundary.
    const straddling = 'a'.repeat(65_535) + '\u{1F600}' + 'b'.repeat(40_000);
    expect(jsonQuote(straddling) === JSON.stringify(straddling)).toBe(true);
  });
});

describe('jsonQuoteInPieces', () => {
  it('gives exactly what JSON.stringify gives, whatever the piece length', () => {
    const tricky = ['', 'a', '\u{1F600}', '\u{1F600}\u{1F600}', 'x\ud800', '\ud800\ud800\udc00', '\udc00\ud800', 'a"b\\c\nd'];
    for (const text of tricky) {
      for (const pieceLength of [1, 2, 3, 5, 100]) expect(jsonQuoteInPieces(text, pieceLength)).toBe(JSON.stringify(text));
    }
  });

  it('gives exactly what JSON.stringify gives on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.integer({ min: 1, max: 8 }), (text, pieceLength) => {
        expect(jsonQuoteInPieces(text, pieceLength)).toBe(JSON.stringify(text));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('escapesLongStringsInPieces', () => {
  it('splits on V8 12 and later, and on engines that do not say', () => {
    expect(escapesLongStringsInPieces({ process: { versions: { v8: '11.3.244.8-node.30' } } })).toBe(false);
    expect(escapesLongStringsInPieces({ process: { versions: { v8: '12.4.254.21-node.33' } } })).toBe(true);
    expect(escapesLongStringsInPieces({ process: { versions: { v8: '13.6.233.10-node.25' } } })).toBe(true);
    expect(escapesLongStringsInPieces({ process: { versions: {} } })).toBe(true);
    expect(escapesLongStringsInPieces({})).toBe(true);
  });
});

describe('jsonMemberPrefix', () => {
  it('is the quoted key and a colon, from the cache or not', () => {
    for (const sample of [...samples, 'k'.repeat(65)]) {
      expect(jsonMemberPrefix(sample)).toBe(`${JSON.stringify(sample)}:`);
      expect(jsonMemberPrefix(sample)).toBe(`${JSON.stringify(sample)}:`);
    }
  });

  it('stays right after the cache fills up and starts over', () => {
    for (let index = 0; index < 5000; index++) {
      const key = `key "${String(index)}"`;
      expect(jsonMemberPrefix(key)).toBe(`${JSON.stringify(key)}:`);
    }
    expect(jsonMemberPrefix('key "7"')).toBe('"key \\"7\\"":');
  });
});

describe('escapesLongStringsInPieces', () => {
  it('assumes a current engine when the host has a process without versions', () => {
    expect(escapesLongStringsInPieces({ process: {} })).toBe(true);
  });
});
