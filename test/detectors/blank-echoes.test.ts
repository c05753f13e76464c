import { describe, expect, it } from 'vitest';
import { blankEchoes, echoedWords } from '../../src/detectors/blank-echoes.js';

describe('echoedWords', () => {
  it.each([
    ['{"pattern":"foo"}', ['foo']],
    ['{"command":"DISCUSSION\\nLet me try"}', ['DISCUSSION', 'Let', 'me', 'try']],
    ['{"a":"x\\\\nabc"}', ['x', 'nabc']],
    ['{"path":"src/f5.ts","q":"a:b"}', ['src', 'f5', 'ts', 'a', 'b']],
    ['{"say \\"hi\\"":"there"}', ['there']],
    ['{"id":5,"deep":{"name":"x_y"}}', ['5', 'x_y']],
    ['"plain string"', ['plain', 'string']],
    ['{}', []],
  ])('%s', (preview, words) => {
    expect([...echoedWords(preview)]).toEqual(words);
  });
});

describe('blankEchoes', () => {
  it('blanks the words of the arguments, not the words around them', () => {
    expect(blankEchoes('javac: command not found', echoedWords('{"command":"javac Main.java"}'))).toBe('0: command not found');
    expect(blankEchoes('No matches found for foo in /repo', echoedWords('{"pattern":"foo"}'))).toBe('No matches found for 0 in /repo');
  });

  it('matches whole words only, case and all', () => {
    expect(blankEchoes('foobar Foo foo_x foo', echoedWords('{"q":"foo"}'))).toBe('foobar Foo foo_x 0');
  });

  it('leaves runs holding a digit alone: blanks already, or parts of a token for a long text', () => {
    expect(blankEchoes('#s302:abc 0 x', new Set(['s302', 'abc', '0']))).toBe('#s302:0 0 x');
  });

  it('leaves a shape as it is when the arguments hold no words', () => {
    const shape = 'No matches found';
    expect(blankEchoes(shape, echoedWords('{}'))).toBe(shape);
  });
});
