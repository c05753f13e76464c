/**
 * How src/guard/reduce-step.ts is meant to use the reader, written against the canonical API alone: one reader per
 * step, the call's signature from its name and arguments, its outcome from those and its result and error.
 */
import { describe, expect, it } from 'vitest';
import { createHashKey, parseHashKey } from '../../src/canonical/hash-key.js';
import { TRUNCATED_MARKER } from '../../src/canonical/limits.js';
import { StepReader } from '../../src/canonical/step-reader.js';

interface Call {
  readonly name: string;
  readonly args?: unknown;
  readonly result?: unknown;
  readonly error?: unknown;
}

/** The facts reduce-step derives per call, with the reader in place of canonicalize and comparisonKey. */
function readStep(hashKey: string, calls: readonly Call[]): { facts: { signature: string; outcome: string; preview: string }[]; truncated: number } {
  const reader = new StepReader(hashKey);
  const facts = calls.map((call) => {
    const argsForm = reader.form(call.args);
    const signature = reader.stringKey(call.name) + reader.formKey(argsForm);
    let outcome = signature;
    if (call.result !== undefined) outcome += `\u0000r${reader.key(call.result)}`;
    if (call.error !== undefined && call.error !== null) outcome += `\u0000e${reader.key(call.error)}`;
    const preview = argsForm.length <= 120 ? argsForm : `${argsForm.slice(0, 119)}…`;
    return { signature, outcome, preview };
  });
  return { facts, truncated: reader.truncated };
}

describe('reading a step with one StepReader, as reduce-step will', () => {
  const hashKey = createHashKey();

  it('gives repeated calls equal signatures and outcomes, and tells results apart', () => {
    const page = 'result text '.repeat(20_000);
    const { facts } = readStep(hashKey, [
      { name: 'search', args: { q: 'loops', limit: 10 }, result: page },
      { name: 'search', args: { limit: 10, q: 'loops' }, result: page },
      { name: 'search', args: { limit: 10, q: 'loops' }, result: `${page}!` },
      { name: 'fetch', args: { q: 'loops', limit: 10 }, error: new Error('down') },
    ]);
    const [first, second, third, fourth] = facts;
    expect(first?.signature).toBe(second?.signature);
    expect(first?.outcome).toBe(second?.outcome);
    expect(third?.signature).toBe(first?.signature);
    expect(third?.outcome).not.toBe(first?.outcome);
    expect(fourth?.signature).not.toBe(first?.signature);
    expect(first?.preview).toBe('{"limit":10,"q":"loops"}');
  });

  it('compares the same way after the key is saved as JSON and restored in another guard', () => {
    const saved = JSON.parse(JSON.stringify({ hashKey })) as { hashKey: unknown };
    const restored = parseHashKey(saved.hashKey, 'hashKey');
    const call: Call = { name: 'n'.repeat(300), args: { text: 'a'.repeat(5000) }, result: { rows: ['r'.repeat(3000)] } };
    expect(readStep(restored, [call]).facts).toEqual(readStep(hashKey, [call]).facts);
    expect(readStep(createHashKey(), [call]).facts[0]?.outcome).not.toBe(readStep(hashKey, [call]).facts[0]?.outcome);
  });

  it('reports a step whose calls spent the budget, so the guard can say so', () => {
    const shared = Array.from({ length: 300_000 }, (_, index) => index);
    const { facts, truncated } = readStep(hashKey, Array.from({ length: 20 }, () => ({ name: 'dump', args: shared })));
    expect(truncated).toBe(20);
    expect(facts.at(-1)?.signature).toBe(`"dump"${TRUNCATED_MARKER}`);
  });
});
