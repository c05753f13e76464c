/** The guard settings and rules the eval replays every run through, one table row and one chart point each. */
import { DEFAULT_OPTIONS, type GuardOptions } from '../src/index.js';
import { cline, geminiCli, openHands, rooCode } from './other-agent-rules.js';

/** What a configuration is, for the chart's colours: the guard with several detectors, one detector alone, or a peer's rule. */
export type Family =
  | 'combined'
  | 'maxSteps'
  | 'finishReason'
  | 'repeatedToolCall'
  | 'oscillation'
  | 'noProgress'
  | 'stagnation'
  | 'peer';

/** One row of the results tables. */
export interface Configuration {
  /** A stable key, for code that picks rows out (the headline, the chart's highlight). */
  readonly id: string;
  readonly group: string;
  readonly name: string;
  /** A short name for the chart. */
  readonly label: string;
  readonly family: Family;
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
const mark = (isDefault: boolean): string => (isDefault ? ' (default)' : '');

const COMBINED = 'Defaults';
const ALONE = 'Each detector alone';
const PEERS = "Other agents' published rules";

/** Stable ids of the rows the report and chart single out. */
export const DEFAULT_GUARD = 'default';
export const HEADLINE = 'default-no-max-steps';
export const SPEC_ONLY = 'spec-no-max-steps';
/** The loop rules of 0.1.0 (answers not compared by repeats and cycles, `stagnation.maxNew` 8), `maxSteps` off. */
export const RULES_0_1_0 = 'rules-0.1.0-no-max-steps';
const { window: DEFAULT_WINDOW, maxNew: DEFAULT_MAX_NEW } = DEFAULT_OPTIONS.stagnation;
export const STAGNATION_ALONE = `stagnation-${String(DEFAULT_WINDOW)}-${String(DEFAULT_MAX_NEW)}`;

/** Windows and `maxNew` values swept for `stagnation`, around its default of 20 and 9. */
export const STAGNATION_WINDOWS = [12, 16, 20, 25, 30] as const;
export const STAGNATION_MAX_NEW: readonly number[] = [4, 6, 8, 9, 10];

/** The options of 0.1.0 that this release changed, as they were. */
const OLD_LOOP_RULES = {
  repeatedToolCall: { requireIdenticalResults: false },
  oscillation: { requireIdenticalResults: false },
  stagnation: { maxNew: 8 },
} as const satisfies GuardOptions;

const combined: Configuration[] = [
  { id: DEFAULT_GUARD, group: COMBINED, name: 'default guard', label: 'default guard', family: 'combined', options: {} },
  {
    id: HEADLINE,
    group: COMBINED,
    name: 'default guard, maxSteps off',
    label: 'default, maxSteps off',
    family: 'combined',
    options: { maxSteps: false },
  },
  {
    id: SPEC_ONLY,
    group: COMBINED,
    name: 'repeatedToolCall, oscillation, noProgress, finishReason (no stagnation), maxSteps off',
    label: 'no stagnation, maxSteps off',
    family: 'combined',
    options: { maxSteps: false, stagnation: false },
  },
  {
    id: RULES_0_1_0,
    group: COMBINED,
    name: '0.1.0 loop rules (repeats and cycles of calls whatever their answers, stagnation maxNew 8), maxSteps off',
    label: '0.1.0 rules, maxSteps off',
    family: 'combined',
    options: { maxSteps: false, ...OLD_LOOP_RULES },
  },
  // Either side of the default maxNew: the value of 0.1.0, and one looser.
  ...[8, 10].map((maxNew): Configuration => ({
    id: `default-no-max-steps-stagnation-20-${String(maxNew)}`,
    group: COMBINED,
    name: `default guard, maxSteps off, stagnation maxNew ${String(maxNew)}`,
    label: `default, maxSteps off, stag 20/${String(maxNew)}`,
    family: 'combined',
    options: { maxSteps: false, stagnation: { maxNew } },
  })),
  ...[100, 150].map((limit) => ({
    id: `default-max-steps-${String(limit)}`,
    group: COMBINED,
    name: `default guard, maxSteps ${String(limit)}`,
    label: `default, maxSteps ${String(limit)}`,
    family: 'combined' as const,
    options: { maxSteps: limit },
  })),
];

const alone: Configuration[] = [
  { id: 'finish-reason', group: ALONE, name: 'finishReason (default policy)', label: 'finishReason', family: 'finishReason', options: { ...ALL_OFF, finishReason: {} } },
  ...[50, 75, 100, 150].map((limit) => ({
    id: `max-steps-${String(limit)}`,
    group: ALONE,
    name: `maxSteps ${String(limit)}${mark(limit === 50)}`,
    label: `maxSteps ${String(limit)}`,
    family: 'maxSteps' as const,
    options: { ...ALL_OFF, maxSteps: limit },
  })),
  ...range(2, 6).map((threshold) => ({
    id: `repeated-${String(threshold)}`,
    group: ALONE,
    name: `repeatedToolCall threshold ${String(threshold)}${mark(threshold === 3)}`,
    label: `repeat ${String(threshold)}`,
    family: 'repeatedToolCall' as const,
    options: { ...ALL_OFF, repeatedToolCall: { threshold } },
  })),
  ...range(2, 6).map((threshold) => ({
    id: `repeated-calls-only-${String(threshold)}`,
    group: ALONE,
    name: `repeatedToolCall threshold ${String(threshold)}, answers not compared${mark(threshold === 3).replace('default', '0.1.0 default')}`,
    label: `repeat ${String(threshold)}, calls only`,
    family: 'repeatedToolCall' as const,
    options: { ...ALL_OFF, repeatedToolCall: { threshold, requireIdenticalResults: false } },
  })),
  ...range(2, 4).map((repeats) => ({
    id: `oscillation-${String(repeats)}`,
    group: ALONE,
    name: `oscillation repeats ${String(repeats)}${mark(repeats === 3)}`,
    label: `cycle ×${String(repeats)}`,
    family: 'oscillation' as const,
    options: { ...ALL_OFF, oscillation: { repeats } },
  })),
  ...range(2, 4).map((repeats) => ({
    id: `oscillation-calls-only-${String(repeats)}`,
    group: ALONE,
    name: `oscillation repeats ${String(repeats)}, answers not compared${mark(repeats === 3).replace('default', '0.1.0 default')}`,
    label: `cycle ×${String(repeats)}, calls only`,
    family: 'oscillation' as const,
    options: { ...ALL_OFF, oscillation: { repeats, requireIdenticalResults: false } },
  })),
  ...range(2, 5).map((threshold) => ({
    id: `no-progress-${String(threshold)}`,
    group: ALONE,
    name: `noProgress threshold ${String(threshold)}${mark(threshold === 3)}`,
    label: `noProgress ${String(threshold)}`,
    family: 'noProgress' as const,
    options: { ...ALL_OFF, noProgress: { threshold } },
  })),
  ...STAGNATION_WINDOWS.flatMap((window) =>
    STAGNATION_MAX_NEW.map((maxNew) => ({
      id: `stagnation-${String(window)}-${String(maxNew)}`,
      group: ALONE,
      name: `stagnation window ${String(window)}, maxNew ${String(maxNew)}${mark(window === DEFAULT_WINDOW && maxNew === DEFAULT_MAX_NEW)}`,
      label: `stag ${String(window)}/${String(maxNew)}`,
      family: 'stagnation' as const,
      options: { ...ALL_OFF, stagnation: { window, maxNew } },
    })),
  ),
];

const peers: Configuration[] = [
  { id: 'gemini-cli', group: PEERS, name: 'Gemini CLI: a cycle of 1-5 calls, 5 times', label: 'Gemini CLI', family: 'peer', options: { ...ALL_OFF, custom: geminiCli } },
  { id: 'roo-code', group: PEERS, name: 'Roo Code: 4th identical call', label: 'Roo Code', family: 'peer', options: { ...ALL_OFF, custom: rooCode } },
  { id: 'cline', group: PEERS, name: 'Cline: 5th identical call', label: 'Cline', family: 'peer', options: { ...ALL_OFF, custom: cline } },
  { id: 'openhands', group: PEERS, name: 'OpenHands stuck detector', label: 'OpenHands', family: 'peer', options: { ...ALL_OFF, custom: openHands } },
];

/** The rows, in table order. */
export const CONFIGURATIONS: readonly Configuration[] = [...combined, ...alone, ...peers];

/**
 * The index of a configuration in {@link CONFIGURATIONS}.
 * @throws Error when there is none with that id
 */
export function indexOf(id: string, configurations: readonly Configuration[] = CONFIGURATIONS): number {
  const index = configurations.findIndex((configuration) => configuration.id === id);
  if (index === -1) throw new Error(`no configuration ${id}`);
  return index;
}
