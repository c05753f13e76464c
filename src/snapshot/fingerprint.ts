import { stableHash } from '../canonical/stable-hash.js';
import type { ResolvedOptions } from '../options/resolve-options.js';

/** Budget option names by the metric each limits. */
const BUDGET_NAMES = {
  totalTokens: 'maxTotalTokens',
  inputTokens: 'maxInputTokens',
  outputTokens: 'maxOutputTokens',
  costUsd: 'maxCostUsd',
  durationMs: 'maxDurationMs',
} as const;

/**
 * A fingerprint of the options that decide what a guard's state means: each option's path (`oscillation.maxPeriod`)
 * with a short hash of its resolved value, `"off"` for a detector switched off. A snapshot keeps this instead of the
 * options themselves, so a restore under other options can say which one differs without the snapshot holding them.
 * The clock is left out (every process has its own), and custom rules count only by number: functions cannot be
 * compared.
 * @param options - resolved options
 * @returns option paths and their value hashes
 */
export function optionsFingerprint(options: ResolvedOptions): Readonly<Record<string, string>> {
  const fingerprint: Record<string, string> = {};
  const leaves: Record<string, unknown> = {
    maxSteps: options.maxSteps === false ? false : options.maxSteps.limit,
    repeatedToolCall: options.repeatedToolCall,
    oscillation: options.oscillation,
    noProgress: options.noProgress,
    stagnation: options.stagnation,
    finishReason: options.finishReason,
    budget:
      options.budget === false
        ? false
        : Object.fromEntries(options.budget.limits.map(({ metric, limit, warnAt }) => [BUDGET_NAMES[metric], { limit, warnAt: warnAt ?? null }])),
    custom: options.custom.length,
    historyLimit: options.historyLimit ?? false,
  };
  for (const [name, value] of Object.entries(leaves)) {
    if (value === false) fingerprint[name] = 'off';
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const entries = Object.entries(value);
      // A section with nothing in it (a budget without limits) is on, with no values to compare.
      if (entries.length === 0) fingerprint[name] = 'on';
      for (const [key, item] of entries) fingerprint[`${name}.${key}`] = stableHash(item).slice(0, 12);
    } else fingerprint[name] = stableHash(value).slice(0, 12);
  }
  return fingerprint;
}

/**
 * The first option whose fingerprint differs between two, or `undefined` when they agree.
 * @param saved - the fingerprint a snapshot holds
 * @param current - the fingerprint of the options given now
 * @returns the option path to name in an error
 */
export function differingOption(saved: Readonly<Record<string, unknown>>, current: Readonly<Record<string, string>>): string | undefined {
  for (const path of new Set([...Object.keys(current), ...Object.keys(saved)])) {
    if (saved[path] === current[path]) continue;
    // A detector switched on in one and off in the other is named, not one of its values.
    const [section = path] = path.split('.');
    return saved[section] === 'off' || current[section] === 'off' ? section : path;
  }
  return undefined;
}
