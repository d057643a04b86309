import { loadOutcomesConfig } from './outcomes.config';

describe('loadOutcomesConfig', () => {
  it('applies the documented defaults', () => {
    expect(loadOutcomesConfig({})).toEqual({
      ttlMs: 86_400_000,
      confirmations: 1,
      pollMs: 3_000,
      concurrency: 4,
      memoryMax: 10_000,
      hookAttempts: 5,
      hookBackoffMs: 1_000,
    });
  });

  it('reads each variable', () => {
    expect(
      loadOutcomesConfig({
        INTENT_TTL_S: '60',
        TX_CONFIRMATIONS: '3',
        OUTCOME_POLL_MS: '500',
        OUTCOME_POLL_CONCURRENCY: '8',
        INTENT_MEMORY_MAX: '100',
        OUTCOME_HOOK_ATTEMPTS: '2',
        OUTCOME_HOOK_BACKOFF_MS: '10',
      }),
    ).toEqual({
      ttlMs: 60_000,
      confirmations: 3,
      pollMs: 500,
      concurrency: 8,
      memoryMax: 100,
      hookAttempts: 2,
      hookBackoffMs: 10,
    });
  });

  it.each([
    ['INTENT_TTL_S', '0'],
    ['TX_CONFIRMATIONS', '0'],
    ['OUTCOME_POLL_MS', '10'],
    ['OUTCOME_POLL_CONCURRENCY', '1000'],
    ['INTENT_MEMORY_MAX', 'lots'],
    ['OUTCOME_HOOK_ATTEMPTS', '2.5'],
  ])('refuses %s=%s naming it', (name, value) => {
    expect(() => loadOutcomesConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});
