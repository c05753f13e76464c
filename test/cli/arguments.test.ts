import { describe, expect, it } from 'vitest';
import { parseArguments, USAGE } from '../../src/cli/arguments.js';
import { DEFAULT_STUCK_STATUS } from '../../src/cli/replay.js';

const replay = (fields: { config?: string; json?: boolean; stuckStatus?: RegExp; files: string[] }) => ({
  kind: 'replay',
  config: fields.config,
  json: fields.json ?? false,
  stuckStatus: fields.stuckStatus ?? DEFAULT_STUCK_STATUS,
  files: fields.files,
});

describe('parseArguments', () => {
  it.each([
    [['replay', 'a.jsonl'], replay({ files: ['a.jsonl'] })],
    [['replay', 'a.jsonl', 'b.json.gz'], replay({ files: ['a.jsonl', 'b.json.gz'] })],
    [['--json', 'replay', 'a.jsonl'], replay({ json: true, files: ['a.jsonl'] })],
    [['replay', 'a.jsonl', '--json'], replay({ json: true, files: ['a.jsonl'] })],
    [['replay', '-c', 'g.json', 'a.jsonl'], replay({ config: 'g.json', files: ['a.jsonl'] })],
    [['replay', '-cg.json', 'a.jsonl'], replay({ config: 'g.json', files: ['a.jsonl'] })],
    [['replay', '--config', 'g.json', 'a.jsonl'], replay({ config: 'g.json', files: ['a.jsonl'] })],
    [['replay', '--config=g.json', 'a.jsonl'], replay({ config: 'g.json', files: ['a.jsonl'] })],
    [['replay', '--config=-odd.json', 'a.jsonl'], replay({ config: '-odd.json', files: ['a.jsonl'] })],
    [['replay', '--config', '-', 'a.jsonl'], replay({ config: '-', files: ['a.jsonl'] })],
    [['replay', '-c', 'one.json', '--config', 'two.json', 'a.jsonl'], replay({ config: 'two.json', files: ['a.jsonl'] })],
    [['replay', '--', '--json', '-c'], replay({ files: ['--json', '-c'] })],
    [['replay', '-', 'a.jsonl'], replay({ files: ['-', 'a.jsonl'] })],
    [['--', 'replay', 'a.jsonl'], replay({ files: ['a.jsonl'] })],
    [['replay', '--stuck-status', 'exit_cost', 'a.jsonl'], replay({ stuckStatus: /exit_cost/, files: ['a.jsonl'] })],
    [['replay', '--stuck-status=^(limit|-1)$', 'a.jsonl'], replay({ stuckStatus: /^(limit|-1)$/, files: ['a.jsonl'] })],
  ])('reads %j', (argv, request) => {
    expect(parseArguments(argv)).toEqual(request);
  });

  it.each([[['--help']], [['-h']], [['replay', '--help', 'a.jsonl']], [['nonsense', '-h']], [['replay', '-h']]])('asks for help on %j', (argv) => {
    expect(parseArguments(argv)).toEqual({ kind: 'help' });
  });

  it.each([
    [['replay', '--jsn', 'a.jsonl'], 'unknown option "--jsn"'],
    [['replay', '--jsn=1', 'a.jsonl'], 'unknown option "--jsn"'],
    [['replay', '-x', 'a.jsonl'], 'unknown option "-x"'],
    [['replay', '--json=yes', 'a.jsonl'], 'option "--json" takes no value'],
    [['replay', '--help=yes', 'a.jsonl'], 'option "--help" takes no value'],
    [['replay', '-hx', 'a.jsonl'], 'option "-h" takes no value'],
    [['replay', 'a.jsonl', '--config'], 'option "--config" needs a FILE'],
    [['replay', 'a.jsonl', '-c'], 'option "--config" needs a FILE'],
    [['replay', 'a.jsonl', '--config='], 'option "--config" needs a FILE'],
    [['replay', '--config', '--json', 'a.jsonl'], 'option "--config" needs a FILE; for one that starts with "-", write --config=FILE'],
    [['--help', '--bogus'], 'unknown option "--bogus"'],
    [['replay', 'a.jsonl', '--stuck-status'], 'option "--stuck-status" needs a REGEX'],
    [['replay', '--stuck-status', '-1', 'a.jsonl'], 'option "--stuck-status" needs a REGEX; for one that starts with "-", write --stuck-status=REGEX'],
    [['replay', '--stuck-status', 'exit_(cost', 'a.jsonl'], 'option "--stuck-status" needs a valid REGEX: Invalid regular expression: /exit_(cost/: Unterminated group'],
    [[], 'missing command: expected "replay"'],
    [['--json'], 'missing command: expected "replay"'],
    [['replay'], 'replay needs at least one FILE'],
    [['check', 'a.jsonl'], 'unknown command "check": expected "replay"'],
  ])('rejects %j: %s', (argv, message) => {
    expect(parseArguments(argv)).toEqual({ kind: 'usage-error', message });
  });
});

describe('USAGE', () => {
  it('documents every option, the default stuck statuses and the size caps', () => {
    for (const text of ['--config FILE', '--json', '--stuck-status REGEX', '--help', '(default: exit_cost|max_steps|too_many_errors)', '64 MiB']) {
      expect(USAGE).toContain(text);
    }
  });
});
