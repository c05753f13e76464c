/**
 * Issue 29, items 3 and 6: every string the guard reads counts against the step's budget, tool names included, so no
 * step costs more because a value is shared by many calls; and a detector's evidence costs no more than a step's
 * calls, warnings and stops included. The red team's cases: 10,000 calls sharing one 10 MiB name (30 s, no
 * `INPUT_LIMIT` warning), rotating huge results, a 200,000-key object shared by 20 calls, and stagnation with a window
 * of 1,000 steps of 200 calls (0.6 to 0.85 s a step). Work is asserted by what was read, not by timing: a call cut
 * from the step's budget was not hashed, and evidence lists what it scanned.
 */
import { describe, expect, it } from 'vitest';
import { STEP_CHARACTERS, STEP_VALUES } from '../../src/canonical/form.js';
import { EVIDENCE_CALLS } from '../../src/detectors/stagnation.js';
import { createGuard, type GuardToolCall, type StopVerdictFor } from '../../src/index.js';

const MIB = 1024 * 1024;

function readPerStep(cutCalls: number): object {
  return {
    code: 'INPUT_LIMIT',
    limit: 'readPerStep',
    maximumValues: STEP_VALUES,
    maximumCharacters: STEP_CHARACTERS,
    cutCalls,
    detail: `The step's tool calls held more than one step may read (${STEP_VALUES} values or ${STEP_CHARACTERS} characters); ${cutCalls} ${cutCalls === 1 ? 'call was' : 'calls were'} read in part and compared with no other.`,
  };
}

describe("the step's budget, issue 29 item 3", () => {
  it('charges a shared 10 MiB tool name to every call that has it: 6 fit in 64 Mi characters, 9,994 are cut and warned of', () => {
    const name = 'n'.repeat(10 * MIB);
    const calls = Array.from({ length: 10_000 }, (): GuardToolCall => ({ name, args: { a: 1 } }));
    // The six read are identical calls, and stop the run as a repeat; the rest are compared with nothing.
    const verdict = createGuard().check({ toolCalls: calls });
    expect(verdict).toMatchObject({ stop: true, code: 'REPEATED_TOOL_CALL', evidence: { count: 6 } });
    expect(verdict.warnings).toEqual([readPerStep(9_994)]);
  });

  it('judges a call whose name the step cannot afford as cut: never refused as a repeat', () => {
    const name = 'n'.repeat(10 * MIB);
    const guard = createGuard();
    const earlier = Array.from({ length: 9_999 }, (): GuardToolCall => ({ name, args: { a: 1 } }));
    expect(guard.judgeCall({ name, args: { a: 1 } }, earlier)).toEqual({ block: false });
    // A short name after a long one that took the whole budget is cut too, rather than compared.
    const greedy = createGuard();
    const step = { toolCalls: [{ name: 'x'.repeat(STEP_CHARACTERS), args: {} }, { name: 'search', args: {} }] };
    expect(greedy.check(step)).toEqual({ stop: false, warnings: [readPerStep(1)] });
  });

  it('charges a long result its whole length, however many calls share it: 3 of 64 calls read, 61 cut', () => {
    const results = Array.from({ length: 5 }, (_, index) => String(index).repeat(20 * MIB));
    const calls = Array.from({ length: 64 }, (_, index): GuardToolCall => ({ name: 'read', args: { index }, result: results[index % 5] }));
    expect(createGuard().check({ toolCalls: calls })).toEqual({ stop: false, warnings: [readPerStep(61)] });
  });

  it('reads a 200,000-key object shared by 20 calls as 20 different ones: 10 reads fill the step, 10 calls are cut', () => {
    const shared: Record<string, number> = {};
    for (let index = 0; index < 200_000; index++) shared[`key${String(index)}`] = index;
    const calls = Array.from({ length: 20 }, (): GuardToolCall => ({ name: 'write', args: shared }));
    const verdict = createGuard().check({ toolCalls: calls });
    expect(verdict).toMatchObject({ stop: true, code: 'REPEATED_TOOL_CALL', evidence: { count: 10 } });
    expect(verdict.warnings).toEqual([readPerStep(10)]);
  });
});

describe('the cost of evidence, issue 29 item 6', () => {
  it(`lists stagnation's evidence from at most ${EVIDENCE_CALLS} of the window's latest calls, and counts them all`, () => {
    const guard = createGuard({ stagnation: { window: 100, maxNew: 1 }, maxSteps: false, noProgress: false });
    let verdict = guard.check({ toolCalls: [] });
    // 100 steps of 200 lookups, each of new arguments, all answered "No results found.": only the first is new.
    for (let step = 0; step < 100; step++) {
      const toolCalls = Array.from({ length: 200 }, (_, index): GuardToolCall => ({ name: 'lookup', args: { id: step * 200 + index }, result: 'No results found.' }));
      verdict = guard.check({ toolCalls });
      if (step < 99) expect(verdict.stop).toBe(false);
    }
    expect(verdict).toMatchObject({ stop: true, code: 'STAGNATION' });
    const { evidence } = verdict as StopVerdictFor<'stagnation'>;
    expect(evidence).toMatchObject({
      window: 100,
      maxNew: 1,
      newOutcomes: 1,
      callCount: 20_000,
      // The latest 50 steps' calls, each different.
      distinctCalls: EVIDENCE_CALLS,
      answers: [{ shapePreview: 'No results found.', count: EVIDENCE_CALLS }],
      calls: [
        { tool: 'lookup', argsPreview: '{"id":10000}', count: 1 },
        { tool: 'lookup', argsPreview: '{"id":10001}', count: 1 },
        { tool: 'lookup', argsPreview: '{"id":10002}', count: 1 },
      ],
    });
  });

  it('lists the whole latest step when it alone holds more calls than that', () => {
    const guard = createGuard({ stagnation: { window: 2, maxNew: 0, warnBefore: false }, maxSteps: false, noProgress: false, repeatedToolCall: false });
    const step = (from: number): GuardToolCall[] => Array.from({ length: 10_000 }, (_, index): GuardToolCall => ({ name: 'lookup', args: { id: from + index }, result: 'No results found.' }));
    guard.check({ toolCalls: step(0) });
    guard.check({ toolCalls: step(10_000) });
    const verdict = guard.check({ toolCalls: step(20_000) });
    expect(verdict).toMatchObject({ stop: true, code: 'STAGNATION', evidence: { callCount: 20_000, distinctCalls: 10_000, answers: [{ count: 10_000 }] } });
  });
});
