/** The guard settings and rules the eval replays every run through, one table row each. */
import type { GuardOptions } from '../src/index.js';
import { cline, geminiCli, openHands, rooCode } from './other-agent-rules.js';

/** One row of the results tables. */
export interface Configuration {
  readonly group: string;
  readonly name: string;
  readonly options: GuardOptions;
}

/** Every built-in detector off, so one can be measured alone. */
const ALL_OFF = {
  maxSteps: false,
  repeatedToolCall: false,
  oscillation: false,
  noProgress: false,
  stagnation: false,
  finishReason: false,
} as const satisfies GuardOptions;

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The rows, in table order. */
export const CONFIGURATIONS: readonly Configuration[] = [
  { group: 'Defaults', name: 'default guard', options: {} },
  { group: 'Defaults', name: 'default guard, maxSteps off', options: { maxSteps: false } },

  { group: 'Each detector alone', name: 'finishReason (default policy)', options: { ...ALL_OFF, finishReason: {} } },
  ...[50, 75, 100, 150].map((limit) => ({
    group: 'Each detector alone, swept',
    name: `maxSteps ${String(limit)}${limit === 50 ? ' (default)' : ''}`,
    options: { ...ALL_OFF, maxSteps: limit },
  })),
  ...range(2, 6).map((threshold) => ({
    group: 'Each detector alone, swept',
    name: `repeatedToolCall threshold ${String(threshold)}${threshold === 3 ? ' (default)' : ''}`,
    options: { ...ALL_OFF, repeatedToolCall: { threshold } },
  })),
  ...range(2, 4).map((repeats) => ({
    group: 'Each detector alone, swept',
    name: `oscillation repeats ${String(repeats)}${repeats === 3 ? ' (default)' : ''}`,
    options: { ...ALL_OFF, oscillation: { repeats } },
  })),
  ...range(2, 5).map((threshold) => ({
    group: 'Each detector alone, swept',
    name: `noProgress threshold ${String(threshold)}${threshold === 3 ? ' (default)' : ''}`,
    options: { ...ALL_OFF, noProgress: { threshold } },
  })),

  { group: "Other agents' published rules", name: 'Gemini CLI: a cycle of 1-5 calls, 5 times', options: { ...ALL_OFF, custom: geminiCli } },
  { group: "Other agents' published rules", name: 'Roo Code: 4th identical call', options: { ...ALL_OFF, custom: rooCode } },
  { group: "Other agents' published rules", name: 'Cline: 5th identical call', options: { ...ALL_OFF, custom: cline } },
  { group: "Other agents' published rules", name: 'OpenHands stuck detector', options: { ...ALL_OFF, custom: openHands } },
];
