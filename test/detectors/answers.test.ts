import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerKind, answerShape, FAILURE_WORDING_SCOPE, failureShape, isContentless, JSON_KEY_SCOPE, readResultFields } from '../../src/detectors/answers.js';
import { canonicalize } from '../../src/index.js';
import { referenceAnswerShape } from '../support/reference-answer-shape.js';

/** Longest text read whole for a shape or for emptiness; a longer one is read as its first and last half of this. */
const SHAPE_INPUT_LIMIT = 8192;
const HALF = SHAPE_INPUT_LIMIT / 2;
/** A hash as tokens for long strings carry it: 28 lowercase hex digits. */
const HASH = 'a1b2c3d4e5f60718293a4b5c6d7e';

/** The shape, as answerShape gives it and as the character-at-a-time reference does. */
function expectShape(text: string, shape: string): void {
  expect(answerShape(text)).toBe(shape);
  expect(referenceAnswerShape(text)).toBe(shape);
}

describe('answerShape', () => {
  it.each([
    ['quoted spans of every kind become ""', `No matches found for "setup.md" in /repo`, 'No matches found for "" in /repo'],
    ['single quotes', "grep: 'x': No such file", 'grep: "": No such file'],
    ['shell-style `…\' quotes', "bash: `foo' not found", 'bash: "" not found'],
    ['backtick pairs', 'use `npm ci` first', 'use "" first'],
    ['a word holding a digit becomes 0', '/bin/bash: line 62215: javac: command not found', '/bin/bash: line 0: javac: command not found'],
    ['ids, hashes and dates', 'commit a1b2c3 at 2024-01-01T10:00', 'commit 0 at 0-0-0:0'],
    ['whitespace runs become one space', 'a   b\t\n  c', 'a b c'],
    ['every kind of ASCII whitespace, and no other', 'a\v\f\r b\u00a0c', 'a b\u00a0c'],
    ['JSON values', '{"flight_number": "HAT028", "price": 120}', '{"": "", "": 0}'],
    ['words without digits, paths and punctuation stay', 'Error: ENOENT, open /tmp/x.txt!', 'Error: ENOENT, open /tmp/x.txt!'],
    ['an empty text', '', ''],
  ])('%s', (_label, text, shape) => {
    expectShape(text, shape);
  });

  it('leaves a quote that does not close on its line, or spans more than 200 characters, as it is', () => {
    expectShape('it"s\nfine"', 'it"s fine"');
    expectShape('it"s\rfine"', 'it"s fine"');
    const long = `"${'a'.repeat(201)}"`;
    expectShape(long, long);
    expectShape(`"${'a'.repeat(200)}"`, '""');
  });

  it('keeps openers whose closer is on another line or too far away, scanning each stretch once', () => {
    const far = `"${'a'.repeat(300)}`;
    expectShape(`${far}"`, `${far}"`);
    expectShape(`say "one\ntwo" "three"`, `say "one two""three"`);
    expectShape(`${"`'".repeat(3000)}\n`, `${'""'.repeat(3000)} `);
  });

  it('reads only the first and last 4 KB of a longer text, joined by an ellipsis', () => {
    const text = `${'a'.repeat(HALF)}MIDDLE${'b'.repeat(HALF)}`;
    expectShape(text, `${'a'.repeat(HALF)}…${'b'.repeat(HALF)}`);
    expectShape(`${'a'.repeat(HALF)}OTHER${'b'.repeat(HALF)}`, answerShape(text));
  });

  it('reads a text of exactly 8 KB whole, and one of a character more as its first and last 4 KB', () => {
    expectShape('x'.repeat(SHAPE_INPUT_LIMIT), 'x'.repeat(SHAPE_INPUT_LIMIT));
    expectShape('x'.repeat(SHAPE_INPUT_LIMIT + 1), `${'x'.repeat(HALF)}…${'x'.repeat(HALF)}`);
  });

  it('equals for answers that differ only in quoted text, numbers and spacing', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,8}$/), fc.nat(), fc.nat(), (word, left, right) => {
        expectShape(`No "${word}" at line ${String(left)}`, 'No "" at line 0');
        expectShape(`No   "other" at line ${String(right)}`, 'No "" at line 0');
      }),
      { numRuns: 200 },
    );
  });

  describe('tokens for long strings and bigints', () => {
    it('keeps a token whole, digits and all', () => {
      expectShape(`{"long":#s1025:${HASH},"n":12}`, `{"":#s1025:${HASH},"":0}`);
      expectShape(`[#n70000:${HASH}]`, `[#n70000:${HASH}]`);
      // A word right after a token is a word of its own.
      expectShape(`#s1:${HASH}x1 #s1:${HASH}abc`, `#s1:${HASH}0 #s1:${HASH}abc`);
    });

    it('tells apart results that differ only in a long string', () => {
      expectShape(`{"page":#s2000:${HASH}}`, `{"":#s2000:${HASH}}`);
      expectShape(`{"page":#s2000:${'f'.repeat(28)}}`, `{"":#s2000:${'f'.repeat(28)}}`);
    });

    it('reads anything short of a token as usual', () => {
      expectShape('#s12:abc', '#0:abc');
      expectShape(`#x12:${HASH}`, '#0:0');
      expectShape(`#s12:${HASH.slice(1)}`, '#0:0');
      expectShape(`#s:${HASH}`, '#s:0');
    });
  });
});

describe('answerShape equals the character-at-a-time reference', () => {
  // Pieces that meet at every rule's edges: each quote kind and its closers, line breaks inside and around quotations,
  // whitespace of every kind and length, words with and without digits, tokens and near-tokens (a word right after a
  // token, a hash one digit short), quotations of 199 to 201 characters, non-ASCII and lone surrogates.
  const pieces = fc.constantFrom(
    '"', "'", '`', '\n', '\r', '\t', '\v', '\f', ' ', '  ', '#', 's', 'n', ':', '1', '9', 'a', 'Z', '_', 'x1', '{', '}', ',', '.', '-',
    '…', 'é', '\u00a0', '\u2028', '\ud800', '\udc00', 'word', `#s12:${HASH}`, `#n5:${HASH}`, `#s1:${HASH}x1`, `#s1:${HASH.slice(1)}`,
    HASH, 'a'.repeat(199), 'b'.repeat(200), 'c'.repeat(201),
    // Quotations of every kind with 199 to 201 characters inside: the longest that is one, and the shortest that is not.
    ...[199, 200, 201].flatMap((length) => ['"', "'", '`'].flatMap((quote) => [`${quote}${'q'.repeat(length)}${quote}`, `\`${'q'.repeat(length)}'`])),
  );
  const texts = fc.array(fc.oneof(pieces, fc.string({ maxLength: 4 })), { maxLength: 60 }).map((parts) => parts.join(''));

  it('on texts made of the rules’ edge cases', () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(answerShape(text)).toBe(referenceAnswerShape(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('on any UTF-16 text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        expect(answerShape(text)).toBe(referenceAnswerShape(text));
      }),
      { numRuns: 1_000 },
    );
  });

  it('on texts past the 8 KB read, cut anywhere', () => {
    fc.assert(
      fc.property(fc.array(texts, { minLength: 150, maxLength: 300 }), (parts) => {
        const text = parts.join('');
        expect(answerShape(text)).toBe(referenceAnswerShape(text));
      }),
      { numRuns: 20 },
    );
    // Quotations and tokens cut by the two places where the read parts end.
    fc.assert(
      fc.property(fc.integer({ min: -40, max: 40 }), fc.integer({ min: -40, max: 40 }), pieces, pieces, (shift, tailShift, first, second) => {
        const filler = (length: number): string => 'w '.repeat(length).slice(0, Math.max(0, length));
        const text = `${filler(HALF + shift)}"${first}${second}"${filler(100)}\`${second}'${filler(HALF + tailShift)}#s12:${HASH}`;
        expect(answerShape(text)).toBe(referenceAnswerShape(text));
      }),
      { numRuns: 200 },
    );
  });
});

describe('failureShape', () => {
  it.each([
    ['blanks the words of the arguments, not the words around them', 'javac: command not found', '{"command":"javac Main.java"}', '0: command not found'],
    ['a pattern', 'No matches found for foo in /repo', '{"pattern":"foo"}', 'No matches found for 0 in /repo'],
    ['matches whole words only, case and all', 'foobar Foo foo_x foo', '{"q":"foo"}', 'foobar Foo foo_x 0'],
    ['takes an escape apart from the word after it', 'Let nLet me', '{"command":"DISCUSSION\\nLet me try"}', '0 nLet 0'],
    ['takes an escaped backslash as an escape', 'nabc x abc', '{"a":"x\\\\nabc"}', '0 0 abc'],
    ['splits values at punctuation', 'src and ts, a or b', '{"path":"src/f5.ts","q":"a:b"}', '0 and 0, 0 or 0'],
    ['leaves keys out, escaped quotes and all', 'say hi there', '{"say \\"hi\\"":"there"}', 'say hi 0'],
    ['reads nested values and numbers', 'x_y x y', '{"id":5,"deep":{"name":"x_y"}}', '0 x y'],
    ['reads a plain string', 'plain string', '"plain string"', '0 0'],
    ['leaves a shape as it is when the arguments hold no words', 'No matches found', '{}', 'No matches found'],
  ])('%s', (_label, text, argsPreview, shape) => {
    expect(failureShape(text, argsPreview)).toBe(shape);
  });

  it('shapes the text first, and leaves runs holding a digit alone: blanks already, or parts of a token', () => {
    expect(failureShape('No "foo" at line 12 for foo', '{"q":"foo"}')).toBe('No "" at line 0 for 0');
    expect(failureShape(`err #s1025:${HASH} s a1b2c3d4e5f60718293a4b5c6d7e`, `{"q":"s","h":"${HASH}"}`)).toBe(`err #s1025:${HASH} 0 0`);
  });
});

describe('isContentless', () => {
  it.each(['', '   ', '[]', '{}', '0', '42', '<returncode>0</returncode><output></output>', '<out-put></out-put>', '{"": 1}', '-- . --'])(
    'finds no words in %j',
    (text) => {
      expect(isContentless(text)).toBe(true);
    },
  );

  it.each(['ok', 'No matches', '<b>x</b>', '< notatag >', '[1, "a"]', '<1a>', '<a<b>>', 'é and a'])('finds a word in %j', (text) => {
    expect(isContentless(text)).toBe(false);
  });

  it('takes a name of up to 64 characters for a tag, and no longer one', () => {
    expect(isContentless(`<${'a'.repeat(64)}>`)).toBe(true);
    expect(isContentless(`<${'a'.repeat(65)}>`)).toBe(false);
    expect(isContentless(`</${'b'.repeat(64)}>`)).toBe(true);
    expect(isContentless('<a-1_b>')).toBe(true);
  });

  /** The straightforward reading: the first and last 4 KB joined by an ellipsis into one string, then scanned. */
  function referenceContentless(text: string): boolean {
    const source = text.length <= SHAPE_INPUT_LIMIT ? text : `${text.slice(0, HALF)}…${text.slice(text.length - HALF)}`;
    for (let index = 0; index < source.length; index++) {
      if (source[index] === '<') {
        const tag = /^<\/?([A-Za-z0-9_-]{1,64})/.exec(source.slice(index, index + 66));
        const name = tag?.[1];
        if (name !== undefined && /^[A-Za-z]/.test(name) && source[index + (tag?.[0].length ?? 0)] === '>') index += tag?.[0].length ?? 0;
      } else if (/[A-Za-z]/.test(source[index] ?? '')) return false;
    }
    return true;
  }

  it('reads a text of exactly 8 KB whole: a tag across its middle is a tag', () => {
    const text = `${'.'.repeat(HALF - 3)}<output>${'.'.repeat(HALF - 5)}`;
    expect(text).toHaveLength(SHAPE_INPUT_LIMIT);
    expect(isContentless(text)).toBe(true);
    // One character longer, the text is read as two parts, and the tag is cut by the end of the first.
    expect(isContentless(`${text}.`)).toBe(false);
  });

  it('reads a long text as its first and last 4 KB joined by an ellipsis', () => {
    // Tags, halves of tags and letters placed across the two places where the read parts end.
    const piece = fc.constantFrom('<', '/', '>', '<a>', '</a>', '<b-1>', 'x', '0', ' ', '-', '_', '<out', 'put>', '</', '…');
    const around = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));
    const filler = (length: number): string => '0 '.repeat(length).slice(0, length);
    fc.assert(
      fc.property(around, around, fc.integer({ min: -12, max: 12 }), fc.integer({ min: 0, max: 20 }), fc.integer({ min: -12, max: 12 }), (first, second, shift, middle, tailShift) => {
        const head = filler(HALF + shift) + first;
        const text = head + filler(middle) + filler(Math.max(0, HALF - second.length + tailShift)) + second + filler(Math.max(0, -tailShift));
        expect(isContentless(text)).toBe(referenceContentless(text));
      }),
      { numRuns: 500 },
    );
    expect(isContentless(`${filler(HALF - 3)}<ab>${filler(SHAPE_INPUT_LIMIT)}`)).toBe(false);
    expect(isContentless(`${filler(HALF - 4)}<ab>${filler(SHAPE_INPUT_LIMIT)}`)).toBe(true);
    expect(isContentless(`${filler(SHAPE_INPUT_LIMIT)}x${filler(HALF)}`)).toBe(true);
    expect(isContentless(`${filler(SHAPE_INPUT_LIMIT)}x${filler(HALF - 1)}`)).toBe(false);
  });
});

/** What a JSON text reads as when it comes as structured data (its value), or `undefined` when it is not JSON. */
function asStructured(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return answerKind(canonicalize(value), readResultFields(value).reading);
}

describe('answerKind', () => {
  describe('empty: no letter and no digit outside markup tags', () => {
    it.each([[''], ['   \n'], ['[]'], ['{}'], ['""'], ['<output></output>'], ['<output>\n</output>'], ['-- . --']])('%j', (text) => {
      expect(answerKind(text, undefined)).toBe('empty');
    });

    it('takes structured data that holds nothing as empty too', () => {
      expect(answerKind('[]', readResultFields([]).reading)).toBe('empty');
      expect(answerKind('{}', readResultFields({}).reading)).toBe('empty');
    });

    it.each([['42'], ['3.5'], ['<returncode>0</returncode><output></output>'], ['[1, 2]']])('a digit is a value, not nothing: %j', (text) => {
      expect(answerKind(text, undefined)).toBe('answer');
    });

    it('looks for digits where isContentless looks for letters: the first and last 4 KB', () => {
      expect(answerKind(`${'.'.repeat(HALF)}7${'.'.repeat(HALF)}`, undefined)).toBe('empty');
      expect(answerKind(`${'.'.repeat(HALF - 1)}7${'.'.repeat(HALF + 1)}`, undefined)).toBe('answer');
      expect(answerKind(`${'.'.repeat(HALF + 1)}7${'.'.repeat(HALF - 1)}`, undefined)).toBe('answer');
      // A text of 8 KB or less is read whole.
      expect(answerKind(`${'.'.repeat(HALF + 10)}7${'.'.repeat(HALF - 11)}`, undefined)).toBe('answer');
    });
  });

  describe('failure wording in text', () => {
    it.each([
      ['No matches found for "setup.md" in /repo'],
      ['no such file or directory'],
      ['grep: x: No such file or directory'],
      ['No results.'],
      ...['no match', 'no result', 'no file', 'no files', 'no entries', 'no items', 'no records', 'no hits', 'no data'].map((text) => [`${text} here`]),
      ...['0 matches', '0 hits', '0 files', '0 items', '0 records', '0 entries'].map((text) => [`${text} for x`]),
      ['They do not exist'],
      ['unexpected token <'],
      ['unexpected end of file'],
      ...['tool', 'function', 'argument', 'parameter'].map((word) => [`unknown ${word} "x"`]),
      ['Nothing found'],
      ['Order A1005 not found'],
      ['bash: javac: command not found'],
      ['Found 0 matches'],
      ['0 results for "x"'],
      ['The file does not exist'],
      ["That path doesn't exist"],
      ["Those files don't exist"],
      ['/bin/bash: line 2: syntax error near unexpected token `(\''],
      ["/bin/bash: line 17: unexpected EOF while looking for matching `\"'"],
      ['Usage: edit <start_line>:<end_line>'],
      ['Traceback (most recent call last):'],
      ['Error: ENOENT'],
      ['error : bad input'],
      ['TypeError: x is not a function'],
      ['java.lang.NullPointerException: oops'],
      ['Failed to send the message'],
      ['Unable to connect'],
      ['Cannot open the file'],
      ["can't read it"],
      ['Could not resolve host'],
      ["couldn't parse"],
      ['Invalid date'],
      ['Permission denied'],
      ['access denied'],
      ['Operation not permitted'],
      ['Not allowed here'],
      ['not supported'],
      ['Unknown command: frob'],
      ['unknown option --x'],
      ['Request timed out'],
      ['[Errno 2] No such file or directory'],
    ])('%j', (text) => {
      expect(answerKind(text, undefined)).toBe('failure');
    });

    it.each([
      ['ok'],
      ['File written successfully.'],
      ['Wrote src/f5.ts'],
      ['Message sent to user5@example.com'],
      ['Order A1005: shipped, 3 items, total $27.50'],
      // What a record holds is information: a payment that failed, a status, a count of errors.
      ['Order A1005: payment failed'],
      ['Ran 3 tests, 0 errors'],
      ['errors found in 2 files'],
      ['Found 3 matches for "x"'],
      ['[File: /a.java (34 lines total)]'],
      ['nothing to commit, working tree clean'],
      ['Paris: 12°C, sunny'],
      ['No. 5 is next'],
      ['known issue'],
      ['invalidate the cache'],
    ])('not %j', (text) => {
      expect(answerKind(text, undefined)).toBe('answer');
    });

    it(`reads only the first ${String(FAILURE_WORDING_SCOPE)} characters`, () => {
      const lead = '.'.repeat(FAILURE_WORDING_SCOPE - 'not found'.length);
      expect(answerKind(`${lead}not found`, undefined)).toBe('failure');
      expect(answerKind(`.${lead}not found`, undefined)).toBe('answer');
    });
  });

  describe('JSON, read by its top-level keys', () => {
    it.each([
      ['{"error":"not found"}'],
      ['{"error":{"code":404}}'],
      ['{"error":true}'],
      ['{"error":0.5}'],
      ['{"error":404}'],
      ['{"error":05}'],
      ['{"errors":[{"message":"bad"}]}'],
      ['{"exception":"Boom"}'],
      ['{"Error": "x"}'],
      ['{"content":[{"type":"text","text":"nope"}],"isError":true}'],
      ['{"success":false}'],
      ['{"ok": false, "error": "channel_not_found"}'],
      ['{"status":"error","message":"x"}'],
      ['{"status":"Error"}'],
      ['{"results":[],"total":0}'],
      ['{"matches":[ ]}'],
      ['{"hits":[]}'],
      ['{"items":[],"page":3}'],
      ['{"records":[]}'],
      ['{"rows":[]}'],
      ['{"entries":[]}'],
      ['{"documents":[]}'],
      ['  \n{"error": "x"}'],
      ['{\n  "data": null,\n  "error": "x"\n}'],
      ['{"OK":false}'],
      // Every top-level failure key is judged, the first one passing or not; a nested one before it is passed over.
      ['{"error":null,"ok":false}'],
      ['{"a":{"ok":true},"ok":false}'],
    ])('%j', (text) => {
      expect(answerKind(text, undefined)).toBe('failure');
      expect(asStructured(text) ?? 'failure').toBe('failure');
    });

    it.each([
      ['{"city":"Paris","tempC":12}'],
      ['{"error":null,"data":{"a":1}}'],
      ['{"error":false}'],
      ['{"error":0}'],
      ['{"error":-0}'],
      ['{"error":""}'],
      ['{"errors":[]}'],
      ['{"error":{}}'],
      ['{"error":[ ]}'],
      ['{"error":{ }}'],
      ['["error": "x"]'],
      ['{"isError":false,"content":[]}'],
      ['{"success":true}'],
      ['{"ok":true}'],
      ['{"status":"failed"}'],
      ['{"status":"shipped"}'],
      ['{"results":[1]}'],
      ['{"results":null}'],
      ['{"error":null,"ok":true}'],
      ['{"a":{"ok":false},"ok":true}'],
      // Nested keys belong to records, strings to values.
      ['{"data":{"error":"x"}}'],
      ['{"jobs":[{"status":"error","error":"OOM"}]}'],
      ['{"message":"see \\"error\\": here","ok":true}'],
      ['{"a":"\\"error\\":1"}'],
      // Text that only opens like JSON: a quote that closes a string, or one escaped, does not open a key.
      ['{"a":"b "error": 1"}'],
      ['{"a":"\\"error": 1"}'],
      ['{"note":"no matches found","id":1}'],
      ['[{"error":"x"}]'],
      ['["not found"]'],
      ['[1,2]'],
      ['{"a":[{"b":1}],"results":[{"c":2}]}'],
      // A key is a failure key only in ASCII letters: the Kelvin sign lower-cases to "k", the long s upper-cases to "S".
      ['{"o\u212a":false}'],
      ['{"\u017fuccess":false}'],
      ['{"errors_":"x"}'],
    ])('not %j', (text) => {
      expect(answerKind(text, undefined)).toBe('answer');
      expect(asStructured(text) ?? 'answer').toBe('answer');
    });

    it('reads a zero written as 0e1 as a failure in text, and as the number zero (no failure) in a value', () => {
      expect(answerKind('{"error":0e1}', undefined)).toBe('failure');
      expect(asStructured('{"error":0e1}')).toBe('answer');
    });

    it('reads structured data by its fields only, whatever its form says', () => {
      expect(answerKind('Map{"error":1}', 'answer')).toBe('answer');
      expect(answerKind('not found', 'answer')).toBe('answer');
      expect(answerKind('{"fine":true}', 'nothing-found')).toBe('failure');
    });

    it('looks for the opening of JSON in the first 300 characters only', () => {
      expect(answerKind(`${' '.repeat(FAILURE_WORDING_SCOPE - 2)}{"error":"x"}`, undefined)).toBe('failure');
      expect(answerKind(`${' '.repeat(FAILURE_WORDING_SCOPE - 1)}{"error":"x"}`, undefined)).toBe('answer');
      expect(answerKind(`${' '.repeat(1_000_000)}{"error":"x"}`, undefined)).toBe('answer');
    });

    it('takes text for prose unless it opens like JSON', () => {
      expect(answerKind('{not json} not found', undefined)).toBe('failure');
      expect(answerKind('{"note": "fine"} not found', undefined)).toBe('answer');
      expect(answerKind('[File: x] not found', undefined)).toBe('failure');
      expect(answerKind('[-1, "not found"]', undefined)).toBe('answer');
    });

    it(`reads at most ${String(JSON_KEY_SCOPE)} characters for keys`, () => {
      const padding = (length: number): string => `{"a":"${'p'.repeat(length)}",`;
      // `{"a":"` (6) + padding + `",` (2): the key's opening quote at JSON_KEY_SCOPE - 10, its colon inside the scope.
      expect(answerKind(`${padding(JSON_KEY_SCOPE - 18)}"error":"x"}`, undefined)).toBe('failure');
      expect(answerKind(`${padding(JSON_KEY_SCOPE - 8)}"error":"x"}`, undefined)).toBe('answer');
    });

    it('counts depth through strings holding braces and escaped quotes', () => {
      expect(answerKind('{"a":"}{\\"","error":"x"}', undefined)).toBe('failure');
      expect(answerKind('{"a":"\\\\","error":"x"}', undefined)).toBe('failure');
      expect(answerKind('{"a":{"b":"]"},"error":"x"}', undefined)).toBe('failure');
    });
  });

  it('reads any text in linear time: a long text of near-misses answers at once', () => {
    fc.assert(
      fc.property(fc.constantFrom('error', '"error":', 'no ', '{"a":', 'not ', '[', '"'), fc.integer({ min: 1, max: 20_000 }), (piece, times) => {
        expect(['empty', 'failure', 'answer']).toContain(answerKind(piece.repeat(times), undefined));
      }),
      { numRuns: 30 },
    );
  });
});
