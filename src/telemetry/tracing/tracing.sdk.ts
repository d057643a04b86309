import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  type Sampler,
  SimpleSpanProcessor,
  type SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { TracingConfig } from '../../config/tracing.config';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DetachedSpanProcessor } from './detached-span-processor';
import { ReportingExporter } from './reporting-exporter';
import { runningTracing, setRunningTracing, type TracingHandle } from './tracing-state';
import { upstreamSpanAttributes } from './upstream-spans';

/** package.json's version, the same from src/ and dist/ (both three levels below the root). */
function serviceVersion(): string | undefined {
  try {
    const pkg = readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8');
    return (JSON.parse(pkg) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

function sampler({ sampler: name, sampleRatio }: TracingConfig): Sampler {
  const ratio = new TraceIdRatioBasedSampler(sampleRatio);
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio;
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** The OTLP exporters read OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT, _HEADERS and _TIMEOUT themselves. */
function exporterFor(config: TracingConfig): SpanExporter {
  if (config.exporter === 'console') return new ConsoleSpanExporter();
  return config.protocol === 'http/json' ? new OtlpJsonExporter() : new OtlpProtobufExporter();
}

/**
 * Starts the SDK: W3C trace context in and out (`traceparent`; baggage is not forwarded to third
 * parties), spans of outgoing HTTP calls (undici: fetch, so external APIs and RPC nodes) and of
 * Redis commands, only within a request. URLs on spans are redacted as in logs; Redis spans name
 * the command, never its keys (which hold addresses and user text). `exporter` is for tests (an
 * in-memory exporter, each span exported as it ends).
 */
export function startTracing(config: TracingConfig, exporter?: SpanExporter): TracingHandle {
  const started = runningTracing();
  if (started) return started;
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const provider = new TracerProvider({
    // service.version from package.json, unless OTEL_RESOURCE_ATTRIBUTES names another.
    resource: defaultResource()
      .merge(resourceFromAttributes({ 'service.version': serviceVersion() }))
      .merge(detectResources({ detectors: [envDetector] }))
      .merge(resourceFromAttributes({ 'service.name': config.serviceName })),
    sampler: sampler(config),
    spanProcessors: [
      new DetachedSpanProcessor(
        exporter
          ? new SimpleSpanProcessor({ exporter: new ReportingExporter(exporter) })
          : new BatchSpanProcessor({ exporter: new ReportingExporter(exporterFor(config)) }),
      ),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new UndiciInstrumentation({
        requireParentforSpans: true,
        startSpanHook: upstreamSpanAttributes,
      }),
      new IORedisInstrumentation({
        requireParentSpan: true,
        dbStatementSerializer: (command) => command,
      }),
    ],
  });
  const handle: TracingHandle = {
    flush: () => provider.forceFlush(),
    async shutdown() {
      if (runningTracing() !== handle) return;
      setRunningTracing(undefined);
      unregister();
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
  setRunningTracing(handle);
  return handle;
}
