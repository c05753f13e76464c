import { describe, expect, it } from 'vitest';
import { createGuard, explain, isFault, loopMessage, loopWarnings, type StopReason, type StopVerdict, type Verdict } from '../../src/index.js';
import { expectPlainJson } from '../support/plain-json.js';
import { ALL_OFF, call, calls, text, tool } from '../support/step-builder.js';

describe('verdicts', () => {
  it('go on without a finding: exactly { stop: false }, or with the warnings', () => {
    const verdict = createGuard().check({ text: 'x' });
    expect(verdict).toStrictEqual({ stop: false });
    expect(Object.keys(verdict)).toEqual(['stop']);
    const warned = createGuard({ ...ALL_OFF, budget: { maxCostUsd: { limit: 1, warnAt: 0.5 } } }).check({ usage: { costUsd: 0.5 } });
    expect(warned).toStrictEqual({
      stop: false,
      warnings: [{ code: 'BUDGET_WARNING', metric: 'costUsd', value: 0.5, limit: 1, ratio: 0.5, detail: 'Cost in USD is at 0.5 of a 1 limit (50%).' }],
    });
  });

  it('stop with the reason, the escaped code and detail, and the evidence as plain JSON, without a warnings key', () => {
    const guard = createGuard({ ...ALL_OFF, custom: () => ({ stop: true, code: 'A\nB', detail: 'line\u001b[2K\r\nnext', evidence: { n: 1n, when: new Date(0) } }) });
    const verdict = guard.check({});
    expect(verdict).toStrictEqual({
      stop: true,
      reason: 'custom',
      code: 'A\\nB',
      detail: 'line\\u001b[2K\\r\\nnext',
      evidence: { n: '1n', when: '1970-01-01T00:00:00.000Z' },
    });
    expectPlainJson(verdict);
  });

  it('keep warnings on a stop, after the stop', () => {
    const guard = createGuard({ ...ALL_OFF, maxSteps: 1, budget: { maxCostUsd: { limit: 1, warnAt: 0.5 } } });
    const verdict = guard.check({ usage: { costUsd: 0.5 } });
    expect(Object.keys(verdict)).toEqual(['stop', 'reason', 'code', 'detail', 'evidence', 'warnings']);
    expect(verdict).toMatchObject({ stop: true, reason: 'max-steps', warnings: [{ code: 'BUDGET_WARNING' }] });
  });

  it('escape warning details as stop details are, idempotently, and leave messages and evidence as given', () => {
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: { threshold: 3 } });
    const name = 'search\nStop [FAKE] forged\u202e';
    guard.check(calls(call(name)));
    const verdict = guard.check(calls(call(name)));
    const [warning] = loopWarnings(verdict);
    expect(warning?.detail).toBe('The model called "search\\nStop [FAKE] forged\\u202e" 2 times in a row with the same arguments; 3 in a row stop the run.');
    // The message goes to the model as the user's words: a name that is not a plain identifier is not repeated to it.
    expect(warning?.message).not.toContain('FAKE');
    expect(warning?.message).toMatch(/^You have called a tool 2 times in a row/);
    expect(warning).toMatchObject({ evidence: { tool: name } });
    // Escaped once, a detail has nothing left to escape: explain writes it as it is.
    expect(explain(verdict)).toBe(`Continue.\nWarning [LOOP_WARNING] ${warning?.detail ?? ''}`);
  });

  // The red-team size: escaping 100,000,000 control characters at once killed the process with a fatal V8 error
  // ("invalid size"), which no catch sees. A custom rule that quotes the step's text in its detail got there. (Evidence
  // that holds it is bounded by toPlainJson: test/canonical/plain-json.test.ts.)
  it('stay loggable when a custom rule puts 100 MB of control characters in its detail', () => {
    const guard = createGuard({ ...ALL_OFF, custom: (_history, step) => ({ stop: true, detail: `saw ${String(step.text)}` }) });
    const verdict = guard.check({ text: '\u0001'.repeat(100_000_000) });
    expect(verdict.stop && verdict.detail).toBe(`saw ${'\\u0001'.repeat(1024 * 1024 - 5)}…`);
    expect(JSON.parse(JSON.stringify(verdict))).toStrictEqual(verdict);
  });
});

describe('text written to logs cannot forge lines', () => {
  it('escapes control characters a tool name brings into a detail', () => {
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: { threshold: 2 } });
    const name = 'search\nStop [FAKE] forged line\u001b[2K';
    guard.check(calls(call(name)));
    const verdict = guard.check(calls(call(name)));
    expect(verdict).toMatchObject({
      stop: true,
      detail: 'The model called "search\\nStop [FAKE] forged line\\u001b[2K" 2 times in a row with the same arguments: search\\nStop [FAKE] forged line\\u001b[2K(undefined).',
      // Evidence is data: the name as given.
      evidence: { tool: name },
    });
    expect(verdict.stop && verdict.detail).not.toMatch(/\n/);
  });

  it('escapes control characters a tool name brings into a warning detail, and keeps the name as given in evidence and message', () => {
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: { threshold: 3 } });
    const name = 'search\nWarning [FAKE] forged line\u001b[2K';
    guard.check(calls(call(name)));
    const verdict = guard.check(calls(call(name)));
    const [warning] = verdict.warnings ?? [];
    expect(warning).toMatchObject({
      code: 'LOOP_WARNING',
      detail: 'The model called "search\\nWarning [FAKE] forged line\\u001b[2K" 2 times in a row with the same arguments; 3 in a row stop the run.',
      evidence: { tool: name },
    });
    // The message goes to the model, not to a log, and names no tool whose name is not a plain identifier.
    expect(warning?.code === 'LOOP_WARNING' && warning.message).toMatch(/^You have called a tool 2 times in a row[^\n]*$/);
    expect(explain(verdict).split('\n')).toHaveLength(2);
  });

  it('escapes a custom rule code and detail', () => {
    const guard = createGuard({ ...ALL_OFF, custom: () => ({ stop: true, code: 'A\nB', detail: 'line\r\nnext' }) });
    expect(guard.check({})).toMatchObject({ code: 'A\\nB', detail: 'line\\r\\nnext' });
  });
});

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

describe('isFault', () => {
  it('is false for a continue verdict', () => {
    expect(isFault({ stop: false })).toBe(false);
  });

  it('is false when the model finished normally with stop, in any spelling', () => {
    expect(isFault(createGuard().check(text('Done.', 'stop')))).toBe(false);
    expect(isFault(createGuard().check(text('Done.', ' STOP ')))).toBe(false);
  });

  it.each(['length', 'content-filter', 'error'])('is true for the terminal reason %s', (reason) => {
    expect(isFault(createGuard().check(text('x', reason)))).toBe(true);
  });

  it('is true for a "stop" that a custom terminal list does not contain', () => {
    const verdict = createGuard({ finishReason: { terminal: ['length'], otherPolicy: 'stop' } }).check(text('x', 'stop'));
    expect(verdict).toMatchObject({ code: 'FINISH_OTHER' });
    expect(isFault(verdict)).toBe(true);
  });

  it('is true for every other kind of stop', () => {
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: {} });
    guard.check(tool('a'));
    guard.check(tool('a'));
    expect(isFault(guard.check(tool('a')))).toBe(true);
    expect(isFault(createGuard({ maxSteps: 1 }).check({}))).toBe(true);
    expect(isFault(createGuard().check(text('x', 'other')))).toBe(true);
  });

  it('only treats the finish-reason detector’s own clean stop as no fault, not a custom rule borrowing its code', () => {
    const borrowed = {
      stop: true,
      reason: 'custom',
      code: 'FINISH_TERMINAL',
      detail: 'looks like a clean stop',
      evidence: { normalized: 'stop' },
    } as StopVerdict;
    expect(isFault(borrowed)).toBe(true);
    const guard = createGuard({ ...ALL_OFF, custom: () => ({ stop: true, code: 'FINISH_TERMINAL', evidence: { normalized: 'stop' } }) });
    expect(isFault(guard.check({}))).toBe(true);
  });
});

describe('loopMessage and loopWarnings', () => {
  it('give the loop warnings of a verdict, and their messages one a line', () => {
    const guard = createGuard({ repeatedToolCall: { threshold: 4 }, budget: { maxCostUsd: { limit: 1, warnAt: 0.1 } } });
    const step = { text: 'same', toolCalls: [{ name: 'a', args: { id: 1 } }], usage: { costUsd: 0.05 } };
    expect(loopMessage(guard.check(step))).toBeUndefined();
    guard.check(step);
    const verdict = guard.check(step);
    expect(verdict.warnings?.map((warning) => warning.code)).toEqual(['BUDGET_WARNING', 'LOOP_WARNING', 'LOOP_WARNING']);
    expect(loopWarnings(verdict).map((warning) => warning.reason)).toEqual(['repeated-tool-call', 'no-progress']);
    expect(loopMessage(verdict)?.split('\n')).toHaveLength(2);
    expect(loopMessage(undefined)).toBeUndefined();
    expect(loopWarnings({ stop: false })).toEqual([]);
  });
});
