import { describe, expect, it } from 'vitest';
import { formatInputError } from '../../src/cli/input-error.js';

describe('formatInputError', () => {
  it('writes file:line: message, or file: message without a line', () => {
    expect(formatInputError({ file: 'a.jsonl', line: 3, message: 'bad' })).toBe('a.jsonl:3: bad');
    expect(formatInputError({ file: 'a.json', line: null, message: 'bad' })).toBe('a.json: bad');
  });
});
