import { Transform } from 'class-transformer';
import {
  IsIn,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  Min,
  MinLength,
} from './validator-subset';
import { type Env, httpUrlRule, readEnv, toBool } from './env';

/** What OpenTelemetry's own variables name; `grpc` is not offered (no gRPC exporter is shipped). */
const EXPORTERS = ['otlp', 'console', 'none'] as const;
const PROTOCOLS = ['http/protobuf', 'http/json'] as const;
const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/**
 * An OTEL_TRACES_EXPORTER value: `otlp`, `console` (spans to stdout, for a look without a
 * collector) or `none`.
 */
export type TraceExporterName = (typeof EXPORTERS)[number];
/** An OTLP transport (OTEL_EXPORTER_OTLP_PROTOCOL): the names OpenTelemetry's own SDKs accept. */
export type OtlpProtocol = (typeof PROTOCOLS)[number];
/**
 * An OTEL_TRACES_SAMPLER value: the standard sampler names, so the variables mean here what they
 * mean to every OpenTelemetry SDK.
 */
export type SamplerName = (typeof SAMPLERS)[number];

const toNumber = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
    ? Number(value)
    : value;

/**
 * The standard OpenTelemetry variables this service reads (the OTLP exporter reads the endpoint,
 * headers and timeout itself); validated here so a typo stops the boot instead of tracing nothing.
 */
class TracingEnv {
  @IsOptional()
  @Transform(toBool)
  @IsIn([true, false], { message: 'OTEL_SDK_DISABLED must be true or false' })
  OTEL_SDK_DISABLED = false;

  @IsOptional()
  @IsIn(EXPORTERS)
  OTEL_TRACES_EXPORTER?: TraceExporterName;

  @IsOptional()
  @IsUrl(httpUrlRule)
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  @IsOptional()
  @IsUrl(httpUrlRule)
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;

  @IsOptional()
  @IsIn(PROTOCOLS)
  OTEL_EXPORTER_OTLP_PROTOCOL: OtlpProtocol = 'http/protobuf';

  @IsOptional()
  @IsIn(PROTOCOLS)
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?: OtlpProtocol;

  @IsOptional()
  @IsString()
  @MinLength(1)
  OTEL_SERVICE_NAME = 'dynamic-actions-backend';

  @IsOptional()
  @IsIn(SAMPLERS)
  OTEL_TRACES_SAMPLER: SamplerName = 'parentbased_always_on';

  /** The ratio of the `traceidratio` samplers. */
  @IsOptional()
  @Transform(toNumber)
  @IsNumber()
  @Min(0)
  @Max(1)
  OTEL_TRACES_SAMPLER_ARG = 1;
}

/**
 * Tracing settings, read from the standard OTEL_* variables before anything else loads
 * (src/tracing.ts), so the instrumentation is in place before the modules it patches.
 */
export interface TracingConfig {
  /** `none`: tracing is off and the SDK is not even loaded. */
  exporter: TraceExporterName;
  protocol: OtlpProtocol;
  serviceName: string;
  sampler: SamplerName;
  sampleRatio: number;
}

/**
 * Tracing is on when an OTLP endpoint is configured or OTEL_TRACES_EXPORTER names an exporter
 * (`otlp` without an endpoint sends to the OTLP default, http://localhost:4318).
 */
export function loadTracingConfig(env: Env): TracingConfig {
  const vars = readEnv(TracingEnv, env, 'tracing configuration');
  const endpoint = vars.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? vars.OTEL_EXPORTER_OTLP_ENDPOINT;
  const exporter = vars.OTEL_SDK_DISABLED
    ? 'none'
    : (vars.OTEL_TRACES_EXPORTER ?? (endpoint !== undefined ? 'otlp' : 'none'));
  return {
    exporter,
    protocol: vars.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? vars.OTEL_EXPORTER_OTLP_PROTOCOL,
    serviceName: vars.OTEL_SERVICE_NAME,
    sampler: vars.OTEL_TRACES_SAMPLER,
    sampleRatio: vars.OTEL_TRACES_SAMPLER_ARG,
  };
}
