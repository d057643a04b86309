import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadWebhooksConfig } from './webhooks.config';

const whsec = (bytes: Buffer): string => `whsec_${bytes.toString('base64')}`;
const secret = whsec(randomBytes(32));

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

  it('takes a whsec_ secret of 24 bytes, the least', () => {
    const least = whsec(randomBytes(24));
    const env = { WEBHOOK_URL: 'https://hooks.example/in', WEBHOOK_SECRET: least };
    expect(loadWebhooksConfig(env).secret).toBe(least);
  });

  it.each([
    ['a plain password', 'hunter2-but-much-longer-than-thirty-two-characters'],
    ['base64 without the whsec_ prefix', randomBytes(32).toString('base64')],
    ['whsec_ and 23 bytes', whsec(randomBytes(23))],
    ['whsec_ and base64 without its padding', whsec(randomBytes(32)).replace(/=+$/, '')],
    ['whsec_ and base64url', whsec(Buffer.alloc(32, 0xfb)).replaceAll('+', '-')],
    ['whsec_ and text that is not base64', 'whsec_this is not base64 at all, not at all!'],
  ])('refuses %s, saying how to make one, without ever showing it', (_what, value) => {
    const attempt = (): unknown =>
      loadWebhooksConfig({ WEBHOOK_URL: 'https://hooks.example/in', WEBHOOK_SECRET: value });
    expect(attempt).toThrow(
      /WEBHOOK_SECRET=<not shown>: WEBHOOK_SECRET must be whsec_ followed by the base64 of 24 random bytes or more/,
    );
    expect(attempt).toThrow(
      `node -e "console.log('whsec_'+require('crypto').randomBytes(32).toString('base64'))"`,
    );
    expect(attempt).not.toThrow(value);
  });

  it('makes a secret it takes with the command it gives', () => {
    // The command of the message, run as written (a child process: the real `crypto`).
    const made = execFileSync(process.execPath, [
      '-e',
      "console.log('whsec_'+require('crypto').randomBytes(32).toString('base64'))",
    ])
      .toString()
      .trim();
    const env = { WEBHOOK_URL: 'https://hooks.example/in', WEBHOOK_SECRET: made };
    expect(loadWebhooksConfig(env).secret).toBe(made);
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
