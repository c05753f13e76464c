import { stableHash } from '../canonical/canonicalize.js';
import type { Detector } from '../detectors/detector.js';
import { isSafeInteger } from '../utils/read.js';
import { expectObject, optionError } from '../utils/validate.js';
import { resolveTools, type ToolRules, toolsFingerprint } from './tools.js';

/** A detector that is on, with its options after validation. */
export interface EnabledDetector {
  readonly detector: Detector;
  readonly options: unknown;
}

/** Options after validation, with every default filled in. */
export interface ResolvedOptions {
  /** The detectors that are on, in priority order. */
  readonly detectors: readonly EnabledDetector[];
  /** Each detector's option name, `off` for those that are off: what {@link optionsFingerprint} reads. */
  readonly byOption: ReadonlyMap<string, EnabledDetector | 'off'>;
  readonly now: () => number;
  /** Steps kept in history; `undefined` keeps every step. */
  readonly historyLimit: number | undefined;
  /** The `tools` option: per tool name, what makes two calls the same, or that they are exempt. */
  readonly tools: ToolRules;
}

function resolveNow(value: unknown): () => number {
  if (value === undefined) return Date.now;
  if (typeof value !== 'function') optionError('now', 'a function returning milliseconds', value);
  try {
    (value as () => unknown)();
  } catch (error) {
    // Most often a method passed without its object, such as `performance.now`.
    throw new TypeError(
      `agent-loopguard: option "now" threw when called (${error instanceof Error ? error.message : String(error)}); pass a function that can be called on its own, such as () => performance.now().`,
      { cause: error },
    );
  }
  return value as () => number;
}

function resolveHistoryLimit(value: unknown): number | undefined {
  if (value === undefined || value === false) return undefined;
  if (!isSafeInteger(value) || value < 1) optionError('historyLimit', 'an integer of at least 1, or false', value);
  return value;
}

/**
 * Validates options once, when a guard is created: each detector validates its own.
 * @param options - what the caller passed
 * @param registry - the detectors, in priority order
 * @throws TypeError naming the option path when a value does not fit
 */
export function resolveOptions(options: unknown, registry: readonly Detector[]): ResolvedOptions {
  const known = [...registry.map((detector) => detector.option), 'tools', 'now', 'historyLimit'];
  const given = options === undefined ? (Object.create(null) as Record<string, unknown>) : expectObject('', options, known);
  const detectors: EnabledDetector[] = [];
  const byOption = new Map<string, EnabledDetector | 'off'>();
  for (const detector of registry) {
    const resolved = detector.resolve(given[detector.option]);
    const enabled = resolved === false ? 'off' : { detector, options: resolved };
    if (enabled !== 'off') detectors.push(enabled);
    byOption.set(detector.option, enabled);
  }
  return { detectors, byOption, now: resolveNow(given.now), historyLimit: resolveHistoryLimit(given.historyLimit), tools: resolveTools(given.tools) };
}

/**
 * What a snapshot is tied to: each option's path (`oscillation.maxPeriod`) with a short hash of its resolved value,
 * `off` for a detector that is off, `on` for a section with nothing in it. A snapshot keeps this instead of the options
 * themselves, so a restore under other options can name the one that differs. The clock is left out: every process
 * has its own. Each tool the `tools` option names is a path of its own (`tools.search`).
 */
export function optionsFingerprint(options: ResolvedOptions): Readonly<Record<string, string>> {
  const fingerprint: Record<string, string> = {};
  const leaves: [string, unknown][] = [...options.byOption].map(([name, enabled]) => [
    name,
    enabled === 'off' ? false : (enabled.detector.fingerprint?.(enabled.options) ?? enabled.options),
  ]);
  leaves.push(['historyLimit', options.historyLimit ?? false]);
  for (const [name, value] of leaves) {
    if (value === false) fingerprint[name] = 'off';
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const entries = Object.entries(value);
      if (entries.length === 0) fingerprint[name] = 'on';
      for (const [key, item] of entries) fingerprint[`${name}.${key}`] = stableHash(item).slice(0, 12);
    } else fingerprint[name] = stableHash(value).slice(0, 12);
  }
  // Only tools the option names: a guard without the option is tied to nothing more than before it existed.
  for (const [path, hash] of toolsFingerprint(options.tools)) fingerprint[path] = hash;
  return fingerprint;
}

/** The first option whose fingerprint differs between two, or `undefined` when they agree. */
export function differingOption(saved: Readonly<Record<string, unknown>>, current: Readonly<Record<string, string>>): string | undefined {
  for (const path of new Set([...Object.keys(current), ...Object.keys(saved)])) {
    if (saved[path] === current[path]) continue;
    // A detector switched on in one and off in the other is named, not one of its values.
    const [section = path] = path.split('.');
    return saved[section] === 'off' || current[section] === 'off' ? section : path;
  }
  return undefined;
}
