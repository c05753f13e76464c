/**
 * A step in another library's shape is named, once per run, with the fix (`INPUT_SHAPE`), instead of being recorded
 * as an empty step in silence.
 */
import { describe, expect, it } from 'vitest';
import { createGuard, type GuardStep, type InputShapeWarning } from '../../src/index.js';
import { ALL_OFF } from '../support/step-builder.js';

const warningFor = (field: string, fix: string): InputShapeWarning => ({ code: 'INPUT_SHAPE', field, detail: `The step's "${field}" was not read: ${fix}.` });

describe('INPUT_SHAPE', () => {
  it.each<[string, unknown, InputShapeWarning[]]>([
    [
      'an AI SDK step passed as it is',
      { toolCalls: [{ toolName: 'search', input: { q: 1 } }] },
      [warningFor('toolCalls[].toolName', 'it is an AI SDK step; map it with toGuardStep(step), which reads its calls, results and errors')],
    ],
    [
      "OpenAI's tool calls under toolCalls",
      { toolCalls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{}' } }] },
      [warningFor('toolCalls[].function', 'it is an OpenAI tool call; pass { name: call.function.name, args: JSON.parse(call.function.arguments) }')],
    ],
    [
      "OpenAI's tool_calls",
      { tool_calls: [{ function: { name: 'search' } }] },
      [warningFor('tool_calls', 'the guard reads "toolCalls", an array of { name, args, result, error }, so none of these calls was seen')],
    ],
    [
      'a misspelt toolcalls',
      { toolcalls: [{ name: 'search' }] },
      [warningFor('toolcalls', 'the guard reads "toolCalls", an array of { name, args, result, error }, so none of these calls was seen')],
    ],
    [
      'arguments and output under other names',
      { toolCalls: [{ name: 'search', arguments: { q: 1 }, output: 'x' }, { name: 'read', input: { path: 'a' } }] },
      [
        warningFor('toolCalls[].arguments', 'the guard reads a call\'s arguments from "args"'),
        warningFor('toolCalls[].output', 'the guard reads what a tool returned from "result"'),
        warningFor('toolCalls[].input', 'the guard reads a call\'s arguments from "args"'),
      ],
    ],
    [
      "another library's usage names and counts given as text",
      { usage: { prompt_tokens: 5, completion_tokens: 2, totalTokens: '7' }, text: ['a'] },
      [
        warningFor('usage.prompt_tokens', 'the guard reads "inputTokens", so budgets counted nothing of it'),
        warningFor('usage.completion_tokens', 'the guard reads "outputTokens", so budgets counted nothing of it'),
        warningFor('usage.totalTokens', 'a number given as text counts for nothing; pass a number'),
        warningFor('text', 'the guard reads the model\'s text as one string'),
      ],
    ],
  ])('names %s, with the fix, once a run', (_label, step, warnings) => {
    const guard = createGuard(ALL_OFF);
    expect(guard.check(step as GuardStep)).toEqual({ stop: false, warnings });
    expect(guard.check(step as GuardStep)).toEqual({ stop: false });
    // A peek warns as the check would, and remembers nothing.
    const fresh = createGuard(ALL_OFF);
    expect(fresh.peek(step as GuardStep)).toEqual({ stop: false, warnings });
    expect(fresh.check(step as GuardStep)).toEqual({ stop: false, warnings });
  });

  it('reads a step in its own shape without a warning', () => {
    const guard = createGuard(ALL_OFF);
    const step: GuardStep = { text: 'x', toolCalls: [{ name: 'search', args: { q: 1 }, result: 'r' }], usage: { inputTokens: 1, costUsd: 0.1 } };
    expect(guard.check(step)).toEqual({ stop: false });
    expect(guard.check({ toolCalls: null } as unknown as GuardStep)).toEqual({ stop: false });
  });

  it('remembers the fields it warned of through a snapshot, sorted, and starts over on reset', () => {
    const guard = createGuard({ ...ALL_OFF, now: () => 0 });
    guard.check({ usage: { prompt_tokens: 1 }, tool_calls: [] } as unknown as GuardStep);
    const { snapshot } = { snapshot: guard.snapshot() };
    expect((snapshot as unknown as { warnedFields: string[] }).warnedFields).toEqual(['tool_calls', 'usage.prompt_tokens']);
    const restored = createGuard({ ...ALL_OFF, now: () => 0 }, { snapshot });
    expect(restored.check({ usage: { prompt_tokens: 1 } } as unknown as GuardStep)).toEqual({ stop: false });
    restored.reset();
    expect(restored.check({ usage: { prompt_tokens: 1 } } as unknown as GuardStep).warnings).toHaveLength(1);
  });
});
