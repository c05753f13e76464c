import type { CustomDetector } from '../types.js';
import { integer, listOption, optionError, record } from '../utils/validate.js';
import type { Detector, Finding } from './detector.js';

/** Most custom rules: every rule runs on every step. */
const MAX_RULES = 1_000;

function resolveRules(value: unknown): readonly CustomDetector[] | false {
  if (value === undefined) return false;
  const list = typeof value === 'function' ? [value] : listOption('custom', value, MAX_RULES, 'a function or an array of functions');
  list.forEach((rule, index) => {
    if (typeof rule !== 'function') optionError(`custom[${index}]`, 'a function', rule);
  });
  return list.length === 0 ? false : Object.freeze(list as CustomDetector[]);
}

function readStop(result: unknown): Finding<'custom'> | undefined {
  if (result === null || typeof result !== 'object' || (result as { stop?: unknown }).stop !== true) return undefined;
  const { code, detail, evidence } = result as { code?: unknown; detail?: unknown; evidence?: unknown };
  return {
    code: typeof code === 'string' && code !== '' ? code : 'CUSTOM',
    detail: typeof detail === 'string' && detail !== '' ? detail : 'A custom detector stopped the run.',
    evidence: evidence === undefined ? {} : evidence,
  };
}

/**
 * Runs your own rules, in order, on every step (each sees every step, even after an earlier one asked to stop); the
 * first that asks to stop is reported. Errors propagate. The rules' own state is theirs: the detector keeps only how
 * many stops they asked for.
 */
export const custom: Detector<'custom', readonly CustomDetector[], { readonly stops: number }> = {
  kind: 'custom',
  option: 'custom',
  takesFunctions: true,
  resolve: resolveRules,
  judgesCalls: () => false,
  start: () => ({ stops: 0 }),
  check(state, facts, rules) {
    let stop: Finding<'custom'> | undefined;
    for (const rule of rules) {
      const found = readStop(rule(facts.history, facts.step));
      stop ??= found;
    }
    return stop === undefined ? { state } : { state: { stops: state.stops + 1 }, stop };
  },
  hint: () =>
    'One of your own detectors asked to stop; its evidence says why.',
  summary: ({ stops }, rules) => ({ detectors: rules.length, stops }),
  restore: (saved, _rules, path) => record({ stops: integer() })(saved, path),
  // Functions cannot be compared: a snapshot is tied to how many rules there are.
  fingerprint: (rules) => rules.length,
};
