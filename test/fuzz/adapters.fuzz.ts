import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGuard, runAgentLoop, toGuardStep, toStopWhen, withGuard } from '../../src/index.js';
import type { AgentLoopStep, AiSdkStepLike, GuardStep } from '../../src/index.js';
import { MAX_REPLAY_STEPS } from '../../src/adapters/step-replayer.js';
import { arrayLength, safeRead } from '../../src/utils/read.js';
import { expectPlainJson } from '../support/plain-json.js';
import { anyValue, guardOptions, hostileValue, Lazy, richValue, stepRecord } from './arbitraries.js';
import { fuzzParameters } from './fuzz-settings.js';

/** Fields of an AI SDK step, each sometimes odd or hostile. */
function aiSdkStep(field: fc.Arbitrary<Lazy>): fc.Arbitrary<Lazy> {
  const id = fc.constantFrom('call-1', 'call-2', 'call-3');
  const eager = (value: unknown): Lazy => new Lazy(fc.stringify(value), () => value);
  const record = (fields: Record<string, fc.Arbitrary<Lazy>>): fc.Arbitrary<Lazy> =>
    fc.record(fields, { requiredKeys: [] }).map(
      (parts) =>
        new Lazy(fc.stringify(parts), () => {
          const built: Record<string, unknown> = {};
          for (const [key, part] of Object.entries(parts)) built[key] = part?.build();
          return built;
        }),
    );
  const list = (item: fc.Arbitrary<Lazy>): fc.Arbitrary<Lazy> =>
    fc.oneof(
      { weight: 4, arbitrary: fc.array(item, { maxLength: 3 }).map((items) => new Lazy(fc.stringify(items), () => items.map((part) => part.build()))) },
      { weight: 1, arbitrary: field },
    );
  const call = record({
    toolCallId: fc.oneof(id.map(eager), field),
    toolName: fc.oneof(fc.constantFrom('search', 'read').map(eager), field),
    input: field,
    args: field,
    invalid: fc.oneof(fc.boolean().map(eager), field),
    error: field,
  });
  const result = record({ toolCallId: fc.oneof(id.map(eager), field), output: field, result: field, preliminary: fc.boolean().map(eager) });
  const part = record({ type: fc.constantFrom('tool-error', 'text', 'tool-call').map(eager), toolCallId: id.map(eager), error: field });
  return record({
    text: fc.oneof(fc.string({ maxLength: 10 }).map(eager), field),
    finishReason: fc.oneof(fc.constantFrom('stop', 'tool-calls', 'other', 'length').map(eager), field),
    toolCalls: list(call),
    toolResults: list(result),
    content: list(part),
    usage: fc.oneof(record({ inputTokens: fc.nat(500).map(eager), outputTokens: field, totalTokens: fc.double().map(eager) }), field),
    performance: fc.oneof(record({ stepTimeMs: fc.oneof(fc.nat(5_000).map(eager), field) }), field),
    response: fc.oneof(record({ timestamp: fc.oneof(fc.date().map(eager), field) }), field),
  });
}

const hostileAiSdkStep = aiSdkStep(anyValue);
const plainAiSdkStep = aiSdkStep(fc.jsonValue({ maxDepth: 2 }).map((value) => new Lazy(fc.stringify(value), () => value)));

describe('toGuardStep', () => {
  it('never throws, whatever the step holds, and gives a step check() accepts', () => {
    fc.assert(
      fc.property(fc.oneof(hostileAiSdkStep, anyValue), (lazy) => {
        const mapped = toGuardStep(lazy.build() as AiSdkStepLike);
        for (const call of mapped.toolCalls ?? []) expect(typeof call.name).toBe('string');
        const guard = createGuard();
        expectPlainJson(guard.check(mapped));
      }),
      fuzzParameters(1000),
    );
  });
});

describe('toStopWhen', () => {
  it('always answers a boolean, for arrays of any steps and for things that are not arrays, or refuses an array claiming too many steps', () => {
    fc.assert(
      fc.property(
        guardOptions,
        fc.oneof(
          { weight: 4, arbitrary: fc.array(fc.oneof(hostileAiSdkStep, anyValue), { maxLength: 8 }).map((steps) => new Lazy(fc.stringify(steps), () => steps.map((step) => step.build()))) },
          { weight: 1, arbitrary: hostileValue },
        ),
        (options, steps) => {
          const condition = toStopWhen(options);
          const given = steps.build();
          // The documented refusal: a TypeError, never a silent answer, for more new steps than one call checks.
          const expectAnswer = (input: unknown): void => {
            const claimed = arrayLength(safeRead(input, 'steps'));
            const answer = (): boolean => condition(input as { steps: AiSdkStepLike[] });
            if (claimed !== undefined && claimed > MAX_REPLAY_STEPS) expect(answer).toThrow(new TypeError(`agent-loopguard: toStopWhen was given ${String(claimed)} steps it had not seen; it checks at most ${String(MAX_REPLAY_STEPS)} new steps per call.`));
            else expect(typeof answer()).toBe('boolean');
          };
          expectAnswer({ steps: given });
          expectAnswer(given);
        },
      ),
      fuzzParameters(600),
    );
  });

  it('answers for a list of steps exactly what a fresh condition answers, however often and in whatever order it is asked', () => {
    fc.assert(
      fc.property(
        guardOptions,
        fc.array(plainAiSdkStep, { minLength: 1, maxLength: 10 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (options, lazySteps, requeries) => {
          const steps = lazySteps.map((step) => step.build() as AiSdkStepLike);
          const condition = toStopWhen(options);
          // As the SDK asks: the same array, one step longer each time...
          const growing: AiSdkStepLike[] = [];
          const answers = steps.map((step) => {
            growing.push(step);
            return condition({ steps: growing });
          });
          // ...then out of order, on copies, and again.
          for (const pick of requeries) {
            const length = (pick % steps.length) + 1;
            const prefix = steps.slice(0, length);
            expect(condition({ steps: prefix })).toBe(toStopWhen(options)({ steps: prefix }));
          }
          steps.forEach((_, index) => {
            expect(answers[index]).toBe(toStopWhen(options)({ steps: steps.slice(0, index + 1) }));
          });
        },
      ),
      fuzzParameters(600),
    );
  });
});

/**
 * Steps for the loop helpers. Both await what they are given, and awaiting reads `then`: a value whose `then` throws
 * is a rejected promise by the language's rules, so hostile values go inside the steps, not in their place. A step
 * that is not an object at all is the caller's mistake, refused with a `TypeError` (tested in test/adapters), so any
 * value stands in a step's fields here.
 */
const loopStep = fc.oneof(
  { weight: 6, arbitrary: stepRecord },
  {
    weight: 1,
    arbitrary: fc
      .oneof(fc.jsonValue({ maxDepth: 2 }), richValue)
      .map((value) => new Lazy(fc.stringify(value), () => ({ toolCalls: value, text: value, finishReason: value, usage: value }))),
  },
);

describe('runAgentLoop and withGuard', () => {
  it('runAgentLoop settles without throwing on whatever the steps hold, and stops by maxSteps at the latest', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(loopStep, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 8 }), async (lazySteps, maxSteps) => {
        const result = await runAgentLoop({
          guard: createGuard({ maxSteps }),
          step: (index) => lazySteps[index % lazySteps.length]?.build() as AgentLoopStep,
        });
        expect(result.steps.length).toBeGreaterThan(0);
        expect(result.steps.length).toBeLessThanOrEqual(maxSteps);
        expectPlainJson(result.verdict);
        expect(typeof result.completed).toBe('boolean');
      }),
      fuzzParameters(400),
    );
  });

  it('withGuard hands on every step until the stop, never throwing on what they hold', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(loopStep, { maxLength: 8 }), fc.integer({ min: 1, max: 8 }), async (lazySteps, maxSteps) => {
        const source = lazySteps.map((step) => step.build() as GuardStep);
        const guarded = withGuard(source, createGuard({ maxSteps }));
        const seen: GuardStep[] = [];
        for await (const step of guarded) seen.push(step);
        // The same objects, in order (compared by identity: hostile steps cannot be compared deeply).
        expect(seen.every((step, index) => step === source[index])).toBe(true);
        if (guarded.verdict?.stop === true) expect(seen.length).toBeLessThanOrEqual(Math.min(source.length, maxSteps));
        else expect(seen.length).toBe(source.length);
      }),
      fuzzParameters(400),
    );
  });
});
