/**
 * Answers as the loop detectors compare them: what changes on every call blanked (`volatileBlanked`), a structured
 * result read from its own top-level fields (`readResultFields`), and what that does to repeats, warnings, refusals,
 * stops and snapshots.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readResultFields, RESULT_FIELD_SCOPE, VOLATILE_SCOPE, volatileBlanked } from '../../src/detectors/answers.js';
import { createGuard, type GuardOptions, type GuardStep } from '../../src/index.js';
import { ALL_OFF, call, calls } from '../support/step-builder.js';

describe('volatileBlanked', () => {
  it.each([
    ['Built in 12.3s at 2026-01-01T10:00:00Z', 'Built in0.0at0-0-0:0:0'],
    ['[1164/12646] Building X.cpp.o', '[0/0] Building X.cpp.o'],
    ['progress 45%', 'progress0%'],
    ['  two\n\n words ', ' two words '],
    ['id deadbeef 3a4f', 'id deadbeef0'],
    ['#s5000:0123456789abcdef0123456789ab kept', '#s5000:0123456789abcdef0123456789ab kept'],
    ['# heading 1', '# heading0'],
    ['42', '42'],
    ['[1, 2]', '[1, 2]'],
    ['-1e+21', '-1e+21'],
    ['0x1f 0x2a', '0x1f 0x2a'],
    ['-1e+21 apples', '-0+0apples'],
    ['a\u00a0\u2028b é\u3000', 'a b é '],
    ['done\n', 'done '],
    ['done 12', 'done0'],
  ])('%j reads as %j', (text, blanked) => {
    expect(volatileBlanked(text)).toBe(blanked);
  });

  it('reads a text of up to 4,096 characters whole, and of a longer one the first and last 2,048', () => {
    const middle = (length: number, digit: string): string => `${'a'.repeat(length / 2 - 1)}${digit} ${'b'.repeat(length / 2 - 1)}`;
    expect(volatileBlanked(middle(VOLATILE_SCOPE, '1'))).toBe(volatileBlanked(middle(VOLATILE_SCOPE, '2')));
    const words = (length: number, word: string): string => `${'x '.repeat(length / 4)}${word}${' y'.repeat(length / 4)}`;
    expect(volatileBlanked(words(VOLATILE_SCOPE - 2, 'one'))).not.toBe(volatileBlanked(words(VOLATILE_SCOPE - 2, 'two')));
    // Past the scope, a word in the middle is not read.
    expect(volatileBlanked(words(VOLATILE_SCOPE + 2, 'one'))).toBe(volatileBlanked(words(VOLATILE_SCOPE + 2, 'two')));
  });
});

/**
 * volatileBlanked as plainly as it can be said, for texts within the scope: the text cut into tokens of long strings,
 * runs of ASCII word characters, runs of white space (as `\s` reads it) and single other characters; each run of
 * white space and of words with a digit between kept parts becomes `0` when it holds such a word, else one space.
 */
function blankedByRule(text: string): string {
  const parts = text.match(/#[sn]\d+:[0-9a-f]{28}|\w+|\s+|[^]/g) ?? [];
  const blanked = (part: string): boolean => /^\w+$/.test(part) && /\d/.test(part);
  const saysWords = parts.some((part) => part.startsWith('#') ? part.length > 1 : /^\w+$/.test(part) && /[a-z]/i.test(part) && !/\d/.test(part));
  if (!saysWords) return text;
  let out = '';
  let gap: string | undefined;
  for (const part of parts) {
    if (blanked(part) || /^\s+$/.test(part)) {
      gap = gap === '0' || blanked(part) ? '0' : ' ';
      continue;
    }
    out += (gap ?? '') + part;
    gap = undefined;
  }
  return out + (gap ?? '');
}

describe('volatileBlanked against the rule it implements', () => {
  it('answers as the plain rule on random texts of words, numbers, ids, tokens and every kind of white space', () => {
    const pieces = fc.constantFrom(
      'a', 'Zq', '_', '1', '07', 'x1', 'a_1', '#', '#s5:0123456789abcdef0123456789ab', '#n12:ffffffffffffffffffffffffffff', '.', '-', '+', 'é', '\u0080',
      ' ', '  ', '\n', '\t', '\r\n', '\v', '\f', '\u00a0', '\u1680', '\u1fff', '\u2000', '\u2005', '\u200a', '\u200b', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (chosen) => {
        const text = chosen.join('');
        expect(volatileBlanked(text)).toBe(blankedByRule(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a text of exactly 4,096 characters whole', () => {
    const text = `${'a'.repeat(VOLATILE_SCOPE - 2)} 1`;
    expect(volatileBlanked(text)).toBe(`${'a'.repeat(VOLATILE_SCOPE - 2)}0`);
  });
});

describe('readResultFields', () => {
  it.each<[unknown, string, Record<string, unknown> | undefined]>([
    [{ success: false, data: 'x'.repeat(600) }, 'failure', { success: false }],
    [{ Error: 'boom', results: [] }, 'failure', { Error: 'boom' }],
    [{ isError: true }, 'failure', { isError: true }],
    [{ OK: false }, 'failure', { OK: false }],
    [{ status: 'ERROR' }, 'failure', { status: 'ERROR' }],
    [{ errors: [{ message: 'x' }], exception: null }, 'failure', { errors: [{ message: 'x' }] }],
    [{ results: [], query: 'q' }, 'nothing-found', { results: [] }],
    [{ Matches: [], hits: [], items: [1] }, 'nothing-found', { Matches: [], hits: [] }],
    [{ error: null, errors: [], exception: {}, success: true, ok: 0, status: 'failed', rows: [1] }, 'answer', undefined],
    [{ jobs: [{ status: 'error' }] }, 'answer', undefined],
    [[{ error: 'x' }], 'answer', undefined],
    [{ error: 'x', toJSON: () => ({}) }, 'answer', undefined],
    [new Map([['error', 'x']]), 'answer', undefined],
    [null, 'answer', undefined],
    [7, 'answer', undefined],
  ])('%j reads as %s', (value, reading, fields) => {
    expect(readResultFields(value)).toEqual({ reading, fields });
  });

  it('never throws: a throwing getter or a revoked proxy reads as nothing there', () => {
    const getter = Object.defineProperty({ results: [] }, 'error', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    expect(readResultFields(getter)).toEqual({ reading: 'nothing-found', fields: { results: [] } });
    const { proxy, revoke } = Proxy.revocable({ error: 'x' }, {});
    revoke();
    expect(readResultFields(proxy)).toEqual({ reading: 'answer', fields: undefined });
    const trap = new Proxy({}, { ownKeys: () => ['error'], getOwnPropertyDescriptor: () => ({ enumerable: true, configurable: true, value: [] }), get: () => [] });
    // An `error` that is an empty list says there was none.
    expect(readResultFields(trap)).toEqual({ reading: 'answer', fields: undefined });
    const hostileList = new Proxy([], {
      get() {
        throw new Error('no length');
      },
    });
    expect(readResultFields({ error: hostileList, results: hostileList })).toEqual({ reading: 'failure', fields: { error: hostileList } });
  });

  it('reads the first 10,000 own keys', () => {
    const withKeyAt = (position: number): Record<string, unknown> => {
      const value: Record<string, unknown> = {};
      for (let index = 0; index < position; index++) value[`k${String(index)}`] = index;
      value.success = false;
      return value;
    };
    expect(readResultFields(withKeyAt(RESULT_FIELD_SCOPE - 1)).reading).toBe('failure');
    expect(readResultFields(withKeyAt(RESULT_FIELD_SCOPE)).reading).toBe('answer');
  });
});

describe('a structured failure, whatever its size', () => {
  const lookups = (data: (index: number) => string): GuardStep[] =>
    Array.from({ length: 40 }, (_, index) => calls(call('lookup', { id: index }, { result: { success: false, data: data(index) } })));

  it.each([10, 500, 600, 5_000])('%i characters of data: forty failing lookups stop at step 20, when the window fills', (length) => {
    const guard = createGuard({ maxSteps: false });
    const verdicts = lookups((index) => `${String(index).padStart(4, 'x')}${'d'.repeat(length - 4)}`).map((step) => guard.check(step));
    expect(verdicts.findIndex((verdict) => verdict.stop)).toBe(19);
    expect(verdicts[19]).toMatchObject({ reason: 'stagnation', evidence: { newOutcomes: 1, answers: [{ shapePreview: '{"":false}', count: 20 }] } });
    expect(verdicts.slice(0, 19).every((verdict) => !verdict.stop && verdict.warnings === undefined)).toBe(true);
  });

  it('a result whose top-level fields say nothing failed is an answer with its call, however long', () => {
    const guard = createGuard({ maxSteps: false });
    const steps = Array.from({ length: 40 }, (_, index) => calls(call('lookup', { id: index }, { result: { success: true, data: 'd'.repeat(600) } })));
    expect(steps.some((step) => guard.check(step).stop)).toBe(false);
  });
});

describe('repetition that knows progress', () => {
  const build = (output: string): GuardStep => calls(call('bash', { command: 'cmake --build build' }, { result: output }));
  const options: GuardOptions = { ...ALL_OFF, repeatedToolCall: {} };

  it('a build that gets further each time is not a loop; the same output with other timings is: N - 1 continue, N stop', () => {
    const guard = createGuard(options);
    const further = ['[10/900] Building a.o (timeout)', '[300/900] Building q.o (timeout)', '[620/900] Building z.o (timeout)', '[900/900] Linking app'];
    expect(further.map((output) => guard.check(build(output)).stop)).toEqual([false, false, false, false]);
    const again = createGuard(options);
    const same = ['error: a.c:3 missing ; (0.4 s)', 'error: a.c:3 missing ; (0.5 s)', 'error: a.c:3 missing ; (0.3 s)'];
    expect(same.map((output) => again.check(build(output)).stop)).toEqual([false, false, true]);
    expect(again.history).toHaveLength(3);
  });

  it('a new answer starts the count again from that call', () => {
    const guard = createGuard(options);
    const outputs = ['page of apples', 'page of apples', 'page of pears', 'page of pears', 'page of pears'];
    const verdicts = outputs.map((output) => guard.check(build(output)));
    expect(verdicts.map((verdict) => verdict.stop)).toEqual([false, false, false, false, true]);
    expect(verdicts[4]).toMatchObject({ evidence: { count: 3, stepIndexes: [2, 3, 4], identicalResults: true } });
  });

  it('warns, refuses, then stops the model that asks for the refused call again', () => {
    const guard = createGuard(options);
    const asked = call('bash', { command: 'cmake --build build' });
    expect(guard.check(build('error: missing ;'))).toEqual({ stop: false });
    expect(guard.check(build('error: missing ;'))).toMatchObject({ stop: false, warnings: [{ code: 'LOOP_WARNING', reason: 'repeated-tool-call' }] });
    expect(guard.judgeCall(asked)).toMatchObject({ block: true, message: expect.stringContaining('the calls before it got the same answer each time') as unknown });
    // The refused call is reported as blocked; the first refusal is a warning's worth, the second stops the run.
    expect(guard.check(calls({ ...asked, blocked: true })).stop).toBe(false);
    expect(guard.check(calls({ ...asked, blocked: true }))).toMatchObject({ stop: true, reason: 'repeated-tool-call', code: 'REPEATED_TOOL_CALL' });
  });

  it('a snapshot taken mid-run restores the run and its last answer; peek changes nothing', () => {
    const steps = ['a (1 ms)', 'a (2 ms)', 'b (0 ms)', 'b (3 ms)', 'b (4 ms)'].map(build);
    const whole = createGuard(options);
    const expected = steps.map((step) => whole.check(step));
    for (const [split, next] of steps.entries()) {
      const first = createGuard(options);
      for (const step of steps.slice(0, split)) first.check(step);
      const snapshot = JSON.parse(JSON.stringify(first.snapshot())) as ReturnType<typeof first.snapshot>;
      const restored = createGuard(options, { snapshot });
      expect(restored.peek(next)).toEqual(expected[split]);
      expect(steps.slice(split).map((step) => restored.check(step))).toEqual(expected.slice(split));
    }
    expect(expected.map((verdict) => verdict.stop)).toEqual([false, false, false, false, true]);
    const saved = createGuard(options);
    saved.check(build('a'));
    const state = saved.snapshot().detectors['repeated-tool-call'] as { run: Record<string, unknown> };
    expect(Object.keys(state.run)).toEqual(['key', 'first', 'count', 'identicalResults', 'answer', 'stepIndexes']);
    expect(() => createGuard(options, { snapshot: { ...saved.snapshot(), detectors: { 'repeated-tool-call': { run: { ...state.run, answer: 5 } } } } })).toThrow(
      'snapshot field "detectors.repeated-tool-call.run.answer" must be a string, got 5.',
    );
  });
});
