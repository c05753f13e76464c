import { SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Meter, Span } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { LOOPGUARD_METRICS, loopGuardTelemetry } from '../../src/adapters/otel.js';
import { createGuard } from '../../src/index.js';
import type { CallRefusal, GuardStep, StopVerdict, Verdict } from '../../src/index.js';
import { eventsOf, memoryMetrics, memoryTracing, useAsyncContext } from '../integration/otel-support.js';

useAsyncContext();

const call = (query: string): GuardStep => ({ finishReason: 'tool-calls', toolCalls: [{ name: 'search', args: { query }, result: 'nothing' }] });

/** The verdicts of a guard fed `steps`, in order, up to its first stop. */
function verdicts(steps: readonly GuardStep[], options = {}): Verdict[] {
  const guard = createGuard(options);
  const given: Verdict[] = [];
  for (const step of steps) {
    const verdict = guard.check(step);
    given.push(verdict);
    if (verdict.stop) break;
  }
  return given;
}

/** The one verdict of a guard fed `step`. */
function only(step: GuardStep): Verdict {
  const [verdict] = verdicts([step]);
  if (verdict === undefined) throw new Error('no verdict');
  return verdict;
}

/** A span of its own that keeps every call exactly as handed to it (the SDK's span drops `undefined` values). */
function handedSpan(): { span: Span; calls: unknown[][] } {
  const calls: unknown[][] = [];
  const keep =
    (method: string) =>
    (...args: unknown[]) => {
      calls.push([method, ...args]);
      return span;
    };
  const span = { addEvent: keep('addEvent'), setAttribute: keep('setAttribute'), setStatus: keep('setStatus'), isRecording: () => true } as unknown as Span;
  return { span, calls };
}

/** The detail recorded for a hand-made stop with this detail and evidence, arguments left out (the default). */
function recordedDetail(detail: string, evidence: unknown): unknown {
  const { span, calls } = handedSpan();
  loopGuardTelemetry({ span }).onStop({ stop: true, reason: 'custom', code: 'MINE', detail, evidence } as never);
  return (calls[0]?.[2] as Record<string, unknown> | undefined)?.['agent_loopguard.detail'];
}

function spanned() {
  const tracing = memoryTracing();
  const span = tracing.provider.getTracer('test').startSpan('run');
  return { tracing, span, events: () => (span.end(), eventsOf(tracing.spans().find((ended) => ended.name === 'run'))) };
}

describe('loopGuardTelemetry options', () => {
  it.each([
    ['a string', 'span', /`span` must be an OpenTelemetry Span or a function returning one, got/],
    [{}, 'span', /`span` must be an OpenTelemetry Span/],
    [{ startSpan: () => undefined }, 'tracer', /`tracer` must be an OpenTelemetry Tracer \(trace.getTracer\(name\)\), got/],
    [{}, 'meter', /`meter` must be an OpenTelemetry Meter \(metrics.getMeter\(name\)\), got/],
    ['yes', 'includeArguments', /`includeArguments` must be a boolean, got/],
  ])('refuses %j as %s with a TypeError that names the fix', (value, name, message) => {
    expect(() => loopGuardTelemetry({ [name]: value })).toThrow(TypeError);
    expect(() => loopGuardTelemetry({ [name]: value })).toThrow(message);
  });

  const method = (): undefined => undefined;
  it.each([
    ['null', null],
    ['an array with the three methods', Object.assign([], { addEvent: method, setStatus: method, isRecording: method })],
    ['an object without addEvent', { setStatus: method, isRecording: method }],
    ['an object without setStatus', { addEvent: method, isRecording: method }],
    ['an object without isRecording', { addEvent: method, setStatus: method }],
  ])('refuses %s as span: a span is an object with addEvent, setStatus and isRecording', (_name, value) => {
    expect(() => loopGuardTelemetry({ span: value as never })).toThrow(/^agent-loopguard: loopGuardTelemetry: `span` must be an OpenTelemetry Span or a function returning one, got/);
  });

  it.each([
    ['null', null],
    ['an array with both methods', Object.assign([], { startSpan: method, startActiveSpan: method })],
    ['an object without startSpan', { startActiveSpan: method }],
  ])('refuses %s as tracer: a tracer is an object with startSpan and startActiveSpan', (_name, value) => {
    expect(() => loopGuardTelemetry({ tracer: value as never })).toThrow(/^agent-loopguard: loopGuardTelemetry: `tracer` must be an OpenTelemetry Tracer/);
  });

  it('makes its three counters with their names and descriptions', () => {
    const made: unknown[][] = [];
    const meter = { createCounter: (...args: unknown[]) => (made.push(args), { add: method }) } as unknown as Meter;
    loopGuardTelemetry({ meter });
    expect(made).toEqual([
      ['agent_loopguard.warnings', { description: 'Warnings an agent-loopguard guard gave' }],
      ['agent_loopguard.refusals', { description: 'Tool calls an agent-loopguard guard refused' }],
      ['agent_loopguard.stops', { description: 'Runs an agent-loopguard guard stopped' }],
    ]);
  });

  it("starts its tracer's spans with the global tracer named 'ai' (the AI SDK's) when given no tracer", () => {
    const tracing = memoryTracing();
    trace.setGlobalTracerProvider(tracing.provider);
    try {
      const telemetry = loopGuardTelemetry();
      const run = telemetry.tracer.startSpan('run');
      telemetry.record(only({ finishReason: 'length' }), 0);
      run.end();
    } finally {
      trace.disable();
    }
    const [run] = tracing.spans();
    expect(run?.instrumentationScope.name).toBe('ai');
    expect(eventsOf(run).map((event) => event.name)).toEqual(['agent_loopguard.stop']);
  });

  it('refuses options that are not an object', () => {
    expect(() => loopGuardTelemetry('span' as never)).toThrow(/loopGuardTelemetry takes an options object \(\{ span, tracer, meter, includeArguments \}\) or nothing/);
  });

  it('records nothing, and throws nothing, when there is no span anywhere', () => {
    const telemetry = loopGuardTelemetry();
    const stop = only({ finishReason: 'length', text: 'cut' });
    expect(() => {
      telemetry.record(stop, 0);
    }).not.toThrow();
  });
});

describe('where loopGuardTelemetry records', () => {
  it('prefers the span it was given to the active span, and a span function is asked at each record', () => {
    const { tracing, span, events } = spanned();
    const given: { current: typeof span | undefined } = { current: span };
    const telemetry = loopGuardTelemetry({ span: () => given.current });
    const active = tracing.provider.getTracer('test').startSpan('active');
    const stop = only({ finishReason: 'length' });

    context.with(trace.setSpan(context.active(), active), () => {
      telemetry.record(stop, 0);
      given.current = undefined;
      telemetry.record(stop, 1);
    });
    active.end();

    expect(events().map((event) => event.attributes['agent_loopguard.step.index'])).toEqual([0]);
    expect(eventsOf(tracing.spans().find((ended) => ended.name === 'active')).map((event) => event.attributes['agent_loopguard.step.index'])).toEqual([1]);
  });

  it("records on the open run span its tracer started, not on that span's children, and not on one that ended", () => {
    const tracing = memoryTracing();
    const telemetry = loopGuardTelemetry({ tracer: tracing.provider.getTracer('framework') });
    const stop = only({ finishReason: 'length' });

    const first = telemetry.tracer.startSpan('first run');
    first.end();
    telemetry.tracer.startActiveSpan('second run', (run) => {
      telemetry.tracer.startActiveSpan('step', {}, (step) => {
        telemetry.record(stop, 4);
        step.end();
      });
      run.end();
    });
    const rooted = telemetry.tracer.startSpan('third run', { root: true }, trace.setSpan(context.active(), first));
    telemetry.record(stop, 5);
    rooted.end();
    const answer = telemetry.tracer.startActiveSpan('fourth run', {}, context.active(), (run) => {
      telemetry.record(stop, 6);
      run.end();
      return 'done';
    });

    expect(answer).toBe('done');
    const byName = Object.fromEntries(tracing.spans().map((span) => [span.name, eventsOf(span).map((event) => event.attributes['agent_loopguard.step.index'])]));
    expect(byName).toEqual({ 'first run': [], step: [], 'second run': [4], 'third run': [5], 'fourth run': [6] });
    expect(tracing.spans().find((span) => span.name === 'step')?.parentSpanContext?.spanId).toBe(
      tracing.spans().find((span) => span.name === 'second run')?.spanContext().spanId,
    );
  });

  it('takes a span its tracer started under a span of another tracer for a run span', () => {
    const tracing = memoryTracing();
    const telemetry = loopGuardTelemetry({ tracer: tracing.provider.getTracer('framework') });
    const request = tracing.provider.getTracer('server').startSpan('request');
    context.with(trace.setSpan(context.active(), request), () => {
      const run = telemetry.tracer.startSpan('run');
      telemetry.record(only({ finishReason: 'length' }), 3);
      run.end();
    });
    request.end();
    const byName = Object.fromEntries(tracing.spans().map((span) => [span.name, eventsOf(span).map((event) => event.attributes['agent_loopguard.step.index'])]));
    expect(byName).toEqual({ run: [3], request: [] });
  });

  it('goes back to the run span before when the latest one ended, and to none when all did', () => {
    const tracing = memoryTracing();
    const telemetry = loopGuardTelemetry({ tracer: tracing.provider.getTracer('framework') });
    const stop = only({ finishReason: 'length' });
    const first = telemetry.tracer.startSpan('first');
    const second = telemetry.tracer.startSpan('second');
    telemetry.record(stop, 0);
    second.end();
    telemetry.record(stop, 1);
    first.end();
    telemetry.record(stop, 2);
    const byName = Object.fromEntries(tracing.spans().map((span) => [span.name, eventsOf(span).map((event) => event.attributes['agent_loopguard.step.index'])]));
    expect(byName).toEqual({ first: [1], second: [0] });
  });

  it('hands the options and the context of startActiveSpan to the span it starts, in each overload', () => {
    const tracing = memoryTracing();
    const telemetry = loopGuardTelemetry({ tracer: tracing.provider.getTracer('framework') });
    const outside = tracing.provider.getTracer('server').startSpan('outside');
    const answers = [
      telemetry.tracer.startActiveSpan('bare', (span) => (span.end(), 'bare')),
      telemetry.tracer.startActiveSpan('with options', { attributes: { given: 'options' } }, (span) => (span.end(), 'with options')),
      telemetry.tracer.startActiveSpan('with context', { attributes: { given: 'context' } }, trace.setSpan(context.active(), outside), (span) => {
        expect(trace.getActiveSpan()).toBe(span);
        telemetry.record(only({ finishReason: 'length' }), 7);
        span.end();
        return 'with context';
      }),
    ];
    outside.end();

    expect(answers).toEqual(['bare', 'with options', 'with context']);
    const byName = Object.fromEntries(tracing.spans().map((span) => [span.name, span]));
    expect(byName.bare?.attributes).toEqual({});
    expect(byName['with options']?.attributes).toEqual({ given: 'options' });
    expect(byName['with context']?.attributes).toEqual({ given: 'context', 'error.type': 'FINISH_TERMINAL' });
    expect(byName['with context']?.parentSpanContext?.spanId).toBe(outside.spanContext().spanId);
    expect(byName['with options']?.parentSpanContext).toBeUndefined();
    expect(eventsOf(byName['with context']).map((event) => event.attributes['agent_loopguard.step.index'])).toEqual([7]);
  });
});

describe('what loopGuardTelemetry records', () => {
  it('a non-fault stop: an event with fault false, the span status and error.type untouched', () => {
    const { span, events, tracing } = spanned();
    loopGuardTelemetry({ span }).onStop(only({ finishReason: 'stop', text: 'Done.' }) as StopVerdict, [{}, {}]);
    expect(events()).toEqual([
      {
        name: 'agent_loopguard.stop',
        attributes: {
          'agent_loopguard.code': 'FINISH_TERMINAL',
          'agent_loopguard.reason': 'finish-reason',
          'agent_loopguard.detail': 'The model finished its answer (finish reason "stop").',
          'agent_loopguard.step.index': 1,
          'agent_loopguard.fault': false,
        },
      },
    ]);
    expect(tracing.spans()[0]?.status).toEqual({ code: SpanStatusCode.UNSET });
  });

  it('a budget warning and stop, with metric-free attributes', () => {
    const { span, events, tracing } = spanned();
    const telemetry = loopGuardTelemetry({ span });
    const budget = { budget: { maxTotalTokens: { limit: 100, warnAt: 0.5 } }, noProgress: false };
    for (const [index, verdict] of verdicts([{ usage: { totalTokens: 60 } }, { usage: { totalTokens: 60 } }], budget).entries()) telemetry.record(verdict, index);
    expect(events()).toEqual([
      { name: 'agent_loopguard.warning', attributes: { 'agent_loopguard.code': 'BUDGET_WARNING', 'agent_loopguard.detail': 'Total tokens is at 60 of a 100 limit (60%).', 'agent_loopguard.step.index': 0 } },
      {
        name: 'agent_loopguard.stop',
        attributes: {
          'agent_loopguard.code': 'BUDGET_TOTAL_TOKENS',
          'agent_loopguard.reason': 'budget',
          'agent_loopguard.detail': 'Total tokens reached 120, at or over the limit of 100.',
          'agent_loopguard.step.index': 1,
          'agent_loopguard.fault': true,
        },
      },
    ]);
    expect(tracing.spans()[0]?.attributes['error.type']).toBe('BUDGET_TOTAL_TOKENS');
    expect(tracing.spans()[0]?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'agent-loopguard stopped the run: BUDGET_TOTAL_TOKENS' });
  });

  it('leaves the previews of arguments and text out of an oscillation, a no-progress and a stagnation detail', () => {
    const { span, events } = spanned();
    const telemetry = loopGuardTelemetry({ span });
    const cycle = ['secret-a', 'secret-b'].flatMap((query) => [call(query)]);
    const oscillating = verdicts([...cycle, ...cycle, ...cycle, ...cycle], { repeatedToolCall: false, noProgress: false, stagnation: false });
    const stalled = verdicts(Array.from({ length: 3 }, () => ({ finishReason: 'other', text: 'my secret plan' })), { finishReason: false });
    // Every search gets the same private answer, which the evidence holds: it is not recorded by default.
    const stagnating = verdicts(
      Array.from({ length: 20 }, (_, index) => ({
        finishReason: 'tool-calls',
        toolCalls: [{ name: 'search', args: { query: `secret-${String(index % 7)}` }, result: 'secret answer: Jane Doe' }],
      })),
      { repeatedToolCall: false, oscillation: false, noProgress: false },
    );
    for (const verdict of [...oscillating, ...stalled, ...stagnating]) telemetry.record(verdict);

    const recorded = events();
    expect(recorded.map((event) => event.attributes['agent_loopguard.reason'])).toEqual(
      expect.arrayContaining(['oscillation', 'no-progress', 'stagnation']),
    );
    expect(recorded.filter((event) => event.name === 'agent_loopguard.stop').map((event) => event.attributes['agent_loopguard.reason'])).toEqual(['oscillation', 'no-progress', 'stagnation']);
    expect(JSON.stringify(recorded)).not.toMatch(/secret|Jane/);
    expect(recorded.at(-1)?.attributes['agent_loopguard.detail']).toBe(
      'Only 7 of the last 20 steps with tool calls brought an answer not seen before in this run; search(…) was called 3 times.',
    );
    expect(recorded.find((event) => event.name === 'agent_loopguard.stop')?.attributes['agent_loopguard.detail']).toBe(
      'The last 6 tool calls cycle through the same 2 calls 3 times: search(…) → search(…).',
    );
  });

  it('a refusal from judgeCall names the tool, from the evidence or from the call a hook was given', () => {
    const { span, events } = spanned();
    const telemetry = loopGuardTelemetry({ span });
    const guard = createGuard();
    guard.check(call('x'));
    guard.check(call('x'));
    const refusal = guard.judgeCall({ name: 'search', args: { query: 'x' } }) as CallRefusal;
    telemetry.record(refusal);
    const nameless = { ...refusal, evidence: {} } as unknown as CallRefusal;
    telemetry.onBlock(nameless, { name: 'lookup', args: { id: 7 } });
    telemetry.onBlock(nameless, { tool_name: 'Bash', tool_input: {} });
    telemetry.onBlock(nameless, { toolName: 'fetch' });
    telemetry.onBlock(nameless, { id: 'no name' });
    telemetry.record({ block: false });
    expect(events().map((event) => [event.name, event.attributes['gen_ai.tool.name']])).toEqual([
      ['agent_loopguard.refusal', 'search'],
      ['agent_loopguard.refusal', 'lookup'],
      ['agent_loopguard.refusal', 'Bash'],
      ['agent_loopguard.refusal', 'fetch'],
      ['agent_loopguard.refusal', undefined],
    ]);
  });

  it('does not throw on odd input, and records the well-formed part', () => {
    const { span, events } = spanned();
    const telemetry = loopGuardTelemetry({ span });
    expect(() => {
      telemetry.record(null as never);
      telemetry.record('stop' as never);
      telemetry.onStop(undefined as never);
      telemetry.onBlock(7 as never);
      telemetry.onWarning('loop' as never);
      telemetry.onWarning([null, 3, { code: 'LOOP_WARNING', reason: 'no-progress', detail: 5 }, { detail: 'only a detail' }] as never, -1);
      telemetry.onStop({ stop: true, reason: 'custom', code: 'MINE', detail: 'mine', evidence: { self: undefined, big: 10n } } as never, 2.5);
    }).not.toThrow();
    expect(events()).toEqual([
      { name: 'agent_loopguard.warning', attributes: { 'agent_loopguard.code': 'LOOP_WARNING', 'agent_loopguard.reason': 'no-progress' } },
      { name: 'agent_loopguard.warning', attributes: { 'agent_loopguard.detail': 'only a detail' } },
      { name: 'agent_loopguard.stop', attributes: { 'agent_loopguard.code': 'MINE', 'agent_loopguard.reason': 'custom', 'agent_loopguard.detail': 'mine', 'agent_loopguard.fault': true } },
    ]);
  });

  it('puts unserialisable evidence aside when arguments are included, and keeps the rest', () => {
    const { span, events } = spanned();
    loopGuardTelemetry({ span, includeArguments: true }).onStop({ stop: true, reason: 'custom', code: 'MINE', detail: 'mine', evidence: { big: 10n } } as never);
    expect(events()[0]?.attributes).toEqual({ 'agent_loopguard.code': 'MINE', 'agent_loopguard.reason': 'custom', 'agent_loopguard.detail': 'mine', 'agent_loopguard.fault': true });
  });

  it('hands a span only the attributes that have a value: no key is left undefined', () => {
    const { span, calls } = handedSpan();
    const telemetry = loopGuardTelemetry({ span, includeArguments: true });
    telemetry.onWarning([{ code: 'LOOP_WARNING', reason: 'no-progress' }, { code: 5, reason: 7, detail: 'odd' }] as never);
    telemetry.onBlock({ block: true, code: 'REPEATED_TOOL_CALL', reason: 'repeated-tool-call', evidence: { tool: 5 } } as never);
    telemetry.onStop({ stop: true, reason: 'custom', code: 'MINE', evidence: { big: 10n } } as never, []);
    expect(calls).toStrictEqual([
      ['addEvent', 'agent_loopguard.warning', { 'agent_loopguard.code': 'LOOP_WARNING', 'agent_loopguard.reason': 'no-progress' }],
      ['addEvent', 'agent_loopguard.warning', { 'agent_loopguard.detail': 'odd' }],
      ['addEvent', 'agent_loopguard.refusal', { 'agent_loopguard.code': 'REPEATED_TOOL_CALL', 'agent_loopguard.reason': 'repeated-tool-call', 'agent_loopguard.evidence': '{"tool":5}' }],
      ['addEvent', 'agent_loopguard.stop', { 'agent_loopguard.code': 'MINE', 'agent_loopguard.reason': 'custom', 'agent_loopguard.fault': true }],
      ['setAttribute', 'error.type', 'MINE'],
      ['setStatus', { code: SpanStatusCode.ERROR, message: 'agent-loopguard stopped the run: MINE' }],
    ]);
  });

  it('writes the evidence as JSON, and the detail whole, only when arguments are included', () => {
    const stop = { stop: true, reason: 'custom', code: 'MINE', detail: 'search(secret) again', evidence: { tool: 'search', argsPreview: 'secret' } } as never;
    const shown = handedSpan();
    loopGuardTelemetry({ span: shown.span, includeArguments: true }).onStop(stop, 2);
    const hidden = handedSpan();
    loopGuardTelemetry({ span: hidden.span }).onStop(stop, 2);
    const common = { 'agent_loopguard.code': 'MINE', 'agent_loopguard.reason': 'custom', 'agent_loopguard.step.index': 2, 'gen_ai.tool.name': 'search', 'agent_loopguard.fault': true };
    expect(shown.calls[0]).toStrictEqual([
      'addEvent',
      'agent_loopguard.stop',
      { ...common, 'agent_loopguard.detail': 'search(secret) again', 'agent_loopguard.evidence': '{"tool":"search","argsPreview":"secret"}' },
    ]);
    expect(hidden.calls[0]).toStrictEqual(['addEvent', 'agent_loopguard.stop', { ...common, 'agent_loopguard.detail': 'search(…) again' }]);
  });

  it('leaves the span status alone on a fault stop without a code', () => {
    const { span, calls } = handedSpan();
    loopGuardTelemetry({ span }).onStop({ stop: true, reason: 'custom', code: 5 } as never);
    expect(calls).toStrictEqual([['addEvent', 'agent_loopguard.stop', { 'agent_loopguard.reason': 'custom', 'agent_loopguard.fault': true }]]);
  });

  it('onVerdict records the verdict with the index it is given as the step', () => {
    const { span, calls } = handedSpan();
    loopGuardTelemetry({ span }).onVerdict(only({ finishReason: 'stop', text: 'Done.' }), { text: 'Done.' }, 3);
    expect(calls).toStrictEqual([
      [
        'addEvent',
        'agent_loopguard.stop',
        {
          'agent_loopguard.code': 'FINISH_TERMINAL',
          'agent_loopguard.reason': 'finish-reason',
          'agent_loopguard.detail': 'The model finished its answer (finish reason "stop").',
          'agent_loopguard.step.index': 3,
          'agent_loopguard.fault': false,
        },
      ],
    ]);
  });
});

describe('what loopGuardTelemetry leaves out of a detail', () => {
  it('the arguments of a cycle entry, keeping its name; an entry without arguments is all name', () => {
    expect(recordedDetail('lookup, (x), search(q), search(q)', { cycle: ['lookup', '(x)', 'search(q)'] })).toBe('lookup, (…), search(…), search(…)');
  });

  it('previews: only texts under a key ending in Preview, however deep, and every copy of them', () => {
    const evidence = { tool: 'search', count: 5, countPreview: 5, steps: [{ textPreview: 'plan' }, [{ shape: { argsPreview: 'q=1' } }]] };
    expect(recordedDetail('search 5 times: plan, q=1, plan', evidence)).toBe('search 5 times: …, …, …');
  });

  it('the longest preview first, so a shorter one inside it leaves nothing of it behind', () => {
    expect(recordedDetail('f(ab) g(abc)', { aPreview: 'ab', bPreview: 'abc' })).toBe('f(…) g(…)');
    expect(recordedDetail('f(ab) g(abc)', { bPreview: 'abc', aPreview: 'ab' })).toBe('f(…) g(…)');
  });

  it('nothing for an empty preview', () => {
    expect(recordedDetail('abc', { argsPreview: '', cycle: ['f()'] })).toBe('abc');
  });

  it('the previews of a hand-made evidence that holds itself, without throwing', () => {
    const evidence: Record<string, unknown> = { argsPreview: 'secret' };
    evidence.self = evidence;
    evidence.list = [evidence, 'f(other)'];
    expect(recordedDetail('secret other', evidence)).toBe('… …');
  });
});

describe('loopGuardTelemetry counters', () => {
  it('counts warnings, refusals and stops by code and reason, with no tool, detail or step', async () => {
    const metrics = memoryMetrics();
    const telemetry = loopGuardTelemetry({ meter: metrics.provider.getMeter('test') });
    const guard = createGuard();
    for (let index = 0; index < 4; index++) {
      const refusal = guard.judgeCall({ name: 'search', args: { query: 'x' } });
      telemetry.record(refusal);
      telemetry.record(guard.check(refusal.block ? { toolCalls: [{ name: 'search', args: { query: 'x' }, blocked: true }] } : call('x')), index);
    }

    // Hand-made warnings without a code or a reason, or with ones that are not strings, are counted without attributes.
    telemetry.onWarning([{ detail: 'odd' }, { code: 5, reason: 7 }] as never);

    const collected = await metrics.collect();
    expect(Object.keys(collected).sort()).toEqual([LOOPGUARD_METRICS.refusals, LOOPGUARD_METRICS.stops, LOOPGUARD_METRICS.warnings]);
    expect(collected[LOOPGUARD_METRICS.warnings]).toEqual([
      { attributes: { 'agent_loopguard.code': 'LOOP_WARNING', 'agent_loopguard.reason': 'repeated-tool-call' }, value: 1 },
      { attributes: { 'agent_loopguard.code': 'LOOP_WARNING', 'agent_loopguard.reason': 'no-progress' }, value: 1 },
      { attributes: {}, value: 2 },
    ]);
    expect(collected[LOOPGUARD_METRICS.refusals]).toEqual([{ attributes: { 'agent_loopguard.code': 'REPEATED_TOOL_CALL', 'agent_loopguard.reason': 'repeated-tool-call' }, value: 2 }]);
    expect(collected[LOOPGUARD_METRICS.stops]).toEqual([
      { attributes: { 'agent_loopguard.code': 'REPEATED_TOOL_CALL', 'agent_loopguard.reason': 'repeated-tool-call', 'agent_loopguard.fault': true }, value: 1 },
    ]);
  });
});
