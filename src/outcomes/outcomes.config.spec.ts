import { loadOutcomesConfig } from './outcomes.config';

describe('loadOutcomesConfig', () => {
  it('applies the documented defaults', () => {
    expect(loadOutcomesConfig({})).toEqual({
      ttlMs: 86_400_000,
      confirmations: 1,
      concurrency: 4,
      maxOpenPerUser: 50,
      maxOpen: 100_000,
      maxOpenClaimed: 80_000,
      maxOpenPerClient: 10_000,
      memoryMax: 10_000,
      hookAttempts: 5,
      hookBackoffMs: 1_000,
      outboxSweepMs: 60_000,
    });
  });

  it('reads each variable', () => {
    expect(
      loadOutcomesConfig({
        INTENT_TTL_S: '60',
        TX_CONFIRMATIONS: '3',
        OUTCOME_POLL_CONCURRENCY: '8',
        INTENT_MAX_OPEN_PER_USER: '5',
        INTENT_MAX_OPEN: '500',
        INTENT_MAX_OPEN_CLAIMED: '400',
        INTENT_MAX_OPEN_PER_CLIENT: '20',
        INTENT_MEMORY_MAX: '100',
        OUTCOME_HOOK_ATTEMPTS: '2',
        OUTCOME_HOOK_BACKOFF_MS: '10',
        OUTBOX_SWEEP_MS: '500',
      }),
    ).toEqual({
      ttlMs: 60_000,
      confirmations: 3,
      concurrency: 8,
      maxOpenPerUser: 5,
      maxOpen: 500,
      maxOpenClaimed: 400,
      maxOpenPerClient: 20,
      memoryMax: 100,
      hookAttempts: 2,
      hookBackoffMs: 10,
      outboxSweepMs: 500,
    });
  });

  it.each([
    ['INTENT_TTL_S', '0'],
    ['TX_CONFIRMATIONS', '0'],
    ['INTENT_MAX_OPEN_PER_USER', '0'],
    ['INTENT_MAX_OPEN', '-1'],
    ['INTENT_MAX_OPEN_CLAIMED', '0'],
    ['INTENT_MAX_OPEN_PER_CLIENT', 'many'],
    ['OUTCOME_POLL_CONCURRENCY', '1000'],
    ['INTENT_MEMORY_MAX', 'lots'],
    ['OUTCOME_HOOK_ATTEMPTS', '2.5'],
  ])('refuses %s=%s naming it', (name, value) => {
    expect(() => loadOutcomesConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});
