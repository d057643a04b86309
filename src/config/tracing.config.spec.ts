import { loadTracingConfig } from './tracing.config';

describe('loadTracingConfig', () => {
  it('is off unless an endpoint or an exporter is configured', () => {
    expect(loadTracingConfig({})).toEqual({
      exporter: 'none',
      protocol: 'http/protobuf',
      serviceName: 'dynamic-actions-backend',
      sampler: 'parentbased_always_on',
      sampleRatio: 1,
    });
  });

  it('exports over OTLP once OTEL_EXPORTER_OTLP_ENDPOINT (or the traces endpoint) is set', () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(loadTracingConfig(base).exporter).toBe('otlp');
    const traces = { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' };
    expect(loadTracingConfig(traces).exporter).toBe('otlp');
  });

  it('follows OTEL_TRACES_EXPORTER, and OTEL_SDK_DISABLED above all', () => {
    expect(loadTracingConfig({ OTEL_TRACES_EXPORTER: 'console' }).exporter).toBe('console');
    const off = { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(loadTracingConfig(off).exporter).toBe('none');
    const disabled = { OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' };
    expect(loadTracingConfig(disabled).exporter).toBe('none');
  });

  it('reads the protocol (the traces one first), service name and sampler', () => {
    const config = loadTracingConfig({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'actions-eu',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    });
    expect(config).toEqual({
      exporter: 'otlp',
      protocol: 'http/json',
      serviceName: 'actions-eu',
      sampler: 'parentbased_traceidratio',
      sampleRatio: 0.25,
    });
  });

  it.each([
    ['OTEL_TRACES_EXPORTER', 'jaeger'],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
    ['OTEL_TRACES_SAMPLER', 'sometimes'],
    ['OTEL_TRACES_SAMPLER_ARG', '1.5'],
    ['OTEL_SDK_DISABLED', 'yes'],
  ])('refuses %s=%s naming it', (name, value) => {
    expect(() => loadTracingConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('shows a refused endpoint without its credentials, path or query', () => {
    const endpoint = 'ftp://user:s3cret@collector/v1/traces?token=abc';
    expect(() => loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT=ftp:\/\/<credentials>@collector\/<path>\?<query>/,
    );
  });
});
