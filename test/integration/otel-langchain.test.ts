/**
 * The telemetry inside the real LangChain `createAgent` with `loopGuardMiddleware`, offline (`fakeModel()`): each run
 * is traced by the caller's own active span, and the guard's events land on it, two runs at the same time included.
 */
import { SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { AIMessage, createAgent, fakeModel, tool, ToolMessage } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loopGuardMiddleware } from '../../src/adapters/langchain.js';
import { loopGuardTelemetry } from '../../src/adapters/otel.js';
import { eventsOf, memoryTracing, useAsyncContext } from './otel-support.js';

useAsyncContext();

const search = tool(({ query }) => `No results for ${query}.`, {
  name: 'search',
  description: 'Search the web.',
  schema: z.object({ query: z.string() }),
});

/** A fake model that searches for one customer's name every time, or answers at once. */
function model(loops: boolean) {
  const fake = fakeModel();
  for (let turn = 0; turn < 8; turn++) {
    fake.respond(() =>
      loops
        ? new AIMessage({ content: 'Searching.', tool_calls: [{ id: `s-${String(turn)}`, name: 'search', args: { query: 'Jane Doe' }, type: 'tool_call' }] })
        : new AIMessage('Nothing to look up.'),
    );
  }
  return fake;
}

/** Runs one agent inside the caller's span `name`, with the telemetry spread into the middleware's options. */
function tracedRun(tracer: Tracer, name: string, loops: boolean) {
  const telemetry = loopGuardTelemetry();
  const agent = createAgent({ model: model(loops), tools: [search], middleware: [loopGuardMiddleware({}, { ToolMessage, ...telemetry })] });
  return tracer.startActiveSpan(name, async (span) => {
    try {
      return await agent.invoke({ messages: [{ role: 'user', content: 'Find Jane.' }] });
    } finally {
      span.end();
    }
  });
}

describe('loopGuardTelemetry with LangChain', () => {
  it("records warnings, refusals and the stop on the caller's span of each run, runs at the same time kept apart", async () => {
    const tracing = memoryTracing();
    const tracer = tracing.provider.getTracer('my-service');

    await Promise.all([tracedRun(tracer, 'looping run', true), tracedRun(tracer, 'healthy run', false)]);

    const looping = tracing.spans().find((span) => span.name === 'looping run');
    const healthy = tracing.spans().find((span) => span.name === 'healthy run');
    expect(eventsOf(looping).map(({ name, attributes }) => `${name} ${String(attributes['agent_loopguard.code'])} ${String(attributes['agent_loopguard.reason'])}`)).toEqual([
      'agent_loopguard.warning LOOP_WARNING repeated-tool-call',
      'agent_loopguard.refusal REPEATED_TOOL_CALL repeated-tool-call',
      'agent_loopguard.warning LOOP_WARNING no-progress',
      'agent_loopguard.refusal REPEATED_TOOL_CALL repeated-tool-call',
      'agent_loopguard.stop REPEATED_TOOL_CALL repeated-tool-call',
    ]);
    expect(eventsOf(looping)[1]).toEqual({
      name: 'agent_loopguard.refusal',
      attributes: {
        'agent_loopguard.code': 'REPEATED_TOOL_CALL',
        'agent_loopguard.reason': 'repeated-tool-call',
        'agent_loopguard.detail': 'The model called "search" 3 times in a row with the same arguments: search(…).',
        'gen_ai.tool.name': 'search',
      },
    });
    expect(eventsOf(looping).at(-1)?.attributes).toMatchObject({ 'agent_loopguard.fault': true, 'agent_loopguard.reason': 'repeated-tool-call' });
    expect(looping?.status.code).toBe(SpanStatusCode.ERROR);
    expect(looping?.attributes['error.type']).toBe('REPEATED_TOOL_CALL');
    expect(JSON.stringify(eventsOf(looping))).not.toContain('Jane');

    expect(eventsOf(healthy)).toEqual([]);
    expect(healthy?.status.code).toBe(SpanStatusCode.UNSET);
  });
});
