import { loadWebhooksConfig } from './webhooks.config';

const secret = 's'.repeat(32);

describe('webhook configuration', () => {
  it('is off by default, with 8 attempts, a 10 s timeout and a 5 s first backoff', () => {
    expect(loadWebhooksConfig({})).toEqual({
      url: undefined,
      secret: undefined,
      maxAttempts: 8,
      timeoutMs: 10_000,
      backoffMs: 5000,
      memoryMax: 10_000,
    });
  });

  it('reads a receiver, its secret and the retry settings', () => {
    const env = {
      WEBHOOK_URL: 'http://127.0.0.1:8080/hooks',
      WEBHOOK_SECRET: secret,
      WEBHOOK_MAX_ATTEMPTS: '3',
      WEBHOOK_TIMEOUT_MS: '250',
      WEBHOOK_BACKOFF_MS: '10',
      WEBHOOK_MEMORY_MAX: '5',
    };
    expect(loadWebhooksConfig(env)).toEqual({
      url: 'http://127.0.0.1:8080/hooks',
      secret,
      maxAttempts: 3,
      timeoutMs: 250,
      backoffMs: 10,
      memoryMax: 5,
    });
  });

  it('stops the boot when WEBHOOK_URL comes without WEBHOOK_SECRET, naming it', () => {
    expect(() => loadWebhooksConfig({ WEBHOOK_URL: 'https://hooks.example/in' })).toThrow(
      /^Invalid webhook configuration:\n {2}- WEBHOOK_SECRET=.*required with WEBHOOK_URL/,
    );
  });

  it('refuses a short secret without ever showing it', () => {
    const attempt = (): unknown =>
      loadWebhooksConfig({ WEBHOOK_URL: 'https://hooks.example/in', WEBHOOK_SECRET: 'hunter2' });
    expect(attempt).toThrow(/WEBHOOK_SECRET=<not shown>: WEBHOOK_SECRET must be at least 32/);
    expect(attempt).not.toThrow(/hunter2/);
  });

  it.each([
    ['WEBHOOK_URL', 'ftp://hooks.example/in'],
    ['WEBHOOK_URL', 'https://user:pw@hooks.example/in'],
    ['WEBHOOK_MAX_ATTEMPTS', '0'],
    ['WEBHOOK_MAX_ATTEMPTS', '21'],
    ['WEBHOOK_TIMEOUT_MS', 'soon'],
    ['WEBHOOK_BACKOFF_MS', '0'],
    ['WEBHOOK_MEMORY_MAX', '1.5'],
  ])('refuses %s=%s, naming it', (name, value) => {
    const env = { WEBHOOK_URL: 'https://hooks.example/in', WEBHOOK_SECRET: secret, [name]: value };
    expect(() => loadWebhooksConfig(env)).toThrow(
      new RegExp(`^Invalid webhook configuration:\\n  - ${name}=`),
    );
  });

  it('never shows credentials given in the URL', () => {
    const env = { WEBHOOK_URL: 'https://user:pw@hooks.example/in', WEBHOOK_SECRET: secret };
    expect(() => loadWebhooksConfig(env)).not.toThrow(/pw/);
  });
});
