/** An in-memory OpenTelemetry SDK for the telemetry tests: spans and metrics are kept, never sent anywhere. */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll } from 'vitest';

/**
 * Makes spans follow async code (`trace.getActiveSpan()` inside awaited callbacks) for the tests of one file, as a
 * Node service's OpenTelemetry setup does.
 */
export function useAsyncContext(): void {
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterAll(() => {
    context.disable();
  });
}

/** A tracer provider of its own, writing to an in-memory exporter, so tests running at the same time share nothing. */
export function memoryTracing(): { provider: BasicTracerProvider; exporter: InMemorySpanExporter; spans: () => ReadableSpan[] } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { provider, exporter, spans: () => exporter.getFinishedSpans() };
}

/** A meter provider whose counters are read on demand: `collect()` returns each counter's points by name. */
export function memoryMetrics(): {
  provider: MeterProvider;
  collect: () => Promise<Record<string, { attributes: Record<string, unknown>; value: unknown }[]>>;
} {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({ readers: [reader] });
  return {
    provider,
    collect: async () => {
      const { resourceMetrics } = await reader.collect();
      const byName: Record<string, { attributes: Record<string, unknown>; value: unknown }[]> = {};
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          byName[metric.descriptor.name] = metric.dataPoints.map((point) => ({ attributes: { ...point.attributes }, value: point.value }));
        }
      }
      return byName;
    },
  };
}

/** A span's events as plain data: name and attributes. */
export function eventsOf(span: ReadableSpan | undefined): { name: string; attributes: Record<string, unknown> }[] {
  return (span?.events ?? []).map((event) => ({ name: event.name, attributes: { ...event.attributes } }));
}
