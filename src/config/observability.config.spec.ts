import { loadObservabilityConfig } from './observability.config';

describe('loadObservabilityConfig', () => {
  it('applies the documented defaults: info, metrics on 0.0.0.0:9464', () => {
    expect(loadObservabilityConfig({}, 3000)).toEqual({
      logLevel: 'info',
      metrics: { port: 9464, host: '0.0.0.0' },
    });
  });

  it('reads LOG_LEVEL, METRICS_PORT and METRICS_HOST', () => {
    const env = { LOG_LEVEL: 'debug', METRICS_PORT: '9100', METRICS_HOST: '127.0.0.1' };
    expect(loadObservabilityConfig(env, 3000)).toEqual({
      logLevel: 'debug',
      metrics: { port: 9100, host: '127.0.0.1' },
    });
  });

  it('binds metrics where the public listener binds (HOST) unless METRICS_HOST says otherwise', () => {
    expect(loadObservabilityConfig({}, 3000, '127.0.0.1').metrics).toEqual({
      port: 9464,
      host: '127.0.0.1',
    });
    const apart = loadObservabilityConfig({ METRICS_HOST: '0.0.0.0' }, 3000, '127.0.0.1');
    expect(apart.metrics?.host).toBe('0.0.0.0');
  });

  it('has no metrics listener with METRICS_PORT=0', () => {
    expect(loadObservabilityConfig({ METRICS_PORT: '0' }, 3000).metrics).toBeUndefined();
  });

  it('refuses METRICS_PORT equal to PORT: metrics never go out on the public port', () => {
    expect(() => loadObservabilityConfig({ METRICS_PORT: '3000' }, 3000)).toThrow(
      /METRICS_PORT=3000: must differ from PORT/,
    );
  });

  it.each([
    ['LOG_LEVEL', 'loud'],
    ['LOG_LEVEL', 'INFO'],
    ['METRICS_PORT', '65536'],
    ['METRICS_PORT', '-1'],
    ['METRICS_PORT', 'nine'],
  ])('refuses %s=%s naming it', (name, value) => {
    expect(() => loadObservabilityConfig({ [name]: value }, 3000)).toThrow(new RegExp(name));
  });
});
