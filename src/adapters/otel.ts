/**
 * The guard's verdicts as OpenTelemetry span events and counters: the `@osama.ansar/agent-loopguard/otel` subpath.
 * It is the only module that imports `@opentelemetry/api` (an optional peer dependency), so the root entry and the
 * other subpaths load without it.
 */
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Context, Counter, Meter, Span, SpanOptions, Tracer } from '@opentelemetry/api';
import { isFault } from '../guard/verdict.js';
import { argumentError, isRecord } from '../utils/validate.js';
import type { CallRefusal, CallVerdict, GuardWarning, StopVerdict, Verdict } from '../types.js';
import { callName, LOOPGUARD_ATTRIBUTES, LOOPGUARD_EVENTS, LOOPGUARD_METRICS, stepIndexOf, toolOf, withoutPreviews } from './otel-attributes.js';

export { LOOPGUARD_ATTRIBUTES, LOOPGUARD_EVENTS, LOOPGUARD_METRICS } from './otel-attributes.js';

/** Options of {@link loopGuardTelemetry}. */
export interface LoopGuardTelemetryOptions {
  /**
   * The span to record on, or a function returning it at the time of each record (`undefined` to fall back). Without
   * it, events go to the run span of `telemetry.tracer` that is open, else to the active span.
   * @default undefined
   */
  readonly span?: Span | (() => Span | undefined) | undefined;
  /**
   * The tracer `telemetry.tracer` starts spans with. Hand `telemetry.tracer` to a framework's OpenTelemetry
   * integration (the AI SDK's `new OpenTelemetry({ tracer })`), and the guard's events land on the framework's run span.
   * @default trace.getTracer('ai'), the AI SDK's own tracer name
   */
  readonly tracer?: Tracer | undefined;
  /** Where the warning, refusal and stop counters go; without it, no counters. @default undefined */
  readonly meter?: Meter | undefined;
  /**
   * Record what the model passed and got back: tool-argument and text previews in `detail`, and the evidence as JSON.
   * They may hold personal data, so they are left out unless this is `true`.
   * @default false
   */
  readonly includeArguments?: boolean | undefined;
}

/**
 * Records a guard's verdicts on a span. Its methods are own functions that need no `this`, shaped like the callbacks
 * every adapter takes, so `toAgentSettings(options, telemetry)` or `{ onStop: telemetry.onStop }` wires it in one line.
 */
export interface LoopGuardTelemetry {
  /** A stop verdict: an event, and on a fault stop the span's status is set to error with `error.type` = the code. */
  readonly onStop: (verdict: StopVerdict, stepsOrIndex?: unknown) => void;
  /** Warnings the guard passed on: one event each. */
  readonly onWarning: (warnings: readonly GuardWarning[], stepsOrIndex?: unknown) => void;
  /** A call refused before it ran: one event naming the tool. */
  readonly onBlock: (refusal: CallRefusal, call?: unknown) => void;
  /** What `check`, `peek` or `judgeCall` returned, for a hand-written loop: its warnings, refusal or stop. */
  readonly record: (verdict: Verdict | CallVerdict, stepIndex?: number) => void;
  /** `record` in the shape of `runAgentLoop`'s and `withGuard`'s `onVerdict`. */
  readonly onVerdict: (verdict: Verdict, step: unknown, index: number) => void;
  /** A tracer that starts spans with `options.tracer` and remembers the run spans it started, to record on them. */
  readonly tracer: Tracer;
}

function isSpan(value: unknown): value is Span {
  return isRecord(value) && typeof value.addEvent === 'function' && typeof value.setStatus === 'function' && typeof value.isRecording === 'function';
}

function isTracer(value: unknown): value is Tracer {
  return isRecord(value) && typeof value.startSpan === 'function' && typeof value.startActiveSpan === 'function';
}

function isMeter(value: unknown): value is Meter {
  return isRecord(value) && typeof value.createCounter === 'function';
}

function checkOptions(options: unknown): LoopGuardTelemetryOptions {
  if (options === undefined) return {};
  if (!isRecord(options)) argumentError('loopGuardTelemetry takes an options object ({ span, tracer, meter, includeArguments }) or nothing', options);
  const { span, tracer, meter, includeArguments } = options;
  if (span !== undefined && typeof span !== 'function' && !isSpan(span)) argumentError('loopGuardTelemetry: `span` must be an OpenTelemetry Span or a function returning one', span);
  if (tracer !== undefined && !isTracer(tracer)) argumentError('loopGuardTelemetry: `tracer` must be an OpenTelemetry Tracer (trace.getTracer(name))', tracer);
  if (meter !== undefined && !isMeter(meter)) argumentError('loopGuardTelemetry: `meter` must be an OpenTelemetry Meter (metrics.getMeter(name))', meter);
  if (includeArguments !== undefined && typeof includeArguments !== 'boolean') argumentError('loopGuardTelemetry: `includeArguments` must be a boolean', includeArguments);
  return options;
}

/** Evidence as JSON for the opted-in attribute; `undefined` for no evidence, and for evidence that does not serialise. */
function evidenceJson(evidence: unknown): string | undefined {
  try {
    return JSON.stringify(evidence);
  } catch {
    return undefined;
  }
}

/**
 * Makes the object that records a guard's verdicts on OpenTelemetry spans: one event per warning, refusal and stop
 * (see {@link LOOPGUARD_EVENTS} and {@link LOOPGUARD_ATTRIBUTES}); on a fault stop (`isFault`), the span's status is
 * error and its `error.type` the stop code. With a `meter`, counters too ({@link LOOPGUARD_METRICS}).
 *
 * The span recorded on is, in this order: `options.span`; the latest run span `telemetry.tracer` started that is still
 * open (a span it started whose parent it did not start); the active span. With none, nothing is recorded. Tool
 * arguments, model text and tool results are left out unless `includeArguments` is `true`.
 *
 * One telemetry object watches the runs of its own tracer: for runs at the same time, give each its own object (or
 * pass `span`), so each run's verdicts land on its own span.
 * @param options - `span`, `tracer`, `meter`, `includeArguments`
 * @throws TypeError when an option is not what it should be
 */
export function loopGuardTelemetry(options?: LoopGuardTelemetryOptions): LoopGuardTelemetry {
  const { span: given, meter, includeArguments = false } = checkOptions(options);
  const base = options?.tracer ?? trace.getTracer('ai');
  const started = new WeakSet<Span>();
  let runSpans: Span[] = [];

  const counters: Record<'warnings' | 'refusals' | 'stops', Counter | undefined> = {
    warnings: meter?.createCounter(LOOPGUARD_METRICS.warnings, { description: 'Warnings an agent-loopguard guard gave' }),
    refusals: meter?.createCounter(LOOPGUARD_METRICS.refusals, { description: 'Tool calls an agent-loopguard guard refused' }),
    stops: meter?.createCounter(LOOPGUARD_METRICS.stops, { description: 'Runs an agent-loopguard guard stopped' }),
  };

  function target(): Span | undefined {
    const chosen = typeof given === 'function' ? given() : given;
    if (chosen !== undefined) return chosen;
    runSpans = runSpans.filter((span) => span.isRecording());
    return runSpans.at(-1) ?? trace.getActiveSpan();
  }

  function startSpan(name: string, spanOptions?: SpanOptions, parentContext?: Context): Span {
    const span = base.startSpan(name, spanOptions, parentContext);
    started.add(span);
    const parent = spanOptions?.root === true ? undefined : trace.getSpan(parentContext ?? context.active());
    if (parent === undefined || !started.has(parent)) runSpans.push(span);
    return span;
  }

  // The three overloads of `startActiveSpan`: (name, fn), (name, options, fn), (name, options, context, fn): the
  // function comes last, after the options and the context when given.
  function startActiveSpan(name: string, ...rest: unknown[]): unknown {
    const fn = rest.pop() as (span: Span) => unknown;
    const [spanOptions, parentContext] = rest as [SpanOptions?, Context?];
    const span = startSpan(name, spanOptions, parentContext);
    return context.with(trace.setSpan(parentContext ?? context.active(), span), fn, undefined, span);
  }

  function detailOf(detail: unknown, evidence: unknown): string | undefined {
    if (typeof detail !== 'string') return undefined;
    return includeArguments ? detail : withoutPreviews(detail, evidence);
  }

  function attributes(entry: { code?: unknown; reason?: unknown; detail?: unknown; evidence?: unknown }, stepIndex: number | undefined, toolName?: string): Attributes {
    const result: Attributes = {};
    if (typeof entry.code === 'string') result[LOOPGUARD_ATTRIBUTES.code] = entry.code;
    if (typeof entry.reason === 'string') result[LOOPGUARD_ATTRIBUTES.reason] = entry.reason;
    const detail = detailOf(entry.detail, entry.evidence);
    if (detail !== undefined) result[LOOPGUARD_ATTRIBUTES.detail] = detail;
    if (stepIndex !== undefined) result[LOOPGUARD_ATTRIBUTES.stepIndex] = stepIndex;
    const tool = toolName ?? toolOf(entry.evidence);
    if (tool !== undefined) result[LOOPGUARD_ATTRIBUTES.toolName] = tool;
    if (includeArguments) {
      const json = evidenceJson(entry.evidence);
      if (json !== undefined) result[LOOPGUARD_ATTRIBUTES.evidence] = json;
    }
    return result;
  }

  /** The low-cardinality attributes of a counter: never the detail, the tool or the step. */
  function metricAttributes(entry: { code?: unknown; reason?: unknown }): Attributes {
    const result: Attributes = {};
    if (typeof entry.code === 'string') result[LOOPGUARD_ATTRIBUTES.code] = entry.code;
    if (typeof entry.reason === 'string') result[LOOPGUARD_ATTRIBUTES.reason] = entry.reason;
    return result;
  }

  function onWarning(warnings: readonly GuardWarning[], stepsOrIndex?: unknown): void {
    if (!Array.isArray(warnings)) return;
    const span = target();
    const stepIndex = stepIndexOf(stepsOrIndex);
    for (const warning of warnings as unknown[]) {
      if (!isRecord(warning)) continue;
      span?.addEvent(LOOPGUARD_EVENTS.warning, attributes(warning, stepIndex));
      counters.warnings?.add(1, metricAttributes(warning));
    }
  }

  function onBlock(refusal: CallRefusal, call?: unknown): void {
    if (!isRecord(refusal)) return;
    target()?.addEvent(LOOPGUARD_EVENTS.refusal, attributes(refusal, undefined, callName(call)));
    counters.refusals?.add(1, metricAttributes(refusal));
  }

  function onStop(verdict: StopVerdict, stepsOrIndex?: unknown): void {
    if (!isRecord(verdict)) return;
    const span = target();
    const fault = isFault(verdict);
    span?.addEvent(LOOPGUARD_EVENTS.stop, { ...attributes(verdict, stepIndexOf(stepsOrIndex)), [LOOPGUARD_ATTRIBUTES.fault]: fault });
    if (fault && typeof verdict.code === 'string') {
      span?.setAttribute(LOOPGUARD_ATTRIBUTES.errorType, verdict.code);
      span?.setStatus({ code: SpanStatusCode.ERROR, message: `agent-loopguard stopped the run: ${verdict.code}` });
    }
    counters.stops?.add(1, { ...metricAttributes(verdict), [LOOPGUARD_ATTRIBUTES.fault]: fault });
  }

  function record(verdict: Verdict | CallVerdict, stepIndex?: number): void {
    // Read as what it may be at run time: a hand-made verdict can hold anything.
    const given: unknown = verdict;
    if (!isRecord(given)) return;
    if ('block' in given) {
      if (given.block === true) onBlock(given as CallRefusal);
      return;
    }
    onWarning(given.warnings as readonly GuardWarning[], stepIndex);
    if (given.stop === true) onStop(given as StopVerdict, stepIndex);
  }

  const tracer: Tracer = { startSpan, startActiveSpan };
  return {
    onStop,
    onWarning,
    onBlock,
    record,
    onVerdict: (verdict, _step, index) => {
      record(verdict, index);
    },
    tracer,
  };
}
