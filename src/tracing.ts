/**
 * Imported first by main.ts, before anything else is loaded: OpenTelemetry's instrumentations
 * patch modules (ioredis) as they are required, so the SDK must start before the application is
 * loaded. With tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT nor OTEL_TRACES_EXPORTER) the SDK is
 * not even loaded.
 */
import { checkConfiguration } from './config/configuration.check';
import { ConfigError } from './config/env';
import { loadTracingConfig } from './config/tracing.config';
import type * as TracingSdk from './telemetry/tracing/tracing.sdk';

/** Whether the configuration passes; bootstrap reports every problem when it does not. */
function configurationPasses(): boolean {
  try {
    checkConfiguration(process.env);
    return true;
  } catch (error) {
    if (error instanceof ConfigError) return false;
    throw error;
  }
}

try {
  // A refused configuration starts no tracing and is left to bootstrap, which reports it with
  // the problems of the feature modules' own variables (registered as they are imported), at once.
  if (configurationPasses()) {
    const config = loadTracingConfig(process.env);
    if (config.exporter !== 'none') {
      // A require, not an import: the SDK loads only when tracing is on, and before the app.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const sdk = require('./telemetry/tracing/tracing.sdk') as typeof TracingSdk;
      sdk.startTracing(config);
    }
  }
} catch (error) {
  // As main.ts reports a bad configuration: its message, no stack.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
