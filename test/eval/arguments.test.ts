import { describe, expect, it } from 'vitest';
import { parseEvalArguments } from '../../eval/arguments.js';

describe('parseEvalArguments', () => {
  it('reads no folder by default: only eval/data is read', () => {
    expect(parseEvalArguments([])).toEqual({ kind: 'run', traces: [], out: undefined });
  });

  it('adds each --traces folder, in order, in both spellings', () => {
    expect(parseEvalArguments(['--traces', '../shared/traces', '--traces=more'])).toEqual({
      kind: 'run',
      traces: ['../shared/traces', 'more'],
      out: undefined,
    });
  });

  it('reads --out once', () => {
    expect(parseEvalArguments(['--out', '/tmp/x', '--traces', 'a'])).toEqual({ kind: 'run', traces: ['a'], out: '/tmp/x' });
    expect(parseEvalArguments(['--out', 'a', '--out=b'])).toEqual({ kind: 'usage-error', message: '--out given twice' });
  });

  it('asks for help', () => {
    expect(parseEvalArguments(['--traces', 'a', '-h'])).toEqual({ kind: 'help' });
    expect(parseEvalArguments(['--help'])).toEqual({ kind: 'help' });
  });

  it('refuses a missing or empty folder, unknown options and bare arguments', () => {
    expect(parseEvalArguments(['--traces'])).toEqual({ kind: 'usage-error', message: '--traces needs a folder' });
    expect(parseEvalArguments(['--traces='])).toEqual({ kind: 'usage-error', message: '--traces needs a folder' });
    expect(parseEvalArguments(['--traces', '--out', 'x'])).toEqual({ kind: 'usage-error', message: '--traces needs a folder' });
    expect(parseEvalArguments(['--trace', 'a'])).toEqual({ kind: 'usage-error', message: 'unknown option --trace' });
    const bare = parseEvalArguments(['../shared/traces']);
    expect(bare.kind).toBe('usage-error');
    expect(bare.kind === 'usage-error' && bare.message).toContain('--traces DIR');
  });
});
