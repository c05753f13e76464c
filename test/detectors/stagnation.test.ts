import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGuard, type GuardOptions, type GuardStep, type Verdict } from '../../src/index.js';
import { EVIDENCE_CALLS } from '../../src/detectors/stagnation.js';
import { ALL_OFF, call, calls, text } from '../support/step-builder.js';

function guardWith(options: GuardOptions['stagnation'] = {}, more: GuardOptions = {}) {
  return createGuard({ ...ALL_OFF, stagnation: options, ...more });
}

/** A call to `grep` for `pattern`, answered `answer`. */
const grep = (pattern: string, answer: string): GuardStep => calls(call('grep', { pattern }, { result: answer }));

/** Feeds the steps; returns every verdict. */
function play(guard: ReturnType<typeof createGuard>, steps: readonly GuardStep[]): Verdict[] {
  return steps.map((step) => guard.check(step));
}

describe('stagnation', () => {
  describe('new arguments answered with the same failure', () => {
    const steps = Array.from({ length: 30 }, (_, index) => grep(`term${String(index)}`, `No matches found for "term${String(index)}"`));

    it('continues through step 19 and stops on step 20, when the window of 20 holds one new answer', () => {
      const verdicts = play(guardWith(), steps.slice(0, 20));
      expect(verdicts.slice(0, 19).every((verdict) => !verdict.stop)).toBe(true);
      expect(verdicts[19]).toEqual({
        stop: true,
        reason: 'stagnation',
        code: 'STAGNATION',
        detail:
          'Only 1 of the last 20 steps with tool calls brought an answer not seen before in this run; the same answer came back 20 times: "No matches found for """.',
        evidence: {
          window: 20,
          maxNew: 9,
          newOutcomes: 1,
          calls: [
            { tool: 'grep', argsPreview: '{"pattern":"term0"}', count: 1 },
            { tool: 'grep', argsPreview: '{"pattern":"term1"}', count: 1 },
            { tool: 'grep', argsPreview: '{"pattern":"term2"}', count: 1 },
          ],
          answers: [{ shapePreview: 'No matches found for ""', count: 20 }],
          callCount: 20,
          distinctCalls: 20,
          stepIndexes: Array.from({ length: 20 }, (_, index) => index),
        },
      });
    });
  });

  describe('an irregular cycle among a few calls whose answers never change', () => {
    const pool = [
      grep('a', 'src/a.ts: match a'),
      calls(call('view', { path: 'src/a.ts' }, { result: 'line one\nline two' })),
      grep('b', 'src/b.ts: match b'),
      calls(call('view', { path: 'src/b.ts' }, { result: 'other file' })),
    ];
    // Period 4 and 5 alternating, no strict cycle for oscillation, no repeat in a row.
    const order = [0, 1, 2, 3, 0, 2, 1, 3, 2, 0, 1, 3, 0, 1, 2, 3, 1, 0, 2, 3, 0, 1];
    // The model says something different each time, as real models do, so noProgress sees no repeated text.
    const steps = order.map((index, step): GuardStep => ({ ...pool[index], text: `attempt ${'i'.repeat(step)}` }));

    it('stops once the window is full and at most maxNew of its steps were new', () => {
      const verdicts = play(guardWith(), steps);
      const first = verdicts.findIndex((verdict) => verdict.stop);
      expect(first).toBe(19);
      expect(verdicts[first]).toMatchObject({
        code: 'STAGNATION',
        detail:
          'Only 4 of the last 20 steps with tool calls brought an answer not seen before in this run; grep({"pattern":"a"}) was called 5 times.',
        evidence: { newOutcomes: 4, callCount: 20, distinctCalls: 4 },
      });
    });

    it('is not seen by the spec detectors', () => {
      const guard = createGuard({ maxSteps: false, stagnation: false });
      expect(play(guard, steps).some((verdict) => verdict.stop)).toBe(false);
    });
  });

  describe('thresholds', () => {
    /** `fresh` steps with new answers, then stale ones (the same failure to new arguments). */
    const run = (fresh: number, total: number): GuardStep[] =>
      Array.from({ length: total }, (_, index) =>
        index < fresh ? grep(`p${String(index)}`, `found ${'x'.repeat(index + 1)}`) : grep(`p${String(index)}`, 'nothing found here'),
      );

    it.each([
      [{}, 9, 20],
      [{ window: 5, maxNew: 2 }, 2, 5],
      [{ window: 2, maxNew: 0 }, 0, 2],
    ])('with %j: maxNew + 1 new answers in a full window continue, maxNew stop', (options, maxNew, window) => {
      // maxNew new answers and one stale answer that is new the first time: maxNew + 1 new in the first window.
      const first = play(guardWith(options), run(maxNew, window));
      expect(first.at(-1)?.stop).toBe(false);
      // One more step pushes the oldest new answer out: maxNew new in the window.
      const guard = guardWith(options);
      const verdicts = play(guard, run(maxNew, window + 1));
      expect(verdicts.slice(0, window).every((verdict) => !verdict.stop)).toBe(true);
      expect(verdicts[window]).toMatchObject({ stop: true, evidence: { window, maxNew, newOutcomes: maxNew } });
    });

    it('builds evidence from the latest whole steps of at most EVIDENCE_CALLS calls, and counts every call of the window', () => {
      const step = (from: number, count: number): GuardStep => ({
        toolCalls: Array.from({ length: count }, (_, index) => ({ name: 'grep', args: { pattern: `p${String(from + index)}` }, result: 'nothing found' })),
      });
      // A window of three: the latest two steps hold exactly EVIDENCE_CALLS calls between them; the oldest one more.
      const half = EVIDENCE_CALLS / 2;
      const verdicts = play(guardWith({ window: 3, maxNew: 1 }), [step(0, 1), step(1, half), step(1 + half, half)]);
      expect(verdicts[2]).toMatchObject({
        stop: true,
        evidence: { newOutcomes: 1, callCount: EVIDENCE_CALLS + 1, distinctCalls: EVIDENCE_CALLS, answers: [{ shapePreview: 'nothing found', count: EVIDENCE_CALLS }] },
      });
      // One call more in the middle step: only the latest step is read.
      const over = play(guardWith({ window: 3, maxNew: 1 }), [step(0, 1), step(1, half + 1), step(2 + half, half)]);
      expect(over[2]).toMatchObject({ stop: true, evidence: { callCount: EVIDENCE_CALLS + 2, distinctCalls: half, answers: [{ count: half }] } });
    });

    it('does not judge before the window is full', () => {
      const stale = Array.from({ length: 19 }, (_, index) => grep(`p${String(index)}`, 'nothing found'));
      expect(play(guardWith(), stale).some((verdict) => verdict.stop)).toBe(false);
    });
  });

  describe('what counts', () => {
    it('counts a step of parallel calls once, new when any of them is', () => {
      const fanOut = (index: number): GuardStep =>
        calls(call('lookup', { id: index }, { result: 'not found' }), call('lookup', { id: -index }, { result: `seat ${'x'.repeat(index)}` }));
      expect(play(guardWith(), Array.from({ length: 40 }, (_, index) => fanOut(index))).some((verdict) => verdict.stop)).toBe(false);
    });

    it('leaves a call that repeats the one before it without news to repeatedToolCall, and skips text-only steps', () => {
      const steps: GuardStep[] = [];
      for (let index = 0; index < 30; index++) {
        steps.push(grep(`p${String(index)}`, `result ${'y'.repeat(index)}`), grep(`p${String(index)}`, `result ${'y'.repeat(index)}`), text('thinking'));
      }
      const guard = guardWith();
      expect(play(guard, steps).some((verdict) => verdict.stop)).toBe(false);
      // Thirty answers with information of their own: outcomes, kept in the run's shared memory of them; no failure.
      expect(guard.summary().detectors.stagnation).toMatchObject({ steps: 20, newInWindow: 20, distinctFailures: 0 });
    });

    it('compares an answer with information of its own together with its call: one answer to many calls is news each time', () => {
      const acknowledged = (answer: unknown) => Array.from({ length: 60 }, (_, index) => calls(call('write_file', { path: `src/f${String(index)}.ts` }, { result: answer })));
      for (const answer of ['ok', 'File written successfully.', { success: true }, '{"success":true}', 'done 1', 0, true]) {
        expect(play(guardWith(), acknowledged(answer)).every((verdict) => !verdict.stop && verdict.warnings === undefined), JSON.stringify(answer)).toBe(true);
      }
    });

    it('compares a number as a value with its call: 42 after 17 is news, and so is 42 to another sum', () => {
      const numbers = Array.from({ length: 60 }, (_, index) => calls(call('calc', { n: index }, { result: (index % 3) * 7 })));
      expect(play(guardWith(), numbers).some((verdict) => verdict.stop)).toBe(false);
      const asText = Array.from({ length: 60 }, (_, index) => calls(call('calc', { n: index }, { result: String(index % 3) })));
      expect(play(guardWith(), asText).some((verdict) => verdict.stop)).toBe(false);
    });

    it('compares an empty answer to a short call as it is, across calls: [] after [] is nothing found again', () => {
      const empty = Array.from({ length: 20 }, (_, index) => calls(call('find', { name: `f${String(index)}` }, { result: [] })));
      expect(play(guardWith(), empty).at(-1)).toMatchObject({ stop: true, evidence: { newOutcomes: 1, answers: [{ shapePreview: '[]', count: 20 }] } });
      const mixed = Array.from({ length: 20 }, (_, index) => calls(call('find', { name: `f${String(index)}` }, { result: index % 2 === 0 ? '' : '<output></output>' })));
      expect(play(guardWith(), mixed).at(-1)).toMatchObject({ stop: true, evidence: { newOutcomes: 2 } });
      // The text a tool wrote and the data it returned are two answers, as everywhere else.
      const textAndData = Array.from({ length: 20 }, (_, index) => calls(call('find', { name: `f${String(index)}` }, { result: index % 2 === 0 ? '[]' : [] })));
      expect(play(guardWith(), textAndData).at(-1)).toMatchObject({ stop: true, evidence: { newOutcomes: 2 } });
    });

    it('compares an empty answer to a long call (a write) by the call, so different writes are progress', () => {
      const write = (index: number, length: number): GuardStep =>
        calls(call('write', { body: `${String(index)}${'w'.repeat(length)}` }, { result: '<output>\n</output>' }));
      // Arguments of 70 canonical characters: `{"body":"` (9) + digits + padding + `"}` (2).
      const long = Array.from({ length: 30 }, (_, index) => write(index + 10, 57));
      expect(play(guardWith(), long).some((verdict) => verdict.stop)).toBe(false);
      const short = Array.from({ length: 20 }, (_, index) => write(index + 10, 56));
      expect(play(guardWith(), short).at(-1)?.stop).toBe(true);
      expect(play(guardWith({ writeArgsLength: 69 }), short).at(-1)?.stop).toBe(false);
    });

    it('compares a failure by its shape, whatever the call: text, JSON text and structured data each by their own', () => {
      const failing = (result: (index: number) => unknown) =>
        play(guardWith(), Array.from({ length: 20 }, (_, index) => calls(call('search', { q: `t${String(index)}` }, { result: result(index) })))).at(-1);
      expect(failing((index) => `t${String(index)}: command not found`)).toMatchObject({
        stop: true,
        evidence: { newOutcomes: 1, answers: [{ shapePreview: '0: command not found', count: 20 }] },
      });
      expect(failing((index) => JSON.stringify({ error: `No match for t${String(index)}` }))).toMatchObject({
        stop: true,
        evidence: { newOutcomes: 1, answers: [{ shapePreview: '{"":""}', count: 20 }] },
      });
      // Structured data by the fields that say it failed or found nothing, whatever else it holds.
      expect(failing((index) => ({ results: [], query: `t${String(index)}` }))).toMatchObject({
        stop: true,
        evidence: { newOutcomes: 1, answers: [{ shapePreview: '{"":[]}', count: 20 }] },
      });
      // The same failure as text and as data are two answers.
      expect(failing((index) => (index % 2 === 0 ? { error: 'x' } : '{"error":"x"}'))).toMatchObject({ stop: true, evidence: { newOutcomes: 2 } });
    });

    it('keeps a failure apart from a result that reads the same, and a call without a result by the call itself', () => {
      const steps = Array.from({ length: 20 }, (_, index) =>
        calls(index % 2 === 0 ? call('run', { n: index }, { result: 'boom not found' }) : call('run', { n: index }, { error: 'boom not found' })),
      );
      expect(play(guardWith(), steps).at(-1)).toMatchObject({ stop: true, evidence: { newOutcomes: 2 } });
      const noResults = Array.from({ length: 20 }, (_, index) => calls(call('ping', { n: index })));
      expect(play(guardWith(), noResults).some((verdict) => verdict.stop)).toBe(false);
    });
  });

  describe('structured data and errors', () => {
    /** A page of orders: one layout, new ids, items and totals on every page. */
    const page = (index: number): GuardStep =>
      calls(call('list_orders', { page: index }, { result: { page: index, orders: [{ id: `o-${String(index)}`, item: `item ${'i'.repeat(index)}`, total: 10 + index }] } }));

    it('takes pages of one layout for news, as data and as the JSON text a tool wrote', () => {
      expect(play(guardWith(), Array.from({ length: 40 }, (_, index) => page(index))).some((verdict) => verdict.stop)).toBe(false);
      const asText = Array.from({ length: 40 }, (_, index) => calls(call('list_orders', { page: index }, { result: JSON.stringify(page(index).toolCalls?.[0]?.result) })));
      expect(play(guardWith(), asText).some((verdict) => verdict.stop)).toBe(false);
    });

    it('still stops on the same call answered the same way, and shows that answer in evidence as it is', () => {
      const order = [0, 1, 2, 3, 4, 0, 2, 1, 3, 4, 1, 0, 2, 4, 3, 0, 1, 2, 3, 4, 2, 0];
      const steps = order.map((index) => calls(call('get_order', { id: index }, { result: { id: index, status: 'shipped' } })));
      expect(play(guardWith(), steps).at(19)).toMatchObject({
        stop: true,
        evidence: {
          newOutcomes: 5,
          distinctCalls: 5,
          answers: [0, 1, 2].map((id) => ({ shapePreview: `{"id":${String(id)},"status":"shipped"}`, count: 4 })),
        },
      });
    });

    it('reads a thrown error by its message: other messages are other answers, one message about other names is one', () => {
      const failing = (message: (index: number) => string): GuardStep[] =>
        Array.from({ length: 20 }, (_, index) => calls(call('open', { path: `f${String(index)}` }, { error: new Error(message(index)) })));
      const words = ['permission', 'timeout', 'missing', 'locked', 'busy', 'closed', 'moved', 'empty', 'binary', 'huge'];
      expect(play(guardWith(), failing((index) => `${String(words[index % 10])} ${'x'.repeat(index)}`)).some((verdict) => verdict.stop)).toBe(false);
      expect(play(guardWith(), failing((index) => `File not found: "f${String(index)}"`)).at(-1)).toMatchObject({
        stop: true,
        evidence: { newOutcomes: 1, answers: [{ shapePreview: 'error: Error: File not found: ""', count: 20 }] },
      });
    });

    it('compares an error without a string message as it is', () => {
      const steps = Array.from({ length: 20 }, (_, index) => calls(call('open', { path: `f${String(index)}` }, { error: { code: 'ENOENT', path: `f${String(index)}` } })));
      expect(play(guardWith(), steps).some((verdict) => verdict.stop)).toBe(false);
      const same = Array.from({ length: 20 }, (_, index) => calls(call('open', { path: `f${String(index)}` }, { error: { code: 'ENOENT' } })));
      expect(play(guardWith(), same).at(-1)).toMatchObject({ stop: true, evidence: { answers: [{ shapePreview: 'error: {"code":"ENOENT"}', count: 20 }] } });
    });
  });

  it('says "once" when every call of the window was made once and every answer had come before', () => {
    // Twenty files read, then read again in the same order: each answer seen before, each call once in the window.
    const reads = Array.from({ length: 40 }, (_, index) => calls(call('view', { path: `file${'f'.repeat(index % 20)}` }, { result: `text ${'t'.repeat(index % 20)}` })));
    const verdict = play(guardWith(), reads).at(-1);
    expect(verdict).toMatchObject({
      code: 'STAGNATION',
      detail: 'Only 0 of the last 20 steps with tool calls brought an answer not seen before in this run; view({"path":"file"}) was called once.',
    });
  });

  it('keeps the latest 100 step indexes in evidence, whatever the window', () => {
    const stale = Array.from({ length: 150 }, (_, index) => grep(`p${String(index)}`, 'nothing found'));
    const verdict = play(guardWith({ window: 150, maxNew: 1 }), stale).at(-1);
    expect(verdict).toMatchObject({ stop: true, evidence: { window: 150, newOutcomes: 1, callCount: 150 } });
    expect(verdict?.stop === true && verdict.reason === 'stagnation' ? verdict.evidence.stepIndexes : []).toEqual(Array.from({ length: 100 }, (_, index) => index + 50));
  });

  it('never stops a run whose every step brings an answer it has not seen', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('grep', 'view', 'ls'), fc.integer({ min: 1, max: 3 })), { minLength: 1, maxLength: 80 }),
        fc.integer({ min: 2, max: 30 }),
        (plan, window) => {
          const guard = guardWith({ window, maxNew: window - 1 });
          let answer = 0;
          for (const [tool, width] of plan) {
            // Every call's answer holds a word no earlier answer held.
            const parallel = Array.from({ length: width }, () => call(tool, { n: answer }, { result: `found ${'z'.repeat(++answer)}` }));
            expect(guard.check(calls(...parallel)).stop).toBe(false);
          }
        },
      ),
    );
  });

  it('reports its state and starts over on reset', () => {
    const guard = guardWith({ window: 3, maxNew: 0 });
    expect(guard.summary().detectors.stagnation).toEqual({ window: 3, maxNew: 0, steps: 0, newInWindow: 0, distinctFailures: 0 });
    guard.check(grep('a', 'not found'));
    guard.check(grep('b', 'not found'));
    expect(guard.summary().detectors.stagnation).toEqual({ window: 3, maxNew: 0, steps: 2, newInWindow: 1, distinctFailures: 1 });
    guard.reset();
    expect(guard.summary().detectors.stagnation).toEqual({ window: 3, maxNew: 0, steps: 0, newInWindow: 0, distinctFailures: 0 });
  });

  it('with historyLimit, counts an answer as seen only when one of the last historyLimit steps brought it', () => {
    // Failures A B C A B C ...: within a memory of 2 steps, every answer is new again.
    const cycle = Array.from({ length: 30 }, (_, index) => grep(`p${String(index)}`, `${String(['alpha', 'beta', 'gamma'][index % 3])} not found`));
    expect(play(guardWith({ window: 6, maxNew: 2 }), cycle).some((verdict) => verdict.stop)).toBe(true);
    expect(play(guardWith({ window: 6, maxNew: 2 }, { historyLimit: 2 }), cycle).some((verdict) => verdict.stop)).toBe(false);
  });

  it('peeks at a step exactly as it checks it, repeated calls within the step included', () => {
    const twice = calls(call('grep', { pattern: 'c' }, { result: 'y not found' }), call('grep', { pattern: 'c' }, { result: 'y not found' }));
    const steps = [grep('a', 'x not found'), grep('b', 'x not found')];
    const peeking = guardWith({ window: 2, maxNew: 1 });
    play(peeking, steps);
    const peeked = peeking.peek(twice);
    expect(peeked).toMatchObject({ stop: true, evidence: { newOutcomes: 1, callCount: 2 } });
    expect(peeking.check(twice)).toStrictEqual(peeked);
  });

  it('goes on from a snapshot taken mid-run exactly as without one, failures compared by shape and answers with their call', () => {
    const steps = Array.from({ length: 30 }, (_, index) =>
      index % 4 === 0 ? calls(call('get', { id: index }, { result: 'ok' })) : grep(`p${String(index)}`, `No matches found for "p${String(index)}"`),
    );
    const uninterrupted = play(guardWith(), steps);
    const before = guardWith();
    play(before, steps.slice(0, 13));
    const restored = createGuard({ ...ALL_OFF, stagnation: {} }, { snapshot: JSON.parse(JSON.stringify(before.snapshot())) as unknown });
    expect(play(restored, steps.slice(13))).toEqual(uninterrupted.slice(13));
    expect(uninterrupted.findIndex((verdict) => verdict.stop)).toBe(19);
  });

  it('gives the same verdicts through the replay path as through check', () => {
    const steps = Array.from({ length: 25 }, (_, index) => grep(`t${String(index)}`, 'No matches'));
    const direct = play(guardWith(), steps);
    const replayed = play(guardWith(), JSON.parse(JSON.stringify(steps)) as GuardStep[]);
    expect(replayed).toEqual(direct);
  });
});

describe('stagnation options', () => {
  it.each([
    [{ window: 1 }, 'option "stagnation.window" must be an integer from 2 to 1000, got 1.'],
    [{ window: 1001 }, 'option "stagnation.window" must be an integer from 2 to 1000, got 1001.'],
    [{ window: 2.5 }, 'option "stagnation.window" must be an integer from 2 to 1000, got 2.5.'],
    [{ maxNew: -1 }, 'option "stagnation.maxNew" must be an integer from 0 to 19, got -1.'],
    [{ maxNew: 20 }, 'option "stagnation.maxNew" must be an integer from 0 to 19, got 20.'],
    [{ window: 5, maxNew: 5 }, 'option "stagnation.maxNew" must be an integer from 0 to 4, got 5.'],
    [{ writeArgsLength: -1 }, 'option "stagnation.writeArgsLength" must be an integer of at least 0, got -1.'],
    [{ size: 3 }, 'unknown option "stagnation.size"'],
  ])('refuses %j', (options, message) => {
    expect(() => createGuard({ stagnation: options as GuardOptions['stagnation'] })).toThrow(TypeError);
    expect(() => createGuard({ stagnation: options as GuardOptions['stagnation'] })).toThrow(message);
  });

  it('keeps maxNew below a smaller window when only the window is given', () => {
    expect(createGuard({ stagnation: { window: 4 } }).summary().detectors.stagnation).toMatchObject({ window: 4, maxNew: 3 });
  });
});

describe('stagnation warnings', () => {
  it('warns while a full window holds maxNew + warnBefore new steps, and stops at maxNew', () => {
    const guard = guardWith({ window: 4, maxNew: 1 });
    const steps = [grep('a', 'one'), grep('b', 'two'), grep('c', 'Nothing found'), grep('d', 'Nothing found'), grep('e', 'Nothing found'), grep('f', 'Nothing found')];
    const verdicts = steps.map((step) => guard.check(step));
    expect(verdicts.slice(0, 3).every((verdict) => verdict.warnings === undefined && !verdict.stop)).toBe(true);
    expect(verdicts[3]?.warnings).toBeUndefined();
    expect(verdicts[4]).toEqual({
      stop: false,
      warnings: [
        {
          code: 'LOOP_WARNING',
          reason: 'stagnation',
          detail:
            'Only 2 of the last 4 steps with tool calls brought an answer not seen before in this run; the same answer came back 3 times: "Nothing found". 1 or fewer stop the run.',
          message:
            'Only 2 of the last 4 steps with tool calls brought you an answer you had not seen before; the same failure came back 3 times. Searching the same way is not finding anything new: change your approach, or answer with what you have.',
          evidence: {
            window: 4,
            maxNew: 1,
            newOutcomes: 2,
            calls: [
              { tool: 'grep', argsPreview: '{"pattern":"b"}', count: 1 },
              { tool: 'grep', argsPreview: '{"pattern":"c"}', count: 1 },
              { tool: 'grep', argsPreview: '{"pattern":"d"}', count: 1 },
            ],
            answers: [
              { shapePreview: 'Nothing found', count: 3 },
              { shapePreview: 'two', count: 1 },
            ],
            callCount: 4,
            distinctCalls: 4,
            stepIndexes: [1, 2, 3, 4],
          },
        },
      ],
    });
    expect(verdicts[5]).toMatchObject({ stop: true, code: 'STAGNATION' });
    const silent = guardWith({ window: 4, maxNew: 1, warnBefore: false });
    expect(steps.map((step) => silent.check(step).warnings)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});
