import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerShape, isContentless, SHAPE_INPUT_LIMIT } from '../../src/detectors/answer-shape.js';
import { referenceAnswerShape } from '../support/reference-answer-shape.js';

describe('answerShape', () => {
  it.each([
    ['quoted spans of every kind become ""', `No matches found for "setup.md" in /repo`, 'No matches found for "" in /repo'],
    ['single quotes', "grep: 'x': No such file", 'grep: "": No such file'],
    ['shell-style `…\' quotes', "bash: `foo' not found", 'bash: "" not found'],
    ['backtick pairs', 'use `npm ci` first', 'use "" first'],
    ['a word holding a digit becomes 0', '/bin/bash: line 62215: javac: command not found', '/bin/bash: line 0: javac: command not found'],
    ['ids, hashes and dates', 'commit a1b2c3 at 2024-01-01T10:00', 'commit 0 at 0-0-0:0'],
    ['whitespace runs become one space', 'a   b\t\n  c', 'a b c'],
    ['JSON values', '{"flight_number": "HAT028", "price": 120}', '{"": "", "": 0}'],
    ['words without digits, paths and punctuation stay', 'Error: ENOENT, open /tmp/x.txt!', 'Error: ENOENT, open /tmp/x.txt!'],
  ])('%s', (_label, text, shape) => {
    expect(answerShape(text)).toBe(shape);
  });

  it('leaves a quote that does not close on its line, or spans more than 200 characters, as it is', () => {
    expect(answerShape('it"s\nfine"')).toBe('it"s fine"');
    const long = `"${'a'.repeat(201)}"`;
    expect(answerShape(long)).toBe(long);
    expect(answerShape(`"${'a'.repeat(200)}"`)).toBe('""');
  });

  it('reads only the first and last 4 KB of a longer text', () => {
    const half = SHAPE_INPUT_LIMIT / 2;
    const text = `${'a'.repeat(half)}MIDDLE${'b'.repeat(half)}`;
    expect(answerShape(text)).toBe(`${'a'.repeat(half)}…${'b'.repeat(half)}`);
    expect(answerShape(`${'a'.repeat(half)}OTHER${'b'.repeat(half)}`)).toBe(answerShape(text));
  });

  it('reads a text of exactly 8 KB whole, and one of a character more as its first and last 4 KB', () => {
    const half = SHAPE_INPUT_LIMIT / 2;
    expect(answerShape('x'.repeat(SHAPE_INPUT_LIMIT))).toBe('x'.repeat(SHAPE_INPUT_LIMIT));
    expect(answerShape('x'.repeat(SHAPE_INPUT_LIMIT + 1))).toBe(`${'x'.repeat(half)}…${'x'.repeat(half)}`);
  });

  it('keeps openers whose closer is on another line or too far away, scanning each stretch once', () => {
    const far = `"${'a'.repeat(300)}`;
    expect(answerShape(`${far}"`)).toBe(`${far}"`);
    expect(answerShape(`say "one\ntwo" "three"`)).toBe(`say "one two""three"`);
    const unclosed = `${"`'".repeat(3000)}\n`;
    expect(answerShape(unclosed)).toBe(`${'""'.repeat(3000)} `);
  });

  it('equals for answers that differ only in quoted text, numbers and spacing', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,8}$/), fc.nat(), fc.nat(), (word, left, right) => {
        expect(answerShape(`No "${word}" at line ${String(left)}`)).toBe(answerShape(`No   "other" at line ${String(right)}`));
      }),
    );
  });
});

describe('answerShape against the character-at-a-time reference', () => {
  const hash = 'a1b2c3d4e5f60718293a4b5c6d7e';
  // Pieces that meet at every rule's edges: each quote kind and its closers, line breaks inside and around quotations,
  // whitespace of every kind and length, words with and without digits, tokens and near-tokens (a word right after a
  // token, a hash one digit short), quotations of 199 to 201 characters, non-ASCII and lone surrogates.
  const pieces = fc.constantFrom(
    '"', "'", '`', '\n', '\r', '\t', '\v', '\f', ' ', '  ', '#', 's', 'n', ':', '1', '9', 'a', 'Z', '_', 'x1', '{', '}', ',', '.', '-',
    '…', 'é', '\u00a0', '\u2028', '\ud800', '\udc00', 'word', `#s12:${hash}`, `#n5:${hash}`, `#s1:${hash}x1`, `#s1:${hash.slice(1)}`,
    hash, 'a'.repeat(199), 'b'.repeat(200), 'c'.repeat(201),
  );
  const texts = fc.array(fc.oneof(pieces, fc.string({ maxLength: 4 })), { maxLength: 80 }).map((parts) => parts.join(''));

  it('gives the same shape for texts made of the rules’ edge cases', () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(answerShape(text)).toBe(referenceAnswerShape(text));
      }),
      { numRuns: 5_000 },
    );
  });

  it('gives the same shape for any UTF-16 text, and for texts past the 8 KB read', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        expect(answerShape(text)).toBe(referenceAnswerShape(text));
      }),
      { numRuns: 2_000 },
    );
    fc.assert(
      fc.property(fc.array(texts, { minLength: 150, maxLength: 300 }), (parts) => {
        const text = parts.join('');
        expect(answerShape(text)).toBe(referenceAnswerShape(text));
      }),
      { numRuns: 30 },
    );
  });
});

describe('answerShape and tokens', () => {
  const hash = 'a1b2c3d4e5f60718293a4b5c6d7e';

  it('keeps a long string or bigint token whole, digits and all', () => {
    expect(answerShape(`{"long":#s1025:${hash},"n":12}`)).toBe(`{"":#s1025:${hash},"":0}`);
    expect(answerShape(`[#n70000:${hash}]`)).toBe(`[#n70000:${hash}]`);
  });

  it('tells apart results that differ only in a long string', () => {
    expect(answerShape(`{"page":#s2000:${hash}}`)).not.toBe(answerShape(`{"page":#s2000:${'f'.repeat(28)}}`));
  });

  it('reads anything short of a token as usual', () => {
    expect(answerShape('#s12:abc')).toBe('#0:abc');
    expect(answerShape(`#x12:${hash}`)).toBe('#0:0');
    expect(answerShape(`#s12:${hash.slice(1)}`)).toBe('#0:0');
  });
});

describe('isContentless', () => {
  it.each(['', '   ', '[]', '{}', '0', '42', '<returncode>0</returncode><output></output>', '<out-put></out-put>', '{"": 1}'])(
    'finds no words in %j',
    (text) => {
      expect(isContentless(text)).toBe(true);
    },
  );

  it.each(['ok', 'No matches', '<b>x</b>', '< notatag >', '[1, "a"]', '<1a>'])('finds a word in %j', (text) => {
    expect(isContentless(text)).toBe(false);
  });

  /** The straightforward reading: the first and last 4 KB joined by an ellipsis into one string, then scanned. */
  function referenceContentless(text: string): boolean {
    const half = SHAPE_INPUT_LIMIT / 2;
    const source = text.length <= SHAPE_INPUT_LIMIT ? text : `${text.slice(0, half)}…${text.slice(text.length - half)}`;
    for (let index = 0; index < source.length; index++) {
      if (source[index] === '<') {
        const tag = /^<\/?([A-Za-z0-9_-]{1,64})/.exec(source.slice(index, index + 66));
        const name = tag?.[1];
        if (name !== undefined && /^[A-Za-z]/.test(name) && source[index + (tag?.[0].length ?? 0)] === '>') index += tag?.[0].length ?? 0;
      } else if (/[A-Za-z]/.test(source[index] ?? '')) return false;
    }
    return true;
  }

  it('takes a name of up to 64 characters for a tag, and no longer one', () => {
    expect(isContentless(`<${'a'.repeat(64)}>`)).toBe(true);
    expect(isContentless(`<${'a'.repeat(65)}>`)).toBe(false);
    expect(isContentless(`</${'b'.repeat(64)}>`)).toBe(true);
  });

  it('reads a text of exactly 8 KB whole: a tag across its middle is a tag', () => {
    const half = SHAPE_INPUT_LIMIT / 2;
    const text = `${'.'.repeat(half - 3)}<output>${'.'.repeat(half - 5)}`;
    expect(text).toHaveLength(SHAPE_INPUT_LIMIT);
    expect(isContentless(text)).toBe(true);
    // One character longer, the text is read as two parts, and the tag is cut by the end of the first.
    expect(isContentless(`${text}.`)).toBe(false);
  });

  it('reads a long text where it lies as it would read its first and last 4 KB joined by an ellipsis', () => {
    const half = SHAPE_INPUT_LIMIT / 2;
    // Tags, halves of tags and letters placed across the two places where the read parts end: 4 KB in, and 4 KB
    // before the end.
    const piece = fc.constantFrom('<', '/', '>', '<a>', '</a>', '<b-1>', 'x', '0', ' ', '-', '_', '<out', 'put>', '</', '…');
    const around = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));
    const filler = (length: number): string => '0 '.repeat(length).slice(0, length);
    fc.assert(
      fc.property(around, around, fc.integer({ min: -12, max: 12 }), fc.integer({ min: 0, max: 20 }), fc.integer({ min: -12, max: 12 }), (first, second, shift, middle, tailShift) => {
        const head = filler(half + shift) + first;
        const text = head + filler(middle) + filler(Math.max(0, half - second.length + tailShift)) + second + filler(Math.max(0, -tailShift));
        expect(isContentless(text)).toBe(referenceContentless(text));
      }),
      { numRuns: 2000 },
    );
    // The parts as they lie: a tag cut by the end of the first 4 KB is no tag, and a letter after it is read.
    expect(isContentless(`${filler(half - 3)}<ab>${filler(SHAPE_INPUT_LIMIT)}`)).toBe(false);
    expect(isContentless(`${filler(half - 4)}<ab>${filler(SHAPE_INPUT_LIMIT)}`)).toBe(true);
    expect(isContentless(`${filler(SHAPE_INPUT_LIMIT)}x${filler(half)}`)).toBe(true);
    expect(isContentless(`${filler(SHAPE_INPUT_LIMIT)}x${filler(half - 1)}`)).toBe(false);
  });
});
