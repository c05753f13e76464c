import { describe, expect, it } from 'vitest';
import { STEP_CHARACTERS, STEP_VALUES } from '../../src/canonical/limits.js';
import { readLimitWarning, toolCallLimitWarning } from '../../src/guard/input-limit-warning.js';
import { MAX_ARRAY_ITEMS } from '../../src/guard/safe-read.js';

describe('toolCallLimitWarning', () => {
  it('says how many calls the step held and how many were read', () => {
    expect(toolCallLimitWarning(10_001)).toEqual({
      code: 'INPUT_LIMIT',
      limit: 'toolCallsPerStep',
      maximum: MAX_ARRAY_ITEMS,
      given: 10_001,
      detail: 'The step held 10001 tool calls; only the first 10000 were read.',
    });
  });
});

describe('readLimitWarning', () => {
  it('names the step budget and how many calls were read in part, one or more', () => {
    expect(readLimitWarning(1)).toEqual({
      code: 'INPUT_LIMIT',
      limit: 'readPerStep',
      maximumValues: STEP_VALUES,
      maximumCharacters: STEP_CHARACTERS,
      cutCalls: 1,
      detail: "The step's tool calls held more than one step may read (2000000 values or 67108864 characters); 1 call was read in part and compared with no other.",
    });
    expect(readLimitWarning(3).detail).toBe(
      "The step's tool calls held more than one step may read (2000000 values or 67108864 characters); 3 calls were read in part and compared with no other.",
    );
  });
});
