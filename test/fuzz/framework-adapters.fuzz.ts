import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loopGuardMiddleware } from '../../src/adapters/langchain.js';
import { toMastraOptions } from '../../src/adapters/mastra.js';
import { safeRead } from '../../src/utils/read.js';
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

/** A Mastra step: the AI SDK 5 shape, each field sometimes odd or hostile, with `usage` and `request` objects of its own. */
const mastraStep = record({
  text: mostly(fc.string({ maxLength: 8 })),
  finishReason: mostly(fc.constantFrom('tool-calls', 'stop', 'unknown')),
  toolCalls: list(record({ toolCallId: mostly(id), toolName: mostly(fc.constantFrom('search', 'read')), args: mostly(fc.constantFrom({ q: 1 }, { q: 2 })) })),
  toolResults: list(record({ toolCallId: mostly(id), output: anyValue })),
  usage: mostly(fc.record({ inputTokens: fc.nat(50), outputTokens: fc.nat(50), totalTokens: fc.nat(100) }, { requiredKeys: [] })),
  request: mostly(fc.record({ body: fc.string({ maxLength: 4 }) })),
});

/** The TypeErrors toMastraOptions documents for a caller's mistake, each with the one situation it is allowed in. */
const MASTRA_ERRORS = {
  neverSaw: /^agent-loopguard: the beforeToolCall of toMastraOptions was called in a run its prepareStep never saw\./,
  neverAsked: /^agent-loopguard: the prepareStep of toMastraOptions ran, but its stopWhen was never asked\./,
  shared: /^agent-loopguard: toMastraOptions was handed, under one requestContext, steps that are not those of the run it recorded there: two runs at once share one requestContext\./,
  tooMany: /^agent-loopguard: the prepareStep of toMastraOptions was given (\d+|Infinity) steps it had not seen; it checks at most 100000 new steps per call\.$/,
};

/** Which documented TypeError `error` is; fails the property for anything else. */
function mastraError(error: unknown): keyof typeof MASTRA_ERRORS {
  expect(error).toBeInstanceOf(TypeError);
  const message = (error as TypeError).message;
  const which = (Object.keys(MASTRA_ERRORS) as (keyof typeof MASTRA_ERRORS)[]).find((name) => MASTRA_ERRORS[name].test(message));
  if (which === undefined) throw new Error(`Not a documented TypeError: ${message}`);
  return which;
}

/** What Mastra's abort throws: its tripwire, which ends the run. */
const TRIPWIRE = new Error('tripwire');

describe('toMastraOptions', () => {
  it('never throws on any hook argument or steps but the documented TypeErrors, and answers only in the shapes Mastra takes', () => {
    // One action of one of three runs sharing the object: a step, or a new run on the same requestContext.
    const action = fc.record({
      run: fc.nat(2),
      restart: fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      // How prepareStep is handed the run: Mastra's rebuilt view, Mastra's own records, odd steps, odd arguments.
      prepare: fc.constantFrom('rebuilt', 'rebuilt', 'rebuilt', 'records', 'odd steps', 'odd arguments'),
      oddPart: anyValue,
      // A call of the run (the context Mastra hands the hook, with the run's requestContext), or an odd context.
      calls: fc.array(
        fc.oneof(
          { weight: 4, arbitrary: fc.record({ toolName: fc.constantFrom('search', 'read'), input: fc.constantFrom({ q: 1 }, { q: 2 }), toolCallId: id }) },
          { weight: 1, arbitrary: anyValue },
        ),
        { maxLength: 3 },
      ),
      step: fc.oneof({ weight: 6, arbitrary: mastraStep }, { weight: 1, arbitrary: anyValue }),
      lend: fc.oneof({ weight: 8, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    });
    // A run's requestContext: a new object, or an odd value (Mastra always hands one; runs without one share a run).
    const requestContext = fc.oneof({ weight: 5, arbitrary: fc.constant(new Lazy('{}', () => ({}))) }, { weight: 1, arbitrary: anyValue });
    const contexts = fc.tuple(requestContext, requestContext, requestContext);
    fc.assert(
      fc.property(guardOptions, contexts, fc.array(action, { maxLength: 12 }), hostileValue, (options, lazyContexts, actions, hostile) => {
        const loop = toMastraOptions(options);
        const runs = lazyContexts.map((lazy) => ({ requestContext: lazy.build(), records: [] as unknown[], warnings: [] as unknown[] }));
        let lentAny = false;
        for (const { run: index, restart, prepare, oddPart, calls, step, lend } of actions) {
          const run = runs[index];
          if (run === undefined) continue;
          if (restart) run.records = [];
          let aborted: { reason: unknown; options: unknown } | undefined;
          const rebuilt = run.records.map((recorded) => ({ usage: safeRead(recorded, 'usage'), request: safeRead(recorded, 'request'), toolCalls: [], text: '' }));
          const args =
            prepare === 'odd arguments'
              ? oddPart.build()
              : {
                  steps: prepare === 'rebuilt' ? rebuilt : prepare === 'records' ? run.records : oddPart.build(),
                  requestContext: run.requestContext,
                  messageList: { addSystem: (...given: unknown[]) => run.warnings.push(given) },
                  abort: (reason: unknown, abortOptions: unknown) => {
                    aborted = { reason, options: abortOptions };
                    throw TRIPWIRE;
                  },
                };
          try {
            // Returns nothing: the step goes on as Mastra planned it.
            loop.prepareStep(args as never);
          } catch (error) {
            if (error === TRIPWIRE) {
              const verdict = safeRead(aborted?.options, 'metadata');
              expectPlainJson(verdict);
              expect(aborted?.reason).toBe(`Stopped by agent-loopguard [${String(safeRead(verdict, 'code'))}]: ${String(safeRead(verdict, 'detail'))}`);
              expect(loop.verdictOf({ tripwire: aborted?.options })).toBe(verdict);
              // Mastra ends the run: a later action of this run is a new one on the same requestContext.
              run.records = [];
              continue;
            }
            if (mastraError(error) === 'neverAsked') expect(lentAny).toBe(false);
          }
          for (const warning of run.warnings.splice(0)) expect(warning).toEqual([{ role: 'system', content: expect.any(String) as string }, 'agent-loopguard']);
          for (const call of calls) {
            const hookContext = call instanceof Lazy ? call.build() : { toolName: call.toolName, input: call.input, context: { toolCallId: call.toolCallId, requestContext: run.requestContext } };
            try {
              const answer = loop.hooks.beforeToolCall(hookContext as never);
              if (answer !== undefined) expect(answer).toEqual({ proceed: false, output: expect.any(String) as string });
            } catch (error) {
              expect(mastraError(error)).toBe('neverSaw');
            }
          }
          run.records.push(step.build());
          if (lend) {
            expect(loop.stopWhen({ steps: run.records })).toBe(false);
            lentAny = true;
          }
        }
        for (const { requestContext } of runs) {
          const verdict = loop.verdictOf(requestContext);
          if (verdict !== undefined) expectPlainJson(verdict);
          const guard = loop.guardOf(requestContext);
          if (guard !== undefined) expect(typeof guard.check).toBe('function');
        }
        // Odd values to the lookups and to stopWhen: no verdict, no guard, and stopWhen still answers false.
        expect(loop.verdictOf(hostile.build())).toBeUndefined();
        expect(loop.guardOf(hostile.build())).toBeUndefined();
        expect(loop.stopWhen({ steps: hostile.build() as never })).toBe(false);
        expect(loop.stopWhen(hostile.build() as never)).toBe(false);
      }),
      fuzzParameters(300),
    );
  });
});
