/**
 * The telemetry inside the real AI SDK (v7) and its OpenTelemetry integration (`@ai-sdk/otel`), exported through the
 * real OpenTelemetry SDK to memory: a model that repeats one search forever, run offline by a `ToolLoopAgent`. The
 * AI SDK 7 names the setting `telemetry`; `experimental_telemetry` is its deprecated alias, the same object.
 */
import { OpenTelemetry } from '@ai-sdk/otel';
import { SpanStatusCode } from '@opentelemetry/api';
import { tool, ToolLoopAgent } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loopGuardTelemetry, type LoopGuardTelemetryOptions } from '../../src/adapters/otel.js';
import { toAgentSettings } from '../../src/index.js';
import { scriptedModel } from './mock-model.js';
import { eventsOf, memoryTracing } from './otel-support.js';

const tools = {
  search: tool({
    inputSchema: z.object({ query: z.string() }),
    execute: ({ query }) => Promise.resolve({ hits: 0, query }),
  }),
};

/** Runs the looping agent with the telemetry wired in (one spread, one tracer) and returns the exported spans. */
async function loopingRun(options: Omit<LoopGuardTelemetryOptions, 'tracer'> = {}, setting: 'telemetry' | 'experimental_telemetry' = 'telemetry') {
  const tracing = memoryTracing();
  const telemetry = loopGuardTelemetry({ ...options, tracer: tracing.provider.getTracer('ai') });
  const model = scriptedModel([], (index) => ({
    text: 'Searching again.',
    calls: [{ id: `call-${String(index)}`, tool: 'search', input: { query: 'Jane Doe, 12 Elm Street' } }],
  }));
  const telemetrySettings = { isEnabled: true, recordInputs: false, recordOutputs: false, integrations: [new OpenTelemetry({ tracer: telemetry.tracer })] };
  const agent = new ToolLoopAgent({ model, tools, ...toAgentSettings({}, telemetry), [setting]: telemetrySettings });
  const result = await agent.generate({ prompt: 'Find Jane.' });
  const spans = tracing.spans();
  return { result, spans, run: spans.find((span) => span.name.startsWith('invoke_agent')) };
}

const REPEAT_DETAIL = 'The model called "search" 3 times in a row with the same arguments: search(…).';

/** The event of each refused search: the third and the fourth. */
const REFUSAL_EVENT = {
  name: 'agent_loopguard.refusal',
  attributes: {
    'agent_loopguard.code': 'REPEATED_TOOL_CALL',
    'agent_loopguard.reason': 'repeated-tool-call',
    'agent_loopguard.detail': REPEAT_DETAIL,
    'gen_ai.tool.name': 'search',
  },
};

describe('loopGuardTelemetry with the AI SDK and its telemetry (experimental_telemetry)', () => {
  it("records each warning, refusal and the stop on the AI SDK's own run span, in order, with their attributes", async () => {
    const { result, spans, run } = await loopingRun();

    expect(result.steps).toHaveLength(4);
    expect(run?.name).toBe('invoke_agent mock-model-id');
    expect(eventsOf(run)).toEqual([
      {
        name: 'agent_loopguard.warning',
        attributes: {
          'agent_loopguard.code': 'LOOP_WARNING',
          'agent_loopguard.reason': 'repeated-tool-call',
          'agent_loopguard.detail': 'The model called "search" 2 times in a row with the same arguments; 3 in a row stop the run.',
          'agent_loopguard.step.index': 1,
          'gen_ai.tool.name': 'search',
        },
      },
      REFUSAL_EVENT,
      {
        name: 'agent_loopguard.warning',
        attributes: {
          'agent_loopguard.code': 'LOOP_WARNING',
          'agent_loopguard.reason': 'no-progress',
          'agent_loopguard.detail': '2 steps in a row brought no new tool result with the same text; 3 stop the run.',
          'agent_loopguard.step.index': 2,
        },
      },
      REFUSAL_EVENT,
      {
        name: 'agent_loopguard.stop',
        attributes: {
          'agent_loopguard.code': 'REPEATED_TOOL_CALL',
          'agent_loopguard.reason': 'repeated-tool-call',
          'agent_loopguard.detail': REPEAT_DETAIL,
          'agent_loopguard.step.index': 3,
          'agent_loopguard.fault': true,
          'gen_ai.tool.name': 'search',
        },
      },
    ]);
    // The stop is a fault: the run span failed, with the stop code as its low-cardinality error type.
    expect(run?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'agent-loopguard stopped the run: REPEATED_TOOL_CALL' });
    expect(run?.attributes['error.type']).toBe('REPEATED_TOOL_CALL');
    // The AI SDK's step, model-call and tool spans are left as the AI SDK made them.
    const others = spans.filter((span) => span !== run);
    expect(others.map((span) => span.name)).toEqual(expect.arrayContaining(['step 1', 'step 4', 'chat mock-model-id', 'execute_tool search']));
    for (const span of others) {
      expect(span.events.filter((event) => event.name.startsWith('agent_loopguard'))).toEqual([]);
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
      expect(span.attributes['error.type']).toBeUndefined();
    }
  });

  it('records the same under the deprecated name experimental_telemetry', async () => {
    const current = await loopingRun();
    const deprecated = await loopingRun({}, 'experimental_telemetry');
    expect(deprecated.run?.name).toBe('invoke_agent mock-model-id');
    expect(eventsOf(deprecated.run)).toEqual(eventsOf(current.run));
    expect(eventsOf(deprecated.run)).toHaveLength(5);
    expect(deprecated.run?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('leaves the tool arguments out of every event by default, and puts them in when asked', async () => {
    const quiet = await loopingRun();
    expect(JSON.stringify(quiet.spans.map(eventsOf))).not.toMatch(/Jane|Elm|query/);

    const told = await loopingRun({ includeArguments: true });
    const stop = eventsOf(told.run).at(-1);
    expect(stop?.attributes['agent_loopguard.detail']).toBe(
      'The model called "search" 3 times in a row with the same arguments: search({"query":"Jane Doe, 12 Elm Street"}).',
    );
    expect(JSON.parse(String(stop?.attributes['agent_loopguard.evidence']))).toEqual({
      tool: 'search',
      argsPreview: '{"query":"Jane Doe, 12 Elm Street"}',
      count: 3,
      threshold: 3,
      stepIndexes: [0, 1, 3],
      identicalResults: true,
    });
  });
});
