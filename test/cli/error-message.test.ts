import { describe, expect, it } from 'vitest';
import { errorMessage } from '../../src/cli/error-message.js';

describe('errorMessage', () => {
  it('reads the message of an Error and writes anything else as text', () => {
    expect(errorMessage(new TypeError('bad'))).toBe('bad');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage(42)).toBe('42');
  });
});
