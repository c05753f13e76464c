import { describe, expect, it } from 'vitest';
import { escapesLongStringsInPieces } from '../../src/canonical/json-quote.js';
import { toGuardStep } from '../../src/index.js';
import type { AiSdkStepLike, AiSdkUsageLike } from '../../src/index.js';

describe('toGuardStep keeps only what the step had', () => {
  it('maps an empty step to an empty one, without keys holding undefined', () => {
    expect(Object.keys(toGuardStep({}))).toEqual([]);
    expect(Object.keys(toGuardStep({ toolCalls: [], usage: {}, response: { timestamp: new Date(Number.NaN) } }))).toEqual([]);
  });

  it('gives a call without a result or error neither key', () => {
    const step = toGuardStep({ toolCalls: [{ toolCallId: 'c1', toolName: 'search', input: { q: 1 } }] });
    expect(step.toolCalls).toStrictEqual([{ name: 'search', args: { q: 1 } }]);
  });

  it('keeps the SDK error of an invalid call when no tool-error part names it', () => {
    const step = toGuardStep({
      toolCalls: [{ toolCallId: 'c1', toolName: 'search', input: 'not json', invalid: true, error: 'unparsable input' }],
      content: [{ type: 'tool-call', toolCallId: 'c1' }],
    });
    expect(step.toolCalls).toStrictEqual([{ name: 'search', args: 'not json', error: 'unparsable input' }]);
  });

  it('reads only tool-error parts as errors', () => {
    const step = toGuardStep({
      toolCalls: [{ toolCallId: 'c1', toolName: 'search', input: {} }],
      content: [
        { type: 'tool-result', toolCallId: 'c1', error: 'not an error part' },
        { type: 'text', toolCallId: 'c1', error: 'nor this' },
      ],
    });
    expect(step.toolCalls).toStrictEqual([{ name: 'search', args: {} }]);
  });

  it('hands cost an empty object when the step has no usable usage', () => {
    const seen: AiSdkUsageLike[] = [];
    const cost = (usage: AiSdkUsageLike): number => {
      seen.push(usage);
      return 0.5;
    };
    expect(toGuardStep({}, { cost }).usage).toStrictEqual({ costUsd: 0.5 });
    expect(toGuardStep({ usage: 'lots' } as unknown as AiSdkStepLike, { cost }).usage).toStrictEqual({ costUsd: 0.5 });
    expect(seen).toStrictEqual([{}, {}]);
  });

  it('reads no timestamp from a value that is not a Date', () => {
    expect(Object.keys(toGuardStep({ response: { timestamp: 1_700_000_000_000 as unknown as Date } }))).toEqual([]);
    expect(toGuardStep({ response: { timestamp: new Date(5) } }).timestamp).toBe(5);
  });

  it('reads input or args from primitives without throwing, as no field', () => {
    const step = toGuardStep({ toolCalls: ['search' as never, { toolName: 'read', args: 1 }] });
    expect(step.toolCalls).toStrictEqual([{ name: 'read', args: 1 }]);
  });
});

describe('escapesLongStringsInPieces', () => {
  it('assumes a current engine when the host has a process without versions', () => {
    expect(escapesLongStringsInPieces({ process: {} })).toBe(true);
  });
});
