import type { CustomDetector } from '../types.js';
import { argumentError, integer, isRecord, listOption, optionError, record } from '../utils/validate.js';
import { ANY_RUN, type Detector, type Finding } from './detector.js';

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

/**
 * What a rule asked for: `undefined` (or `null`) and `{ stop: false }` go on, `{ stop: true, ... }` stops. Anything else
 * is the rule's author's mistake (a bare `'stop'` or `true`, a `stop` that is not a boolean), refused loudly: taken
 * for "go on", it would let the loop it was written to catch run on.
 * @throws TypeError naming the rule and what it returned
 */
function readStop(result: unknown, index: number): Finding<'custom'> | undefined {
  if (result === undefined || result === null) return undefined;
  const stop = isRecord(result) ? (result as { stop?: unknown }).stop : undefined;
  if (typeof stop !== 'boolean') argumentError(`custom rule ${String(index)} must return undefined, { stop: false } or { stop: true, code, detail, evidence }`, result);
  if (!stop) return undefined;
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
    for (const [index, rule] of rules.entries()) {
      const found = readStop(rule(facts.history, facts.step), index);
      stop ??= found;
    }
    return stop === undefined ? { state } : { state: { stops: state.stops + 1 }, stop };
  },
  hint: () =>
    'One of your own detectors asked to stop; its evidence says why.',
  summary: ({ stops }, rules) => ({ detectors: rules.length, stops }),
  restore: (saved, _rules, path, run = ANY_RUN) => record({ stops: integer(0, run.steps) })(saved, path),
  // Functions cannot be compared: a snapshot is tied to how many rules there are.
  fingerprint: (rules) => rules.length,
};
