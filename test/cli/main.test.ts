import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { USAGE } from '../../src/cli/arguments.js';
import { DEFAULT_LIMITS, main } from '../../src/cli/main.js';
import { createGuard, isFault, type GuardOptions, type GuardStep } from '../../src/index.js';
import { captureIo, RUNS, SYNTHETIC, useTempDir } from './support.js';

const at = useTempDir('loopguard-main-');

async function run(argv: string[], limits = DEFAULT_LIMITS): Promise<{ code: number; stdout: string; stderr: string }> {
  const capture = captureIo();
  const code = await main(argv, capture.io, limits);
  return { code, stdout: capture.stdout(), stderr: capture.stderr() };
}

interface JsonRun {
  id: string;
  afterStop?: Record<string, number | null>;
  file: string;
  line: number | null;
  steps: number;
  stop: { index: number; reason: string; code: string; fault: boolean; detail: string } | null;
}

const REPEAT_DETAIL =
  'The model called "bash" 3 times in a row with the same arguments: bash({"command":"pytest -q tests/test_parse.py"}).';

describe('agent-loopguard replay, text output', () => {
  it('prints a line per stopped run, then the summary', async () => {
    const result = await run(['replay', RUNS, SYNTHETIC]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        'mini/django__django-16100  step 50/51  MAX_STEPS  The run has taken 50 steps, reaching its limit of 50.',
        'tau/airline-task26-trial0#5  step 3/3  FINISH_TERMINAL  The model finished its answer (finish reason "stop").',
        'tau/airline-task9-trial2#7  step 7/9  NO_PROGRESS  3 steps in a row brought no new tool result.',
        `synthetic/stuck-repeat  step 4/6  REPEATED_TOOL_CALL  ${REPEAT_DETAIL}`,
        '',
        'runs: 7, stopped: 4, fault stops: 3',
        'stops by code: FINISH_TERMINAL 1, MAX_STEPS 1, NO_PROGRESS 1, REPEATED_TOOL_CALL 1',
        'median stop step: 5.5',
        'healthy runs (resolved): 3, false stops: 1 (33.3%)',
        'stuck runs (unresolved, exit_cost|max_steps|too_many_errors): 2, catches: 1 (50.0%), saving 2 steps, 2,200 tokens, $0.02',
        'ambiguous runs (other unresolved): 2, fault stops: 1 (50.0%)',
        '',
      ].join('\n'),
    );
  });

  it('prints only the summary when no run stopped, and no outcome lines for runs without outcomes', async () => {
    writeFileSync(at('plain.jsonl'), `${JSON.stringify({ id: 'quiet', steps: [{ text: 'hi' }] })}\n`);
    const result = await run(['replay', at('plain.jsonl')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('runs: 1, stopped: 0, fault stops: 0\nstops by code: none\nmedian stop step: -\n');
  });
});

describe('agent-loopguard replay, hostile text', () => {
  it('keeps every stop line on one line whatever the run id and tool name hold, and escapes file names on stderr', async () => {
    const call = { toolCalls: [{ name: 'bash\nevil  step 1/1  FAKE', args: {} }] };
    writeFileSync(at('hostile.jsonl'), `${JSON.stringify({ id: 'run\n\u001b[31mred', steps: [call, call, call] })}\n`);
    writeFileSync(at('bad\nname.jsonl'), 'null\n');
    const result = await run(['replay', at('hostile.jsonl'), at('bad\nname.jsonl')]);
    expect(result.code).toBe(1);
    const [stopLine, blank] = result.stdout.split('\n');
    expect(stopLine).toMatch(/^run\\n\\u001b\[31mred {2}step 3\/3 {2}REPEATED_TOOL_CALL {2}The model called "bash\\nevil {2}step 1\/1 {2}FAKE"/);
    expect(blank).toBe('');
    expect(result.stderr).toBe(`${at('bad\\nname.jsonl')}:1: expected a run object with a "steps" array, got null\n`);
    expect(result.stderr.split('\n')).toHaveLength(2);
  });

  it('escapes the command line it quotes in a usage error', async () => {
    const result = await run(['replay', '--\u001b[2J', RUNS]);
    expect(result.stderr.startsWith('agent-loopguard: unknown option "--\\u001b[2J"\n\n')).toBe(true);
  });
});

describe('agent-loopguard replay --json', () => {
  it('prints every run with its 0-based stop index, the summary and no errors', async () => {
    const result = await run(['replay', '--json', RUNS, SYNTHETIC]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout) as { runs: JsonRun[]; summary: unknown; errors: unknown[] };
    expect(report.runs.map((r) => [r.id, r.file, r.line, r.steps, r.stop?.index ?? null, r.stop?.code ?? null])).toEqual([
      ['mini/django__django-11163', RUNS, 1, 13, null, null],
      ['mini/django__django-16100', RUNS, 2, 51, 49, 'MAX_STEPS'],
      ['mini/django__django-15127', RUNS, 3, 18, null, null],
      ['tau/airline-task26-trial0#5', RUNS, 4, 3, 2, 'FINISH_TERMINAL'],
      ['tau/airline-task9-trial2#7', RUNS, 5, 9, 6, 'NO_PROGRESS'],
      ['synthetic/stuck-repeat', SYNTHETIC, 1, 6, 3, 'REPEATED_TOOL_CALL'],
      ['synthetic/stuck-varied', SYNTHETIC, 2, 4, null, null],
    ]);
    expect(report.runs[5]).toEqual({
      id: 'synthetic/stuck-repeat',
      file: SYNTHETIC,
      line: 1,
      steps: 6,
      stop: { index: 3, reason: 'repeated-tool-call', code: 'REPEATED_TOOL_CALL', fault: true, detail: REPEAT_DETAIL },
      label: 'stuck',
      falseStop: false,
      caught: true,
      afterStop: { steps: 2, inputTokens: 2000, outputTokens: 200, totalTokens: 2200, costUsd: 0.02 },
      inputShape: [],
    });
    expect(report.runs[3]?.stop).toEqual({
      index: 2,
      reason: 'finish-reason',
      code: 'FINISH_TERMINAL',
      fault: false,
      detail: 'The model finished its answer (finish reason "stop").',
    });
    expect(report.summary).toEqual({
      runs: 7,
      stopped: 4,
      faultStops: 3,
      stopsByCode: { MAX_STEPS: 1, FINISH_TERMINAL: 1, NO_PROGRESS: 1, REPEATED_TOOL_CALL: 1 },
      medianStopStep: 5.5,
      healthy: { runs: 3, falseStops: 1 },
      stuck: {
        runs: 2,
        catches: 1,
        saved: { steps: 2, inputTokens: 2000, outputTokens: 200, totalTokens: 2200, costUsd: 0.02 },
      },
      ambiguous: { runs: 2, faultStops: 1 },
      inputShape: { runs: 0, fields: {} },
    });
    expect(report.errors).toEqual([]);
  });

  it('reads gzip-compressed JSON lines and gives the same report', async () => {
    writeFileSync(at('runs.jsonl.gz'), gzipSync(readFileSync(RUNS)));
    const plain = JSON.parse((await run(['replay', '--json', RUNS])).stdout) as { runs: JsonRun[]; summary: unknown };
    const gzipped = await run(['replay', '--json', at('runs.jsonl.gz')]);
    expect(gzipped.code).toBe(0);
    const report = JSON.parse(gzipped.stdout) as { runs: JsonRun[]; summary: unknown };
    const withoutFile = (runs: JsonRun[]) => runs.map((r) => ({ ...r, file: '' }));
    expect(withoutFile(report.runs)).toEqual(withoutFile(plain.runs));
    expect(report.runs.every((r) => r.file === at('runs.jsonl.gz'))).toBe(true);
    expect(report.summary).toEqual(plain.summary);
  });

  it('reads .json documents: an array of steps, an array of runs, one run', async () => {
    const steps = Array.from({ length: 4 }, () => ({ toolCalls: [{ name: 'search', args: { q: 'x' } }] }));
    writeFileSync(at('steps.json'), JSON.stringify(steps));
    writeFileSync(at('runs.json'), JSON.stringify([{ id: 'a', steps }, { steps: steps.slice(0, 1) }]));
    writeFileSync(at('one.json.gz'), gzipSync(JSON.stringify({ id: 'solo', steps })));
    const result = await run(['replay', '--json', at('steps.json'), at('runs.json'), at('one.json.gz')]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { runs: JsonRun[] };
    expect(report.runs.map((r) => [r.id, r.file, r.line, r.steps, r.stop?.index ?? null, r.stop?.code ?? null])).toEqual([
      [at('steps.json'), at('steps.json'), null, 4, 2, 'REPEATED_TOOL_CALL'],
      ['a', at('runs.json'), null, 4, 2, 'REPEATED_TOOL_CALL'],
      [`${at('runs.json')}#2`, at('runs.json'), null, 1, null, null],
      ['solo', at('one.json.gz'), null, 4, 2, 'REPEATED_TOOL_CALL'],
    ]);
  });
});

describe('agent-loopguard replay --json, usage figures', () => {
  it('writes the saved usage of huge figures as the largest finite number, never null', async () => {
    const step = { text: 'a', usage: { inputTokens: 1e308, outputTokens: 1, costUsd: 1e308 } };
    writeFileSync(at('huge.jsonl'), `${JSON.stringify({ id: 'huge', steps: [{ text: 'first' }, step, step] })}\n`);
    writeFileSync(at('one-step.json'), JSON.stringify({ maxSteps: 1 }));
    const result = await run(['replay', '--json', '--config', at('one-step.json'), at('huge.jsonl')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"inputTokens": 1.7976931348623157e+308');
    expect(result.stdout).not.toContain('null,\n        "outputTokens"');
    const report = JSON.parse(result.stdout) as { runs: JsonRun[] };
    expect(report.runs[0]).toMatchObject({
      stop: { index: 0, code: 'MAX_STEPS' },
      afterStop: { steps: 2, inputTokens: Number.MAX_VALUE, outputTokens: 2, totalTokens: Number.MAX_VALUE, costUsd: Number.MAX_VALUE },
    });
  });
});

describe('agent-loopguard replay --config', () => {
  it('replays with the options of the file', async () => {
    writeFileSync(at('guard.json'), JSON.stringify({ maxSteps: false, repeatedToolCall: { threshold: 5 } }));
    const result = await run(['replay', '--config', at('guard.json'), '--json', RUNS, SYNTHETIC]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { runs: JsonRun[] };
    expect(report.runs.map((r) => r.stop?.code ?? null)).toEqual([
      null, // mini/django__django-16100 ran all 51 steps with maxSteps off
      null,
      null,
      'FINISH_TERMINAL',
      'NO_PROGRESS',
      'NO_PROGRESS', // the third pytest call that brings nothing new, before a repeat of 5 is reached
      null,
    ]);
    expect(report.runs[5]?.stop?.index).toBe(4);
  });

  it('accepts -c', async () => {
    writeFileSync(at('steps-20.json'), JSON.stringify({ maxSteps: 20 }));
    const result = await run(['replay', '-c', at('steps-20.json'), RUNS]);
    expect(result.stdout).toContain('mini/django__django-16100  step 20/51  MAX_STEPS  The run has taken 20 steps, reaching its limit of 20.\n');
  });

  it('rejects options createGuard rejects, naming the file, with exit code 2 and nothing replayed', async () => {
    writeFileSync(at('bad-threshold.json'), JSON.stringify({ repeatedToolCall: { threshold: 1 } }));
    const result = await run(['replay', '--config', at('bad-threshold.json'), RUNS]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `agent-loopguard: ${at('bad-threshold.json')}: option "repeatedToolCall.threshold" must be an integer of at least 2, got 1.\n`,
    );
  });

  it('exits 2 on a config that would blow up the guard, a function option, or a file name with a newline, and replays nothing', async () => {
    writeFileSync(at('huge-period.json'), JSON.stringify({ oscillation: { maxPeriod: 1e9 } }));
    writeFileSync(at('now.json'), JSON.stringify({ now: 0 }));
    writeFileSync(at('bad\nname.json'), '[');
    for (const config of [at('huge-period.json'), at('now.json'), at('bad\nname.json')]) {
      const result = await run(['replay', '--config', config, RUNS]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')).toHaveLength(2);
    }
  });

  it('rejects unknown options', async () => {
    writeFileSync(at('unknown.json'), JSON.stringify({ maxStep: 3 }));
    const result = await run(['replay', '--config', at('unknown.json'), RUNS]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^agent-loopguard: ${at('unknown.json')}: unknown option "maxStep"`));
  });

  it('rejects a config that is not JSON, or missing', async () => {
    writeFileSync(at('broken.json'), '{ maxSteps: 3 }');
    const broken = await run(['replay', '--config', at('broken.json'), RUNS]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(new RegExp(`^agent-loopguard: ${at('broken.json')}: not valid JSON: `));
    const missing = await run(['replay', '--config', at('nope.json'), RUNS]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(new RegExp(`^agent-loopguard: ${at('nope.json')}: cannot read: ENOENT`));
  });
});

describe('agent-loopguard replay, bad input', () => {
  it('names the file and line of a bad line, replays the other runs, and exits 1', async () => {
    const good = readFileSync(SYNTHETIC, 'utf8').trimEnd().split('\n');
    writeFileSync(at('bad-line.jsonl'), [good[0], '{"id": "cut', '', '{"id": "no-steps"}', good[1], ''].join('\n'));
    const result = await run(['replay', '--json', at('bad-line.jsonl'), RUNS]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^${at('bad-line.jsonl')}:2: not valid JSON: .+\n${at('bad-line.jsonl')}:4: "steps" must be an array, got undefined\n$`));
    const report = JSON.parse(result.stdout) as { runs: JsonRun[]; errors: { file: string; line: number }[] };
    expect(report.runs.map((r) => [r.id, r.line])).toEqual([
      ['synthetic/stuck-repeat', 1],
      ['synthetic/stuck-varied', 5],
      ['mini/django__django-11163', 1],
      ['mini/django__django-16100', 2],
      ['mini/django__django-15127', 3],
      ['tau/airline-task26-trial0#5', 4],
      ['tau/airline-task9-trial2#7', 5],
    ]);
    expect(report.errors.map((e) => [e.file, e.line])).toEqual([
      [at('bad-line.jsonl'), 2],
      [at('bad-line.jsonl'), 4],
    ]);
  });

  it('counts bad input in the text summary', async () => {
    writeFileSync(at('one-bad.jsonl'), 'null\n');
    const result = await run(['replay', at('one-bad.jsonl')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`${at('one-bad.jsonl')}:1: expected a run object with a "steps" array, got null\n`);
    expect(result.stdout).toBe(
      'runs: 0, stopped: 0, fault stops: 0\nstops by code: none\nmedian stop step: -\nbad input: 1 (reported on stderr)\n',
    );
  });

  it('reports a missing file and goes on with the next', async () => {
    const result = await run(['replay', at('missing.jsonl'), SYNTHETIC]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^${at('missing.jsonl')}: cannot read: ENOENT`));
    expect(result.stdout).toContain('runs: 2, stopped: 1');
  });
});

describe('agent-loopguard replay --stuck-status', () => {
  const outcomes = [
    { id: 'cost', outcome: { resolved: false, exitStatus: 'submitted (exit_cost)' } },
    { id: 'steps', outcome: { resolved: false, exitStatus: 'max_steps' } },
    { id: 'errors', outcome: { resolved: false, exitStatus: 'too_many_errors' } },
    { id: 'user', outcome: { resolved: false, exitStatus: 'user_stop' } },
  ];
  const labels = async (...flags: string[]): Promise<(string | null)[]> => {
    writeFileSync(at('statuses.jsonl'), outcomes.map((run) => JSON.stringify({ ...run, steps: [{ text: 'a' }] })).join('\n'));
    const result = await run(['replay', '--json', ...flags, at('statuses.jsonl')]);
    expect(result.code).toBe(0);
    return (JSON.parse(result.stdout) as { runs: { label: string | null }[] }).runs.map((r) => r.label);
  };

  it('calls exit_cost, max_steps and too_many_errors stuck by default', async () => {
    expect(await labels()).toEqual(['stuck', 'stuck', 'stuck', 'ambiguous']);
  });

  it('uses the pattern given, and names it in the text summary', async () => {
    expect(await labels('--stuck-status', 'exit_cost')).toEqual(['stuck', 'ambiguous', 'ambiguous', 'ambiguous']);
    expect(await labels('--stuck-status=user_stop|max_steps')).toEqual(['ambiguous', 'stuck', 'ambiguous', 'stuck']);
    const text = await run(['replay', '--stuck-status', 'user_stop', at('statuses.jsonl')]);
    expect(text.stdout).toContain('\nstuck runs (unresolved, user_stop): 1, catches: 0 (0.0%), saving 0 steps, 0 tokens, cost unknown\n');
  });

  it('exits 2 on a pattern that is not a regular expression, and replays nothing', async () => {
    const result = await run(['replay', '--stuck-status', '(', RUNS]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `agent-loopguard: option "--stuck-status" needs a valid REGEX: Invalid regular expression: /(/: Unterminated group\n\n${USAGE}`,
    );
  });
});

describe('agent-loopguard replay, limits', () => {
  it('uses the documented caps by default', () => {
    expect(DEFAULT_LIMITS).toEqual({ maxLineBytes: 64 * 1024 * 1024, maxDocumentBytes: 64 * 1024 * 1024, maxValues: 4_000_000, maxListedErrors: 1000 });
  });

  it('reports a line or document past its cap, lists errors up to the cap on stdout, and every one on stderr', async () => {
    const long = JSON.stringify({ id: 'long', steps: [{ text: 'x'.repeat(5000) }] });
    writeFileSync(at('capped.jsonl'), ['nope', long, 'nope', readFileSync(SYNTHETIC, 'utf8')].join('\n'));
    writeFileSync(at('capped.json.gz'), gzipSync(JSON.stringify([{ text: 'y'.repeat(400) }])));
    const limits = { maxLineBytes: 4096, maxDocumentBytes: 256, maxValues: 1000, maxListedErrors: 2 };
    const result = await run(['replay', '--json', at('capped.jsonl'), at('capped.json.gz')], limits);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n').map((line) => line.replace(/^.*?(:\d+)?: (not valid JSON).*$/, '$1 $2').replace(/^.*?(:\d+)?: /, '$1 '))).toEqual([
      ':1 not valid JSON',
      ':2 line longer than 4096 bytes',
      ':3 not valid JSON',
      ' document larger than 256 bytes',
      '',
    ]);
    const report = JSON.parse(result.stdout) as { runs: JsonRun[]; errors: { line: number | null }[]; errorsNotListed: number };
    expect(report.runs.map((r) => r.id)).toEqual(['synthetic/stuck-repeat', 'synthetic/stuck-varied']);
    expect(report.errors.map((e) => e.line)).toEqual([1, 2]);
    expect(report.errorsNotListed).toBe(2);
  });
});

describe('agent-loopguard usage', () => {
  it.each([
    [['replay', '--jsn', RUNS], 'unknown option "--jsn"'],
    [['replay', '--config'], 'option "--config" needs a FILE'],
    [[], 'missing command: expected "replay"'],
    [['replay'], 'replay needs at least one FILE'],
    [['check', RUNS], 'unknown command "check": expected "replay"'],
  ])('exits 2 on %j with the problem and the usage on stderr', async (argv, problem) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.startsWith('agent-loopguard: ')).toBe(true);
    expect(result.stderr).toContain(problem);
    expect(result.stderr.endsWith(`\n\n${USAGE}`)).toBe(true);
  });

  it.each([[['--help']], [['-h']], [['replay', '--help', RUNS]]])('prints the usage for %j and exits 0', async (argv) => {
    const result = await run(argv);
    expect(result).toEqual({ code: 0, stdout: USAGE, stderr: '' });
  });
});


interface Run {
  id: string;
  steps: GuardStep[];
}

function readRunsByHand(file: string): Run[] {
  return readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Run);
}

/** The replay done by hand, straight through the public API. */
function replayByHand(run: Run, options?: GuardOptions): { id: string; stop: object | null } {
  const guard = createGuard(options);
  for (const [index, step] of run.steps.entries()) {
    const verdict = guard.check(step);
    if (verdict.stop) {
      return {
        id: run.id,
        stop: { index, reason: verdict.reason, code: verdict.code, fault: isFault(verdict), detail: verdict.detail },
      };
    }
  }
  return { id: run.id, stop: null };
}

async function replayByCommand(argv: string[]): Promise<{ id: string; stop: object | null }[]> {
  const capture = captureIo();
  expect(await main(['replay', '--json', ...argv], capture.io)).toBe(0);
  const report = JSON.parse(capture.stdout()) as { runs: { id: string; stop: object | null }[] };
  return report.runs.map(({ id, stop }) => ({ id, stop }));
}

const runs = [...readRunsByHand(RUNS), ...readRunsByHand(SYNTHETIC)];
const configs: [string, GuardOptions | undefined][] = [
  ['the defaults', undefined],
  ['maxSteps off, repeat threshold 2', { maxSteps: false, repeatedToolCall: { threshold: 2 } }],
  ['only oscillation', { maxSteps: false, repeatedToolCall: false, noProgress: false, finishReason: false, oscillation: { repeats: 2 } }],
  ['a token budget', { maxSteps: false, budget: { maxTotalTokens: 60_000 } }],
];

describe('replay agrees run by run with createGuard', () => {
  it.each(configs)('with %s', async (_name, options) => {
    const argv = [RUNS, SYNTHETIC];
    if (options !== undefined) {
      const config = at('agreement-guard.json');
      writeFileSync(config, JSON.stringify(options));
      argv.unshift('--config', config);
    }
    const byCommand = await replayByCommand(argv);
    const byHand = runs.map((run) => replayByHand(run, options));
    expect(byCommand).toHaveLength(7);
    expect(byCommand).toEqual(byHand);
    // Each config is worth checking only if it stops some runs and lets others through.
    expect(byHand.some((r) => r.stop === null)).toBe(true);
    expect(byHand.some((r) => r.stop !== null)).toBe(true);
  });
});
