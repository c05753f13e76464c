import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loopGuardMiddleware } from '../../src/adapters/langchain.js';
import { toMastraOptions } from '../../src/adapters/mastra.js';
import { expectPlainJson } from '../support/plain-json.js';
import { anyValue, guardOptions, hostileValue, Lazy } from './arbitraries.js';
import { fuzzParameters } from './fuzz-settings.js';

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
const list = (item: fc.Arbitrary<Lazy>, maxLength = 3): fc.Arbitrary<Lazy> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.array(item, { maxLength }).map((items) => new Lazy(fc.stringify(items), () => items.map((part) => part.build()))) },
    { weight: 1, arbitrary: anyValue },
  );
const id = fc.constantFrom('call-1', 'call-2', 'call-3');
const mostly = <T>(plain: fc.Arbitrary<T>): fc.Arbitrary<Lazy> => fc.oneof({ weight: 4, arbitrary: plain.map(eager) }, { weight: 1, arbitrary: anyValue });

/** A message of a LangChain state: mostly the shapes the middleware reads, each field sometimes odd or hostile. */
const langChainMessage = record({
  type: mostly(fc.constantFrom('human', 'ai', 'tool', 'system')),
  id: mostly(fc.constantFrom('m-1', 'm-2', 'agent-loopguard:warning:m-1', 'agent-loopguard:refusal:call-1')),
  content: mostly(fc.oneof(fc.constantFrom('Searching.', 'nothing', ''), fc.array(fc.record({ type: fc.constant('text'), text: fc.string({ maxLength: 5 }) }), { maxLength: 2 }))),
  tool_calls: list(record({ id: mostly(id), name: mostly(fc.constantFrom('search', 'read')), args: mostly(fc.constantFrom({ q: 1 }, { q: 2 })) })),
  tool_call_id: mostly(id),
  status: mostly(fc.constantFrom('success', 'error')),
  usage_metadata: mostly(fc.record({ input_tokens: fc.nat(50), output_tokens: fc.nat(50), total_tokens: fc.nat(100) }, { requiredKeys: [] })),
  response_metadata: mostly(fc.record({ finish_reason: fc.constantFrom('stop', 'length', 'tool_calls'), stop_reason: fc.constantFrom('end_turn') }, { requiredKeys: [] })),
});

const messages = fc.oneof({ weight: 6, arbitrary: list(langChainMessage, 12) }, { weight: 1, arbitrary: hostileValue });

class FakeToolMessage {
  constructor(readonly fields: unknown) {}
}

describe('loopGuardMiddleware', () => {
  it('never throws on any state or request, and answers only in the shapes LangChain takes', () => {
    fc.assert(
      fc.property(guardOptions, messages, mostly(fc.record({ id, name: fc.constantFrom('search', 'read'), args: fc.constantFrom({ q: 1 }, { q: 2 }) })), (options, lazyMessages, lazyCall) => {
        const middleware = loopGuardMiddleware(options, { ToolMessage: FakeToolMessage });
        const given = lazyMessages.build();
        const state = { messages: given as unknown[] };
        const update = middleware.beforeModel.hook(state);
        if (update !== undefined) {
          if ('jumpTo' in update) expect(update).toEqual({ jumpTo: 'end' });
          else for (const message of update.messages) expect(message).toEqual({ role: 'user', content: expect.any(String) as string, id: expect.stringMatching(/^agent-loopguard:warning:/) as string });
        }
        const ran = Symbol('ran');
        const answer = middleware.wrapToolCall({ toolCall: lazyCall.build() as never, state }, () => ran);
        expect(answer === ran || answer instanceof FakeToolMessage).toBe(true);
        const verdict = middleware.verdictOf(state);
        if (verdict !== undefined) expectPlainJson(verdict);
        expect(middleware.guardOf(given).history.length).toBeLessThanOrEqual(12);
      }),
      fuzzParameters(300),
    );
  });
});

/** A Mastra step: the AI SDK 5 shape, each field sometimes odd or hostile. */
const mastraStep = record({
  text: mostly(fc.string({ maxLength: 8 })),
  finishReason: mostly(fc.constantFrom('tool-calls', 'stop', 'unknown')),
  toolCalls: list(record({ toolCallId: mostly(id), toolName: mostly(fc.constantFrom('search', 'read')), args: mostly(fc.constantFrom({ q: 1 }, { q: 2 })) })),
  toolResults: list(record({ toolCallId: mostly(id), output: anyValue })),
  usage: mostly(fc.record({ inputTokens: fc.nat(50), outputTokens: fc.nat(50), totalTokens: fc.nat(100) }, { requiredKeys: [] })),
});

describe('toMastraOptions', () => {
  it('never throws on any hook context or steps, and answers only in the shapes Mastra takes', () => {
    const turn = fc.record({
      calls: fc.array(mostly(fc.record({ toolName: fc.constantFrom('search', 'read'), input: fc.constantFrom({ q: 1 }, { q: 2 }), context: fc.record({ toolCallId: id }) })), { maxLength: 3 }),
      step: fc.oneof({ weight: 6, arbitrary: mastraStep }, { weight: 1, arbitrary: anyValue }),
      iteration: mostly(fc.nat(10)),
    });
    fc.assert(
      fc.property(guardOptions, fc.array(turn, { maxLength: 8 }), hostileValue, (options, turns, hostile) => {
        const loop = toMastraOptions(options);
        const steps: unknown[] = [];
        for (const { calls, step, iteration } of turns) {
          for (const call of calls) {
            const answer = loop.hooks.beforeToolCall(call.build() as never);
            if (answer !== undefined) expect(answer).toEqual({ proceed: false, output: expect.any(String) as string });
          }
          steps.push(step.build());
          expect(typeof loop.stopWhen({ steps: steps as never })).toBe('boolean');
          const feedback = loop.onIterationComplete({ iteration: iteration.build() as number });
          if (feedback !== undefined) expect(feedback).toEqual({ feedback: expect.any(String) as string });
        }
        const verdict = loop.verdict();
        if (verdict !== undefined) expectPlainJson(verdict);
        // Steps that are not an array of steps at all: false, or a length past the cap refused as toStopWhen refuses it.
        try {
          expect(typeof loop.stopWhen({ steps: hostile.build() as never })).toBe('boolean');
        } catch (error) {
          expect(error).toBeInstanceOf(TypeError);
          expect((error as Error).message).toMatch(/it checks at most 100000 new steps per call\.$/);
        }
      }),
      fuzzParameters(300),
    );
  });
});
