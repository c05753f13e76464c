import { describe, expect, it } from 'vitest';
import { createGuard, explain, type StopReason, type Verdict } from '../../src/index.js';
import { ALL_OFF, text, tool } from '../support/step-builder.js';

describe('explain', () => {
  it('writes a continue verdict as one line', () => {
    expect(explain({ stop: false })).toBe('Continue.');
  });

  it('writes the code, the detail and a hint, then the warnings', () => {
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: {}, budget: { maxCostUsd: { limit: 1, warnAt: 0.5 } } });
    guard.check(tool('search', 'q'));
    guard.check(tool('search', 'q'));
    const verdict = guard.check({ ...tool('search', 'q'), usage: { costUsd: 0.6 } });
    expect(explain(verdict)).toBe(
      [
        'Stop [REPEATED_TOOL_CALL] The model called "search" 3 times in a row with the same arguments: search({"id":"q"}).',
        'Hint: The model keeps sending the same call. Make sure the tool result tells it something it can act on, and that the prompt says what to do when a tool fails.',
        'Warning [BUDGET_WARNING] Cost in USD is at 0.6 of a 1 limit (60%).',
      ].join('\n'),
    );
  });

  it('lists warnings on a continue verdict', () => {
    const guard = createGuard({ ...ALL_OFF, budget: { maxTotalTokens: { limit: 10, warnAt: 0.5 } } });
    expect(explain(guard.check({ usage: { totalTokens: 7 } }))).toBe(
      'Continue.\nWarning [BUDGET_WARNING] Total tokens is at 7 of a 10 limit (70%).',
    );
  });

  it('lists a loop warning with its detail, for logs (the message is for the model)', () => {
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: {} });
    guard.check(tool('search', 'q'));
    expect(explain(guard.check(tool('search', 'q')))).toBe(
      'Continue.\nWarning [LOOP_WARNING] The model called "search" 2 times in a row with the same arguments; 3 in a row stop the run.',
    );
  });

  it('writes a stagnation stop with its hint', () => {
    const guard = createGuard({ ...ALL_OFF, stagnation: { window: 2, maxNew: 0 } });
    guard.check(tool('grep', 'a', { result: 'No matches for "a"' }));
    guard.check(tool('grep', 'b', { result: 'No matches for "b"' }));
    expect(explain(guard.check(tool('grep', 'c', { result: 'No matches for "c"' })))).toBe(
      [
        'Stop [STAGNATION] Only 0 of the last 2 steps with tool calls brought an answer not seen before in this run; the same answer came back 2 times: "No matches for """.',
        'Hint: The model keeps getting answers it has already seen: a few calls in an irregular loop, or new arguments that all get the same reply. Tell it what the answers mean, or give it a rule for when to stop searching.',
      ].join('\n'),
    );
  });

  it('says a normal stop needs no fixing', () => {
    const verdict = createGuard().check(text('Done.', 'stop'));
    expect(explain(verdict)).toBe(
      'Stop [FINISH_TERMINAL] The model finished its answer (finish reason "stop").\nHint: The model finished normally; nothing to fix.',
    );
  });

  it('has a distinct hint for every reason', () => {
    const reasons: StopReason[] = ['max-steps', 'repeated-tool-call', 'oscillation', 'no-progress', 'stagnation', 'finish-reason', 'budget', 'custom'];
    const hints = reasons.map((reason) => {
      const verdict = { stop: true, reason, code: 'X', detail: 'd', evidence: { normalized: 'length' } } as unknown as Verdict;
      const [first, hint] = explain(verdict).split('\n');
      expect(first).toBe('Stop [X] d');
      expect(hint).toMatch(/^Hint: \S/);
      return hint;
    });
    expect(new Set(hints).size).toBe(reasons.length);
  });
});

describe('explain on a verdict made by hand', () => {
  it('escapes codes and details, so each line it returns is one line', () => {
    const text = explain({
      stop: true,
      reason: 'custom',
      code: 'X\nY',
      detail: 'first\nStop [FAKE] second',
      evidence: {},
      warnings: [{ code: 'BUDGET_WARNING', metric: 'costUsd', value: 1, limit: 2, ratio: 0.5, detail: 'w\u001b[1A' }],
    });
    expect(text.split('\n')).toEqual([
      'Stop [X\\nY] first\\nStop [FAKE] second',
      'Hint: One of your own detectors asked to stop; its evidence says why.',
      'Warning [BUDGET_WARNING] w\\u001b[1A',
    ]);
  });
});

describe('explain on what judgeCall said', () => {
  it('says whether the call may run, and what the model is told instead', () => {
    expect(explain({ block: false })).toBe('Allowed.');
    expect(
      explain({
        block: true,
        reason: 'repeated-tool-call',
        code: 'REPEATED_TOOL_CALL',
        detail: 'Three in a row.',
        message: 'Not run:\nuse what you have.',
        evidence: { tool: 'a', argsPreview: '{}', count: 3, threshold: 3, stepIndexes: [0, 1, 2], identicalResults: true },
      }).split('\n'),
    ).toEqual(['Blocked [REPEATED_TOOL_CALL] Three in a row.', 'Message: Not run:\\nuse what you have.']);
  });
});
