import type { CustomDetector } from '../types.js';
import { savedInteger, savedObject } from '../snapshot/read-saved.js';
import type { Detector, Finding } from './detector.js';

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
 * Runs your own rules, in order, on every step; the first one that asks to stop is reported. Errors propagate. The
 * rules' own state is theirs: a snapshot keeps only how many stops they asked for, and a peek calls them too.
 */
export function customDetector(detectors: readonly CustomDetector[], saved?: unknown, path = ''): Detector<'custom'> {
  let stops = saved === undefined ? 0 : savedInteger(savedObject(saved, path).stops, `${path}.stops`);
  return {
    kind: 'custom',
    judgesCalls: false,
    check(facts, record) {
      let stop: Finding<'custom'> | undefined;
      for (const detector of detectors) {
        // Every rule sees every step, even after an earlier one asked to stop.
        // The history first: reading it freezes the steps it holds, this one included (see `createStepHistory`).
        const found = readStop(detector(facts.history, facts.step));
        stop ??= found;
      }
      if (stop === undefined) return undefined;
      if (record) stops++;
      return { stop };
    },
    state: () => ({ detectors: detectors.length, stops }),
    save: () => ({ stops }),
  };
}
