import { describe, expect, it } from 'vitest';
import { createGuard, loopMessage, loopWarnings } from '../../src/index.js';

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
