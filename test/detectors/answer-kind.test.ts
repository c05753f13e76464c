import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerKind, FAILURE_WORDING_SCOPE, JSON_KEY_SCOPE } from '../../src/detectors/answer-kind.js';
import { SHAPE_INPUT_LIMIT } from '../../src/detectors/answer-shape.js';
import { StepReader } from '../../src/canonical/step-reader.js';
import { TEST_HASH_KEY } from '../support/step-builder.js';

describe('answerKind', () => {
  describe('empty: no letter and no digit outside markup tags', () => {
    it.each([[''], ['   \n'], ['[]'], ['{}'], ['""'], ['<output></output>'], ['<output>\n</output>'], ['-- . --']])('%j', (text) => {
      expect(answerKind(text, false)).toBe('empty');
    });

    it('takes structured data that holds nothing as empty too', () => {
      expect(answerKind('[]', true)).toBe('empty');
      expect(answerKind('{}', true)).toBe('empty');
    });

    it.each([['42'], ['3.5'], ['<returncode>0</returncode><output></output>'], ['[1, 2]']])('a digit is a value, not nothing: %j', (text) => {
      expect(answerKind(text, false)).toBe('answer');
    });

    it('looks for digits where isContentless looks for letters: the first and last 4 KB', () => {
      const half = SHAPE_INPUT_LIMIT / 2;
      expect(answerKind(`${'.'.repeat(half)}7${'.'.repeat(half)}`, false)).toBe('empty');
      expect(answerKind(`${'.'.repeat(half - 1)}7${'.'.repeat(half + 1)}`, false)).toBe('answer');
      expect(answerKind(`${'.'.repeat(half + 1)}7${'.'.repeat(half - 1)}`, false)).toBe('answer');
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
      expect(answerKind(text, false)).toBe('failure');
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
      expect(answerKind(text, false)).toBe('answer');
    });

    it(`reads only the first ${String(FAILURE_WORDING_SCOPE)} characters`, () => {
      const lead = '.'.repeat(FAILURE_WORDING_SCOPE - 'not found'.length);
      expect(answerKind(`${lead}not found`, false)).toBe('failure');
      expect(answerKind(`.${lead}not found`, false)).toBe('answer');
    });
  });

  describe('JSON, read by its top-level keys', () => {
    it.each([
      ['{"error":"not found"}'],
      ['{"error":{"code":404}}'],
      ['{"error":true}'],
      ['{"error":0.5}'],
      ['{"error":404}'],
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
    ])('%j', (text) => {
      expect(answerKind(text, false)).toBe('failure');
      expect(answerKind(text, true)).toBe('failure');
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
    ])('not %j', (text) => {
      expect(answerKind(text, false)).toBe('answer');
      expect(answerKind(text, true)).toBe('answer');
    });

    it('reads structured data by its keys only, whatever it opens with', () => {
      expect(answerKind('Map{"error":1}', true)).toBe('answer');
      expect(answerKind('not found', true)).toBe('answer');
    });

    it('looks for the opening of JSON in the first 300 characters only', () => {
      expect(answerKind(`${' '.repeat(FAILURE_WORDING_SCOPE - 2)}{"error":"x"}`, false)).toBe('failure');
      expect(answerKind(`${' '.repeat(FAILURE_WORDING_SCOPE - 1)}{"error":"x"}`, false)).toBe('answer');
      expect(answerKind(`${' '.repeat(1_000_000)}{"error":"x"}`, false)).toBe('answer');
    });

    it('takes text for prose unless it opens like JSON', () => {
      expect(answerKind('{not json} not found', false)).toBe('failure');
      expect(answerKind('{"note": "fine"} not found', false)).toBe('answer');
    });

    it(`reads at most ${String(JSON_KEY_SCOPE)} characters for keys`, () => {
      const padding = (length: number): string => `{"a":"${'p'.repeat(length)}",`;
      // `{"a":"` (6) + padding + `",` (2): the key's opening quote at JSON_KEY_SCOPE - 10, its colon inside the scope.
      const inside = `${padding(JSON_KEY_SCOPE - 18)}"error":"x"}`;
      expect(answerKind(inside, false)).toBe('failure');
      const outside = `${padding(JSON_KEY_SCOPE - 8)}"error":"x"}`;
      expect(answerKind(outside, false)).toBe('answer');
    });

    it('counts depth through strings holding braces and escaped quotes', () => {
      expect(answerKind('{"a":"}{\\"","error":"x"}', false)).toBe('failure');
      expect(answerKind('{"a":"\\\\","error":"x"}', false)).toBe('failure');
      expect(answerKind('{"a":{"b":"]"},"error":"x"}', false)).toBe('failure');
    });
  });

  it('reads any text in linear time: a long text of near-misses answers at once', () => {
    fc.assert(
      fc.property(fc.constantFrom('error', '"error":', 'no ', '{"a":', 'not ', '[', '"'), fc.integer({ min: 1, max: 20_000 }), (piece, times) => {
        expect(['empty', 'failure', 'answer']).toContain(answerKind(piece.repeat(times), false));
      }),
      { numRuns: 50 },
    );
  });

  describe('structured data with the keys at the top of its form', () => {
    it('does not scan a form whose top-level keys cannot be a failure key', () => {
      // The keys say no key of the top level is `error`, so the form is not read for one.
      expect(answerKind('{"error":"boom"}', true, ['data'])).toBe('answer');
      expect(answerKind('{"error":"boom"}', true, ['error'])).toBe('failure');
      expect(answerKind('{"Error":"boom"}', true, ['Error'])).toBe('failure');
      expect(answerKind('{"error":"boom"}', true, [])).toBe('answer');
      // Emptiness is read first, from the text.
      expect(answerKind('{}', true, ['data'])).toBe('empty');
    });

    it('scans a form with more than 64 top-level keys, whatever they are', () => {
      const many = Array.from({ length: 65 }, (_, index) => `k${String(index)}`);
      expect(answerKind('{"error":"boom"}', true, many)).toBe('failure');
      expect(answerKind('{"error":"boom"}', true, many.slice(1))).toBe('answer');
    });

    it('takes a key for a failure key only in ASCII letters, as the scan does', () => {
      // The Kelvin sign lower-cases to "k", and the long s upper-cases to "S"; neither matches the scan's pattern.
      for (const key of ['o\u212a', '\u017fuccess']) {
        const form = `{"${key}":false}`;
        expect(answerKind(form, true)).toBe('answer');
        expect(answerKind(form, true, [key])).toBe('answer');
      }
      expect(answerKind('{"OK":false}', true, ['OK'])).toBe('failure');
    });

    it('judges every top-level failure key, the first one passing or not', () => {
      expect(answerKind('{"error":null,"ok":false}', true, ['error', 'ok'])).toBe('failure');
      expect(answerKind('{"error":null,"ok":true}', true, ['error', 'ok'])).toBe('answer');
      // A nested key of the same name, before the top-level one, is passed over.
      expect(answerKind('{"a":{"ok":true},"ok":false}', true, ['a', 'ok'])).toBe('failure');
      expect(answerKind('{"a":{"ok":false},"ok":true}', true, ['a', 'ok'])).toBe('answer');
    });

    it('ignores the keys of text a tool wrote', () => {
      expect(answerKind('{"error":"boom"}', false, ['data'])).toBe('failure');
    });

    const failureKeys = ['error', 'errors', 'exception', 'isError', 'success', 'ok', 'status', 'results', 'matches', 'hits', 'items', 'records', 'rows', 'entries', 'documents'];
    const key = fc.oneof(
      fc.constantFrom(...failureKeys).chain((name) => fc.constantFrom(name, name.toUpperCase(), `${name.charAt(0).toUpperCase()}${name.slice(1)}`)),
      fc.string({ maxLength: 8 }),
      fc.constantFrom('data', 'value', 'ERRORS_', 'éerror', 'k'.repeat(600), 'o\u212a', '\u017fuccess', 'hıts'),
    );
    const value = fc.oneof(fc.constantFrom(null, false, true, 0, 0.5, '', 'error', [], {}, [1], { status: 'error' }), fc.jsonValue({ maxDepth: 2 }));
    const object = fc.oneof(
      fc.dictionary(key, value, { maxKeys: 8 }),
      fc.dictionary(key, value, { minKeys: 60, maxKeys: 80 }),
      fc.tuple(fc.string({ minLength: 500, maxLength: 700 }), fc.dictionary(key, value, { maxKeys: 4 })).map(([padding, rest]) => ({ aaa: padding, ...rest })),
    );

    it('answers exactly as a scan of the whole form does, for any object the guard reads', () => {
      fc.assert(
        fc.property(object, (result) => {
          const reader = new StepReader(TEST_HASH_KEY);
          const form = reader.rawForm(result);
          expect(answerKind(form, true, reader.topKeys)).toBe(answerKind(form, true));
        }),
        { numRuns: 2_000 },
      );
    });
  });
});
