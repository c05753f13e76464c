import { describe, expect, it } from 'vitest';
import type { InputError, RecordedRun } from '../../src/cli/read-runs.js';
import { summarize, type RunReplay } from '../../src/cli/replay.js';
import {
  formatInputError,
  formatStopLine,
  formatSummary,
  jsonReport,
  MAX_LISTED_ERRORS,
  textReport,
  type ReportWriter,
} from '../../src/cli/report.js';
import { captureIo, replayOf } from './support.js';

describe('formatStopLine', () => {
  it('writes id, 1-based step out of the run, code and detail', () => {
    const replay = replayOf('healthy', { index: 0, code: 'NO_PROGRESS', detail: 'Nothing new.' }, { id: 'run-1', steps: 12 });
    expect(replay.stop).not.toBeNull();
    expect(formatStopLine(replay, replay.stop ?? { index: -1, reason: 'custom', code: '', fault: true, detail: '' })).toBe(
      'run-1  step 1/12  NO_PROGRESS  Nothing new.\n',
    );
  });
});

describe('escaping in the text report', () => {
  it('escapes a run id, code and detail, so a newline or terminal escape cannot forge a line', () => {
    const replay = replayOf(null, { code: 'X\u001b[2K', detail: 'called "a\nrun-2  step 1/1  FAKE"' }, { id: 'run-1\n\u001b[31mred' });
    const line = formatStopLine(replay, replay.stop ?? { index: -1, reason: 'custom', code: '', fault: true, detail: '' });
    expect(line).toBe('run-1\\n\\u001b[31mred  step 1/10  X\\u001b[2K  called "a\\nrun-2  step 1/1  FAKE"\n');
    expect(line.split('\n')).toHaveLength(2);
  });

  it('escapes codes in the summary and file names and messages of input errors', () => {
    expect(formatSummary(summarize([replayOf(null, { code: 'A\u202eB' })]), { badInputs: 0, costKnown: true, stuckStatus: EXIT_COST })).toContain('stops by code: A\\u202eB 1\n');
    expect(formatInputError({ file: 'a\nb.jsonl', line: 2, message: 'bad \u001b[0m' })).toBe('a\\nb.jsonl:2: bad \\u001b[0m');
  });
});

describe('formatSummary', () => {
  it('counts the runs with steps in another shape and names their fields, sorted and escaped, only when there are some', () => {
    const replays = [
      replayOf(null, null, { inputShape: ['usage.prompt_tokens', 'toolCalls[].toolName'] }),
      replayOf(null, null, { inputShape: ['tool\ncalls'] }),
      replayOf(null, null),
    ];
    expect(formatSummary(summarize(replays), { badInputs: 0, costKnown: true, stuckStatus: EXIT_COST })).toBe(
      'runs: 3, stopped: 0, fault stops: 0\nstops by code: none\nmedian stop step: -\n' +
        'runs with steps in another shape, not read (INPUT_SHAPE): 2 (tool\\ncalls, toolCalls[].toolName, usage.prompt_tokens)\n',
    );
    expect(formatSummary(summarize([replayOf(null, null)]), { badInputs: 0, costKnown: true, stuckStatus: EXIT_COST })).not.toContain('INPUT_SHAPE');
  });

  it('orders codes by count, then by name, and groups big numbers by thousands', () => {
    const replays = [
      ...Array.from({ length: 3 }, () => replayOf(null, { code: 'B' })),
      replayOf(null, { code: 'D' }),
      replayOf(null, { code: 'C' }),
      ...Array.from({ length: 3 }, () => replayOf(null, { code: 'A' })),
    ];
    expect(formatSummary(summarize(replays), { badInputs: 0, costKnown: true, stuckStatus: EXIT_COST })).toBe(
      'runs: 8, stopped: 8, fault stops: 8\nstops by code: A 3, B 3, C 1, D 1\nmedian stop step: 1\n',
    );
    const saved = { steps: 1234, inputTokens: 0, outputTokens: 0, totalTokens: 12_345_678.4, costUsd: 1234.567 };
    const summary = summarize([replayOf('stuck', {}, { caught: true, afterStop: saved })]);
    expect(formatSummary(summary, { badInputs: 2, costKnown: true, stuckStatus: EXIT_COST })).toBe(
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

  it('names the pattern that made runs stuck, escaped', () => {
    const summary = summarize([replayOf('stuck', null)]);
    const stuckLine = (stuckStatus: RegExp) =>
      formatSummary(summary, { badInputs: 0, costKnown: false, stuckStatus }).split('\n').find((line) => line.startsWith('stuck runs'));
    expect(stuckLine(/exit_cost|max_steps|too_many_errors/)).toBe(
      'stuck runs (unresolved, exit_cost|max_steps|too_many_errors): 1, catches: 0 (0.0%), saving 0 steps, 0 tokens, cost unknown',
    );
    // A pattern given on the command line can hold a raw newline.
    expect(stuckLine(new RegExp(['limit', ''].join('\n')))).toBe('stuck runs (unresolved, limit\\n): 1, catches: 0 (0.0%), saving 0 steps, 0 tokens, cost unknown');
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
    expect(formatSummary(summary, { badInputs: 0, costKnown: true, stuckStatus: EXIT_COST }).split('\n').slice(3)).toEqual([
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

/** Feeds runs and errors to a report writer, in the given order, and ends it with their summary. */
function write(report: ReportWriter, items: readonly (RunReplay | InputError)[]): void {
  const replays: RunReplay[] = [];
  for (const item of items) {
    if ('message' in item) report.error(item);
    else {
      replays.push(item);
      report.run(item, NO_STEPS);
    }
  }
  report.end(summarize(replays));
}

/** A recorded run for writers that only look at its steps. */
const NO_STEPS: RecordedRun = { id: 'r', file: 'f.jsonl', line: 1, outcome: null, steps: [] };

const EXIT_COST = /exit_cost/;

const badLine = (line: number): InputError => ({ file: 'bad.jsonl', line, message: 'not valid JSON: x' });

describe('textReport', () => {
  it('prints a line per stopped run as it comes, then a blank line, the summary and the count of bad inputs', () => {
    const capture = captureIo();
    const report = textReport(capture.io, EXIT_COST);
    report.run(replayOf(null, { detail: 'first' }, { id: 'a' }), NO_STEPS);
    expect(capture.stdout()).toBe('a  step 1/10  MAX_STEPS  first\n');
    report.run(replayOf(null, null, { id: 'quiet' }), NO_STEPS);
    report.error(badLine(2));
    report.end(summarize([replayOf(null, {}), replayOf(null, null)]));
    expect(capture.stdout()).toBe(
      'a  step 1/10  MAX_STEPS  first\n\nruns: 2, stopped: 1, fault stops: 1\nstops by code: MAX_STEPS 1\nmedian stop step: 1\n' +
        'bad input: 1 (reported on stderr)\n',
    );
    expect(capture.stderr()).toBe('');
  });

  it('prints the summary alone when no run stopped', () => {
    const capture = captureIo();
    write(textReport(capture.io, EXIT_COST), [replayOf(null, null)]);
    expect(capture.stdout()).toBe('runs: 1, stopped: 0, fault stops: 0\nstops by code: none\nmedian stop step: -\n');
  });
});

describe('textReport and costs', () => {
  const stuck = (costUsd?: number): [RunReplay, RecordedRun] => [
    replayOf('stuck', null),
    { ...NO_STEPS, steps: [{ text: 'a' }, { usage: costUsd === undefined ? { inputTokens: 5 } : { costUsd } }] },
  ];
  const savedLine = (...runs: [RunReplay, RecordedRun][]): string | undefined => {
    const capture = captureIo();
    const report = textReport(capture.io, EXIT_COST);
    for (const [replay, recorded] of runs) report.run(replay, recorded);
    report.run(replayOf('healthy', null), { ...NO_STEPS, steps: [{ usage: { costUsd: 1 } }] });
    report.end(summarize(runs.map(([replay]) => replay)));
    return capture.stdout().split('\n').find((line) => line.startsWith('stuck runs'));
  };

  it('writes the saved cost as unknown when no stuck run recorded a cost (a healthy run\'s cost does not count)', () => {
    expect(savedLine(stuck(), stuck())).toBe('stuck runs (unresolved, exit_cost): 2, catches: 0 (0.0%), saving 0 steps, 0 tokens, cost unknown');
  });

  it('writes the saved cost in dollars once a stuck run recorded one, even a zero', () => {
    expect(savedLine(stuck(), stuck(0))).toBe('stuck runs (unresolved, exit_cost): 2, catches: 0 (0.0%), saving 0 steps, 0 tokens, $0.00');
  });
});

describe('jsonReport', () => {
  const stopped = replayOf('stuck', { index: 2, detail: 'quote " and newline \n' }, { id: 'a', caught: true });
  const cases: [string, (RunReplay | InputError)[]][] = [
    ['no runs and no errors', []],
    ['one run', [stopped]],
    ['runs and errors, interleaved', [stopped, badLine(2), replayOf(null, null, { id: 'b', line: 3 }), badLine(4)]],
    ['errors only', [badLine(1)]],
  ];

  it.each(cases)('streams %s with the layout of JSON.stringify(report, null, 2)', (_name, items) => {
    const capture = captureIo();
    write(jsonReport(capture.io), items);
    const runs = items.filter((item): item is RunReplay => !('message' in item));
    const errors = items.filter((item): item is InputError => 'message' in item);
    const expected = { runs, summary: summarize(runs), errors };
    expect(capture.stdout()).toBe(`${JSON.stringify(expected, null, 2)}\n`);
    expect(JSON.parse(capture.stdout())).toEqual(expected);
  });

  it('writes each run as it is reported, before the end', () => {
    const capture = captureIo();
    const report = jsonReport(capture.io);
    expect(capture.stdout()).toBe('{\n  "runs": [');
    report.run(stopped, NO_STEPS);
    expect(capture.stdout()).toBe(`{\n  "runs": [\n    ${JSON.stringify(stopped, null, 2).replaceAll('\n', '\n    ')}`);
  });

  it('lists the first errors up to its cap and counts the rest in errorsNotListed', () => {
    const capture = captureIo();
    write(jsonReport(capture.io, 2), [badLine(1), badLine(2), badLine(3), badLine(4), badLine(5)]);
    const report = JSON.parse(capture.stdout()) as { errors: InputError[]; errorsNotListed: number };
    expect(report.errors).toEqual([badLine(1), badLine(2)]);
    expect(report.errorsNotListed).toBe(3);
    expect(capture.stdout().endsWith(`],\n  "errorsNotListed": 3\n}\n`)).toBe(true);
  });

  it('lists 1,000 errors by default', () => {
    expect(MAX_LISTED_ERRORS).toBe(1000);
  });
});
