/**
 * The telemetry in a hand-written loop: the caller's own span is active around the run, and every verdict of
 * `check` and `judgeCall` goes through `telemetry.record`; exported through the real OpenTelemetry SDK to memory.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { loopGuardTelemetry } from '../../src/adapters/otel.js';
import { createGuard, runAgentLoop } from '../../src/index.js';
import type { GuardStep, GuardToolCall } from '../../src/index.js';
import { eventsOf, memoryTracing, useAsyncContext } from './otel-support.js';

useAsyncContext();

/** A model that asks for the same page every time. */
const sameCall = (): GuardToolCall => ({ name: 'fetch_page', args: { url: 'https://example.com/account/4411' } });

describe('loopGuardTelemetry in a hand-written loop', () => {
  it("records on the caller's active span, across awaits: warning, refusal, stop, then ERROR with error.type", async () => {
    const tracing = memoryTracing();
    const tracer = tracing.provider.getTracer('my-agent');
    const telemetry = loopGuardTelemetry();
    const guard = createGuard();

    await tracer.startActiveSpan('agent run', async (span) => {
      for (let index = 0; index < 10; index++) {
        await Promise.resolve(); // the model call
        const call = sameCall();
        const judged = guard.judgeCall(call);
        telemetry.record(judged, index);
        const ran = judged.block ? { ...call, result: judged.message, blocked: true } : { ...call, result: 'page text' };
        const step: GuardStep = { finishReason: 'tool-calls', toolCalls: [ran] };
        const verdict = guard.check(step);
        telemetry.record(verdict, index);
        if (verdict.stop) break;
      }
      span.end();
    });

    const [run] = tracing.spans();
    expect(run?.name).toBe('agent run');
    expect(eventsOf(run).map(({ name, attributes }) => [name, attributes['agent_loopguard.code'], attributes['agent_loopguard.step.index']])).toEqual([
      ['agent_loopguard.warning', 'LOOP_WARNING', 1],
      ['agent_loopguard.refusal', 'REPEATED_TOOL_CALL', undefined],
      ['agent_loopguard.warning', 'LOOP_WARNING', 2],
      ['agent_loopguard.refusal', 'REPEATED_TOOL_CALL', undefined],
      ['agent_loopguard.stop', 'REPEATED_TOOL_CALL', 3],
    ]);
    expect(eventsOf(run).at(-1)?.attributes).toEqual({
      'agent_loopguard.code': 'REPEATED_TOOL_CALL',
      'agent_loopguard.reason': 'repeated-tool-call',
      'agent_loopguard.detail': 'The model called "fetch_page" 3 times in a row with the same arguments: fetch_page(…).',
      'agent_loopguard.step.index': 3,
      'agent_loopguard.fault': true,
      'gen_ai.tool.name': 'fetch_page',
    });
    expect(run?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'agent-loopguard stopped the run: REPEATED_TOOL_CALL' });
    expect(run?.attributes).toEqual({ 'error.type': 'REPEATED_TOOL_CALL' });
    expect(JSON.stringify(eventsOf(run))).not.toContain('4411');
  });

  it('takes runAgentLoop’s onVerdict as it is; a normal finish is recorded without marking the span failed', async () => {
    const tracing = memoryTracing();
    const span = tracing.provider.getTracer('my-agent').startSpan('agent run');
    const telemetry = loopGuardTelemetry({ span });

    const result = await runAgentLoop({
      step: (index) =>
        index < 2
          ? { finishReason: 'tool-calls', toolCalls: [{ name: 'search', args: { query: `q${String(index)}` }, result: index }] }
          : { finishReason: 'stop', text: 'Found it.' },
      onVerdict: telemetry.onVerdict,
    });
    span.end();

    expect(result.completed).toBe(true);
    const [run] = tracing.spans();
    expect(eventsOf(run)).toEqual([
      {
        name: 'agent_loopguard.stop',
        attributes: {
          'agent_loopguard.code': 'FINISH_TERMINAL',
          'agent_loopguard.reason': 'finish-reason',
          'agent_loopguard.detail': 'The model finished its answer (finish reason "stop").',
          'agent_loopguard.step.index': 2,
          'agent_loopguard.fault': false,
        },
      },
    ]);
    expect(run?.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(run?.attributes).toEqual({});
  });
});
