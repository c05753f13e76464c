import { describe, expect, it } from 'vitest';
import { jsonMemberPrefix, jsonQuote } from '../src/json-quote.js';

const samples = [
  ...['', '"', '\\', '\n\t', '\u0000', '\ud800', 'plain', 'say "hi"', 'a\\b', 'tab\t', '\u0000\u001f', '\u2028'],
  ...['\u{1F600}', 'é', 'z'.repeat(5000), 'q'.repeat(4999)],
];

describe('jsonQuote', () => {
  it('matches JSON.stringify on every kind of string, short and long', () => {
    for (const sample of samples) expect(jsonQuote(sample)).toBe(JSON.stringify(sample));
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
