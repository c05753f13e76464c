import fc from 'fast-check';
import { createContext, runInContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { canonicalize, createGuard } from '../../src/index.js';
import type { GuardOptions, GuardStep, GuardToolCall, Verdict } from '../../src/index.js';
import { reorderKeys } from '../support/reorder-keys.js';
import { fuzzParameters } from './fuzz-settings.js';
import { ALL_OFF as ONLY } from '../support/step-builder.js';
import { crossRealmPair, guardOptions, stepWithSharedParts } from './arbitraries.js';


const callArbitrary = fc.record({
  name: fc.constantFrom('search', 'read', 'fetch', 'write'),
  args: fc.jsonValue({ maxDepth: 3 }),
});

/** Two calls with different signatures: a different name, or arguments that differ as JSON. */
function differs(left: { name: string; args: unknown }, right: { name: string; args: unknown }): boolean {
  return left.name !== right.name || canonicalize(left.args) !== canonicalize(right.args);
}

/** Splits calls into steps of 1 to 3 calls, with call-less steps (which neither extend nor break a run) between. */
const chunking = fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.boolean()), { minLength: 1, maxLength: 40 });

function toSteps(calls: readonly GuardToolCall[], chunks: readonly (readonly [number, boolean])[]): GuardStep[] {
  const steps: GuardStep[] = [];
  let next = 0;
  let chunk = 0;
  while (next < calls.length) {
    const [size, emptyBefore] = chunks[chunk % chunks.length] ?? [1, false];
    chunk++;
    if (emptyBefore) steps.push({ text: 'thinking' });
    steps.push({ toolCalls: calls.slice(next, next + size) });
    next += size;
  }
  return steps;
}

/** The call count after each step, and every verdict. */
function run(options: GuardOptions, steps: readonly GuardStep[]): { verdicts: Verdict[]; callsSoFar: number[] } {
  const guard = createGuard({ ...ONLY, ...options });
  const callsSoFar: number[] = [];
  let calls = 0;
  const verdicts = steps.map((step) => {
    calls += step.toolCalls?.length ?? 0;
    callsSoFar.push(calls);
    return guard.check(step);
  });
  return { verdicts, callsSoFar };
}

describe('repeatedToolCall', () => {
  it('stops exactly when the N-th identical call arrives, however calls are spread over steps', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 12 }), callArbitrary, fc.integer(), chunking, (threshold, call, seed, chunks) => {
        // Every copy gets its keys shuffled: identical means canonically equal, not the same object.
        const calls = Array.from({ length: threshold + 3 }, (_, index) => ({ name: call.name, args: reorderKeys(call.args, seed + index) }));
        const steps = toSteps(calls, chunks);
        const { verdicts, callsSoFar } = run({ repeatedToolCall: { threshold } }, steps);
        const firstStop = verdicts.findIndex((verdict) => verdict.stop);
        expect(firstStop).toBe(callsSoFar.findIndex((count) => count >= threshold));
        const verdict = verdicts[firstStop];
        expect(verdict).toMatchObject({
          stop: true,
          reason: 'repeated-tool-call',
          code: 'REPEATED_TOOL_CALL',
          evidence: { tool: call.name, count: callsSoFar[firstStop], threshold },
        });
        // The run covers every step that held a call, up to this one.
        const stepsWithCalls = steps.flatMap((step, index) => ((step.toolCalls?.length ?? 0) > 0 && index <= firstStop ? [index] : []));
        expect(verdict?.stop === true && verdict.reason === 'repeated-tool-call' && verdict.evidence.stepIndexes).toEqual(stepsWithCalls);
      }),
      fuzzParameters(1000),
    );
  });

  it('never stops on N-1 identical calls, and a differing call in between starts the count again', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 12 }),
        fc.tuple(callArbitrary, callArbitrary).filter(([left, right]) => differs(left, right)),
        fc.integer({ min: 0, max: 11 }),
        (threshold, [call, other], breakAfter) => {
          const before = Math.min(breakAfter, threshold - 1);
          const calls = [
            ...Array.from({ length: before }, () => call),
            other,
            ...Array.from({ length: threshold - 1 }, () => call),
          ];
          const { verdicts } = run({ repeatedToolCall: { threshold } }, calls.map((entry) => ({ toolCalls: [entry] })));
          expect(verdicts.every((verdict) => !verdict.stop)).toBe(true);
          // One more identical call completes a run of N after the break.
          const guard = createGuard({ ...ONLY, repeatedToolCall: { threshold } });
          for (const entry of calls) guard.check({ toolCalls: [entry] });
          expect(guard.check({ toolCalls: [call] })).toMatchObject({ stop: true, evidence: { count: threshold } });
        },
      ),
      fuzzParameters(1000),
    );
  });

  it('with requireIdenticalResults, a different result in between breaks the run', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 8 }),
        callArbitrary,
        fc.tuple(fc.jsonValue({ maxDepth: 2 }), fc.jsonValue({ maxDepth: 2 })).filter(([left, right]) => canonicalize(left) !== canonicalize(right)),
        (threshold, call, [result, otherResult]) => {
          const options = { repeatedToolCall: { threshold, requireIdenticalResults: true } };
          const same = { ...call, result };
          const steps = [
            ...Array.from({ length: threshold - 1 }, () => ({ toolCalls: [same] })),
            { toolCalls: [{ ...call, result: otherResult }] },
            ...Array.from({ length: threshold - 1 }, () => ({ toolCalls: [same] })),
          ];
          expect(run(options, steps).verdicts.some((verdict) => verdict.stop)).toBe(false);
          const stopped = run(options, [...steps, { toolCalls: [same] }]).verdicts.at(-1);
          expect(stopped).toMatchObject({ stop: true, evidence: { count: threshold, identicalResults: true } });
        },
      ),
      fuzzParameters(600),
    );
  });
});

describe('oscillation', () => {
  it('reports a cycle of every length k up to maxPeriod once it has repeated `repeats` times, not a call earlier', () => {
    const setting = fc
      .record({ maxPeriod: fc.integer({ min: 2, max: 6 }), repeats: fc.integer({ min: 2, max: 5 }) })
      .chain(({ maxPeriod, repeats }) =>
        fc.record({
          maxPeriod: fc.constant(maxPeriod),
          repeats: fc.constant(repeats),
          period: fc.integer({ min: 2, max: maxPeriod }),
          cycleArgs: fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: maxPeriod, maxLength: maxPeriod }),
          preamble: fc.integer({ min: 0, max: 6 }),
          perStep: fc.integer({ min: 1, max: 3 }),
        }),
      );
    fc.assert(
      fc.property(setting, ({ maxPeriod, repeats, period, cycleArgs, preamble, perStep }) => {
        // Distinct names make the k calls of the cycle distinct; the preamble's calls are distinct from everything.
        const cycle = cycleArgs.slice(0, period).map((args, index) => ({ name: `tool${String(index)}`, args }));
        const calls = [
          ...Array.from({ length: preamble }, (_, index) => ({ name: `warmup${String(index)}` })),
          ...Array.from({ length: period * repeats }, (_, index) => cycle[index % period] ?? { name: 'missing' }),
        ];
        const steps: GuardStep[] = [];
        for (let start = 0; start < calls.length; start += perStep) steps.push({ toolCalls: calls.slice(start, start + perStep) });
        const { verdicts, callsSoFar } = run({ oscillation: { maxPeriod, repeats } }, steps);

        const lastIndex = verdicts.length - 1;
        expect(verdicts.slice(0, lastIndex).some((verdict) => verdict.stop)).toBe(false);
        expect(callsSoFar[lastIndex]).toBe(calls.length);
        const expectedCycle = cycle.map((call) => `${call.name}(`);
        const verdict = verdicts[lastIndex];
        expect(verdict).toMatchObject({ stop: true, reason: 'oscillation', code: 'OSCILLATION', evidence: { period, repeats, threshold: repeats } });
        const labels = verdict?.stop === true && verdict.reason === 'oscillation' ? verdict.evidence.cycle : [];
        expect(labels.map((label) => label.slice(0, label.indexOf('(') + 1))).toEqual(expectedCycle);
      }),
      fuzzParameters(1000),
    );
  });

  it('does not call one call repeated an oscillation', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 6 }), fc.integer({ min: 2, max: 5 }), callArbitrary, (maxPeriod, repeats, call) => {
        const steps = Array.from({ length: maxPeriod * repeats * 2 }, () => ({ toolCalls: [call] }));
        expect(run({ oscillation: { maxPeriod, repeats } }, steps).verdicts.some((verdict) => verdict.stop)).toBe(false);
      }),
      fuzzParameters(400),
    );
  });
});

describe('maxSteps', () => {
  it('stops on the N-th step and not before, whatever the steps hold', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.array(callArbitrary, { maxLength: 3 }), (limit, calls) => {
        const steps = Array.from({ length: limit }, () => ({ toolCalls: calls }));
        const { verdicts } = run({ maxSteps: limit }, steps);
        expect(verdicts.slice(0, -1).some((verdict) => verdict.stop)).toBe(false);
        expect(verdicts.at(-1)).toEqual({
          stop: true,
          reason: 'max-steps',
          code: 'MAX_STEPS',
          detail: expect.any(String) as unknown,
          evidence: { steps: limit, limit },
        });
      }),
      fuzzParameters(400),
    );
  });
});

/** A figure as usage reports it: digits with 0 to 6 decimal places (0.1, 0.0035, 12.5, 1500). */
const decimalFigure = fc.record({ digits: fc.integer({ min: 0, max: 1_000_000 }), places: fc.integer({ min: 0, max: 6 }) });
interface DecimalFigure {
  readonly digits: number;
  readonly places: number;
}
/** The double nearest the decimal, as a caller writes it. */
const numberOf = ({ digits, places }: DecimalFigure): number => Number(`${String(digits)}e-${String(places)}`);
/** The decimal exactly, in millionths. */
const millionths = ({ digits, places }: DecimalFigure): bigint => BigInt(digits) * 10n ** BigInt(6 - places);

const BUDGET_METRICS = [
  ['maxCostUsd', (figure: number): GuardStep => ({ usage: { costUsd: figure } })],
  ['maxTotalTokens', (figure: number): GuardStep => ({ usage: { totalTokens: figure } })],
  ['maxInputTokens', (figure: number): GuardStep => ({ usage: { inputTokens: figure } })],
  ['maxOutputTokens', (figure: number): GuardStep => ({ usage: { outputTokens: figure } })],
  ['maxDurationMs', (figure: number): GuardStep => ({ durationMs: figure })],
] as const;

describe('budget with fractional usage', () => {
  it('warns exactly while the decimal total is at or past warnAt × limit, and stops on the step whose decimal total reaches the limit', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BUDGET_METRICS),
        decimalFigure.filter(({ digits }) => digits > 0),
        fc.integer({ min: 1, max: 100 }),
        fc.array(decimalFigure, { minLength: 1, maxLength: 40 }),
        ([name, stepOf], limit, percent, figures) => {
          const guard = createGuard({ ...ONLY, budget: { [name]: { limit: numberOf(limit), warnAt: percent / 100 } }, now: () => 0 });
          let total = 0n;
          for (const figure of figures) {
            total += millionths(figure);
            const verdict = guard.check(stepOf(numberOf(figure)));
            const value = Number(`${String(total)}e-6`);
            if (total >= millionths(limit)) {
              expect(verdict).toMatchObject({ stop: true, reason: 'budget', evidence: { value, limit: numberOf(limit) } });
              return;
            }
            expect(verdict.stop).toBe(false);
            const warned = total * 100n >= millionths(limit) * BigInt(percent);
            expect(verdict.warnings ?? []).toEqual(warned ? [expect.objectContaining({ code: 'BUDGET_WARNING', value }) as unknown] : []);
          }
        },
      ),
      fuzzParameters(500),
    );
  });
});

describe('check() on values from another realm and on calls that share parts', () => {
  // One other realm for every run: a new context costs milliseconds, and each value made in it is new anyway.
  const realm = createContext();

  it('judges values from another realm exactly as their twins made here', () => {
    fc.assert(
      fc.property(guardOptions, fc.array(fc.tuple(crossRealmPair, crossRealmPair), { minLength: 1, maxLength: 8 }), (options, pairs) => {
        const here = createGuard({ ...options, now: () => 0 });
        const there = createGuard({ ...options, now: () => 0 });
        for (const [args, result] of pairs) {
          const local = here.check({ toolCalls: [{ name: 'read', args: args.local.build(), result: result.local.build() }] });
          const toolCall = { name: 'read', args: runInContext(args.source, realm) as unknown, result: runInContext(result.source, realm) as unknown };
          const foreign = there.check({ toolCalls: [toolCall] });
          expect(foreign).toStrictEqual(local);
        }
        expect(there.summary()).toStrictEqual(here.summary());
      }),
      fuzzParameters(300),
    );
  });

  it('judges a step whose calls share objects, arrays and strings exactly as one whose calls share nothing', () => {
    fc.assert(
      fc.property(guardOptions, fc.array(stepWithSharedParts, { minLength: 1, maxLength: 6 }), (options, steps) => {
        const sharing = createGuard({ ...options, now: () => 0 });
        const copying = createGuard({ ...options, now: () => 0 });
        for (const step of steps) {
          const toolCalls = (step.build() as unknown[][]).map((parts, index) => ({ name: index % 2 === 0 ? 'search' : 'read', args: parts, result: parts[0] }));
          const copies = toolCalls.map((toolCall) => JSON.parse(JSON.stringify(toolCall)) as GuardToolCall);
          expect(sharing.check({ toolCalls })).toStrictEqual(copying.check({ toolCalls: copies }));
        }
      }),
      fuzzParameters(300),
    );
  });
});
