import { trace, type Tracer } from '@opentelemetry/api';

/** Names the spans this service makes itself (requests, JSON-RPC calls). */
export const TRACER_NAME = 'dynamic-actions-backend';

export interface TracingHandle {
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

/** Flushes and stops the SDK started in this process, if any (the application's last step). */
export async function stopTracing(): Promise<void> {
  await running?.shutdown();
}

export const tracer = (): Tracer => trace.getTracer(TRACER_NAME);
