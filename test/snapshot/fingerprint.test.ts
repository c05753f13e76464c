import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/options/resolve-options.js';
import { differingOption, optionsFingerprint } from '../../src/snapshot/fingerprint.js';

describe('optionsFingerprint', () => {
  it('writes "off" for every option switched off, so a snapshot says so without a hash', () => {
    const fingerprint = optionsFingerprint(resolveOptions({ maxSteps: false, budget: false, oscillation: false, historyLimit: undefined }));
    expect(fingerprint).toMatchObject({ maxSteps: 'off', budget: 'off', oscillation: 'off', historyLimit: 'off' });
    expect(Object.keys(fingerprint).filter((path) => path.startsWith('oscillation'))).toEqual(['oscillation']);
  });

  it('writes "on" for a section with nothing in it, and a hash per value of a section that has values', () => {
    const fingerprint = optionsFingerprint(resolveOptions({ budget: {} }));
    expect(fingerprint.budget).toBe('on');
    expect(fingerprint.maxSteps).toMatch(/^[0-9a-f]{12}$/);
    expect(fingerprint['oscillation.maxPeriod']).toMatch(/^[0-9a-f]{12}$/);
    expect(fingerprint.oscillation).toBeUndefined();
  });
});

describe('differingOption', () => {
  const on = optionsFingerprint(resolveOptions({}));
  const oscillationOff = optionsFingerprint(resolveOptions({ oscillation: false }));

  it('names a detector switched off in the snapshot and on now, not one of its values', () => {
    expect(differingOption(oscillationOff, on)).toBe('oscillation');
  });

  it('names a detector switched on in the snapshot and off now', () => {
    expect(differingOption(on, oscillationOff)).toBe('oscillation');
  });

  it('names the value that differs when the detector is on in both', () => {
    expect(differingOption(on, optionsFingerprint(resolveOptions({ oscillation: { maxPeriod: 4 } })))).toBe('oscillation.maxPeriod');
  });

  it('finds nothing when the fingerprints agree', () => {
    expect(differingOption(on, optionsFingerprint(resolveOptions({})))).toBeUndefined();
  });
});
