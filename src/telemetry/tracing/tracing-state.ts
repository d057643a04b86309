import { trace, type Tracer } from '@opentelemetry/api';

/** Names the spans this service makes itself (requests, JSON-RPC calls). */
export const TRACER_NAME = 'dynamic-actions-backend';

export interface TracingHandle {
  /** Exports the spans still buffered. */
  flush(): Promise<void>;
  /** Exports what is buffered and stops the SDK. */
  shutdown(): Promise<void>;
}

let running: TracingHandle | undefined;

/**
 * Whether an OpenTelemetry SDK was started (src/tracing.ts in production, a test's in-memory
 * exporter): without one no span is made and no hook is added, so tracing off costs nothing.
 */
export const isTracingActive = (): boolean => running !== undefined;

export const runningTracing = (): TracingHandle | undefined => running;

export function setRunningTracing(handle: TracingHandle | undefined): void {
  running = handle;
}

/**
 * Exports the spans still buffered, if an SDK runs: the application's last step before the
 * process exits. The SDK keeps running (whoever started it stops it; a test may build more apps).
 */
export async function flushTracing(): Promise<void> {
  await running?.flush();
}

export const tracer = (): Tracer => trace.getTracer(TRACER_NAME);
