import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/cli/replay.js';
import { formatInputError, formatStopLine, formatSummary } from '../../src/cli/report.js';
import { replayOf } from './support.js';

describe('formatStopLine', () => {
  it('writes id, 1-based step out of the run, code and detail', () => {
    const replay = replayOf('healthy', { index: 0, code: 'NO_PROGRESS', detail: 'Nothing new.' }, { id: 'run-1', steps: 12 });
    expect(replay.stop).not.toBeNull();
    expect(formatStopLine(replay, replay.stop ?? { index: -1, reason: 'custom', code: '', fault: true, detail: '' })).toBe(
      'run-1  step 1/12  NO_PROGRESS  Nothing new.\n',
    );
  });
});

describe('formatSummary', () => {
  it('orders codes by count, then by name, and groups big numbers by thousands', () => {
    const replays = [
      ...Array.from({ length: 3 }, () => replayOf(null, { code: 'B' })),
      replayOf(null, { code: 'D' }),
      replayOf(null, { code: 'C' }),
      ...Array.from({ length: 3 }, () => replayOf(null, { code: 'A' })),
    ];
    expect(formatSummary(summarize(replays), 0)).toBe(
      'runs: 8, stopped: 8, fault stops: 8\nstops by code: A 3, B 3, C 1, D 1\nmedian stop step: 1\n',
    );
    const saved = { steps: 1234, inputTokens: 0, outputTokens: 0, totalTokens: 12_345_678.4, costUsd: 1234.567 };
    const summary = summarize([replayOf('stuck', {}, { caught: true, afterStop: saved })]);
    expect(formatSummary(summary, 2)).toBe(
      [
        'runs: 1, stopped: 1, fault stops: 1',
        'stops by code: MAX_STEPS 1',
        'median stop step: 1',
        'healthy runs (resolved): 0, false stops: 0',
        'stuck runs (unresolved, exit_cost): 1, catches: 1 (100.0%), saving 1,234 steps, 12,345,678 tokens, $1234.57',
        'ambiguous runs (other unresolved): 0, fault stops: 0',
        'bad input: 2 (reported on stderr)',
        '',
      ].join('\n'),
    );
  });

  it('gives shares of each kind of run', () => {
    const summary = summarize([
      replayOf('healthy', {}, { falseStop: true }),
      replayOf('healthy', null),
      replayOf('healthy', null),
      replayOf('ambiguous', {}),
      replayOf('ambiguous', null),
      replayOf('stuck', null),
    ]);
    expect(formatSummary(summary, 0).split('\n').slice(3)).toEqual([
      'healthy runs (resolved): 3, false stops: 1 (33.3%)',
      'stuck runs (unresolved, exit_cost): 1, catches: 0 (0.0%), saving 0 steps, 0 tokens, $0.00',
      'ambiguous runs (other unresolved): 2, fault stops: 1 (50.0%)',
      '',
    ]);
  });
});

describe('formatInputError', () => {
  it('writes file:line: message, or file: message without a line', () => {
    expect(formatInputError({ file: 'a.jsonl', line: 3, message: 'bad' })).toBe('a.jsonl:3: bad');
    expect(formatInputError({ file: 'a.json', line: null, message: 'bad' })).toBe('a.json: bad');
  });
});
