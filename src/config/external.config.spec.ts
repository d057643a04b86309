import { loadExternalConfig } from './external.config';

describe('loadExternalConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    expect(loadExternalConfig({})).toEqual({
      timeoutMs: 5000,
      maxConcurrency: 16,
      maxQueue: 64,
      circuitThreshold: 5,
      circuitCooldownMs: 10_000,
    });
  });

  it('reads every variable', () => {
    expect(
      loadExternalConfig({
        EXTERNAL_TIMEOUT_MS: '1500',
        EXTERNAL_MAX_CONCURRENCY: '4',
        EXTERNAL_MAX_QUEUE: '0',
        EXTERNAL_CIRCUIT_THRESHOLD: '2',
        EXTERNAL_CIRCUIT_COOLDOWN_MS: '30000',
      }),
    ).toEqual({
      timeoutMs: 1500,
      maxConcurrency: 4,
      maxQueue: 0,
      circuitThreshold: 2,
      circuitCooldownMs: 30_000,
    });
  });

  it.each([
    ['EXTERNAL_MAX_CONCURRENCY', '0'],
    ['EXTERNAL_MAX_CONCURRENCY', 'many'],
    ['EXTERNAL_MAX_QUEUE', '-1'],
    ['EXTERNAL_MAX_QUEUE', '1.5'],
    ['EXTERNAL_CIRCUIT_THRESHOLD', '0'],
    ['EXTERNAL_CIRCUIT_COOLDOWN_MS', '0'],
    ['EXTERNAL_CIRCUIT_COOLDOWN_MS', '10s'],
  ])('stops the boot on %s=%s, naming it', (name, value) => {
    expect(() => loadExternalConfig({ [name]: value })).toThrow(
      new RegExp(`Invalid external API configuration:[\\s\\S]*${name}=`),
    );
  });
});
