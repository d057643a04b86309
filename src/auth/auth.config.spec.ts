import { ConfigError } from '../config/env';
import { loadAuthConfig, missingSecretWarning, signInAvailable } from './auth.config';
import type { AppConfig } from '../config/app.config';

const production = { nodeEnv: 'production' } as AppConfig;
const SECRET = 'OEaaSCHzT7T4ADcJ1jzbMuSgSw6iR3S8YMMft0IVMyQ=';

describe('sign-in configuration', () => {
  it('reads the base64 (standard or URL-safe) or hex of 32 bytes or more', () => {
    const bytes = Buffer.from(SECRET, 'base64');
    const read = (secret: string): Buffer =>
      Buffer.from(loadAuthConfig({ AUTH_SECRET: secret }).secret);
    expect(loadAuthConfig({ AUTH_SECRET: SECRET }).secretConfigured).toBe(true);
    expect(read(SECRET).equals(bytes)).toBe(true);
    expect(read(bytes.toString('base64url')).equals(bytes)).toBe(true);
    expect(read(bytes.toString('hex')).equals(bytes)).toBe(true);
    expect(read(`0x${bytes.toString('hex').toUpperCase()}`).equals(bytes)).toBe(true);
  });

  it.each([
    ['a passphrase of 32 characters', 'correct horse battery staple 123'],
    ['32 characters that are base64 of 24 bytes', 'x'.repeat(32)],
    ['the hex of 31 bytes', 'ab'.repeat(31)],
    ['base64 with a stray character', `${SECRET.slice(0, 20)}!${SECRET.slice(21)}`],
  ])('refuses %s, says how to make a key, never shows it', (_, secret) => {
    expect(() => loadAuthConfig({ AUTH_SECRET: secret })).toThrow(ConfigError);
    try {
      loadAuthConfig({ AUTH_SECRET: secret });
    } catch (error) {
      expect((error as Error).message).toContain('AUTH_SECRET=<not shown>');
      expect((error as Error).message).toContain('openssl rand -base64 32');
      expect((error as Error).message).not.toContain(secret);
    }
  });

  it('reads the contract-wallet check bounds, refusing what is out of range', () => {
    expect(loadAuthConfig({})).toMatchObject({
      walletCheckConcurrency: 4,
      walletCheckGas: 1_000_000n,
    });
    const set = { AUTH_WALLET_CHECK_CONCURRENCY: '2', AUTH_WALLET_CHECK_GAS: '500000' };
    expect(loadAuthConfig(set)).toMatchObject({
      walletCheckConcurrency: 2,
      walletCheckGas: 500_000n,
    });
    expect(() => loadAuthConfig({ AUTH_WALLET_CHECK_GAS: '60000000' })).toThrow(
      /AUTH_WALLET_CHECK_GAS/,
    );
    expect(() => loadAuthConfig({ AUTH_WALLET_CHECK_CONCURRENCY: '0' })).toThrow(
      /AUTH_WALLET_CHECK_CONCURRENCY/,
    );
  });

  it('without a secret, signs with a random key of its own, other in each process', () => {
    const [a, b] = [loadAuthConfig({}), loadAuthConfig({})];
    expect([a.secretConfigured, a.secret.length]).toEqual([false, 32]);
    expect(Buffer.from(a.secret).equals(Buffer.from(b.secret))).toBe(false);
  });

  it('reads the hosts of AUTH_DOMAINS lower-case, and refuses what is not a host', () => {
    expect(
      loadAuthConfig({ AUTH_DOMAINS: 'Actions.Example.com, app.example.com:8443' }).domains,
    ).toEqual(['actions.example.com', 'app.example.com:8443']);
    expect(() => loadAuthConfig({ AUTH_DOMAINS: 'https://actions.example.com' })).toThrow(
      /AUTH_DOMAINS must be hosts/,
    );
  });

  it('closes sign-in in production without a secret, and warns when an action needs it', () => {
    const unset = loadAuthConfig({});
    const test = { nodeEnv: 'test' } as AppConfig;
    expect(signInAvailable(unset, production)).toBe(false);
    expect(missingSecretWarning(unset, production, true)).toMatch(/AUTH_SECRET is unset/);
    expect(missingSecretWarning(unset, production, false)).toBeUndefined();
    expect(signInAvailable(unset, test)).toBe(true);
    expect(missingSecretWarning(unset, test, true)).toBeUndefined();
    const set = loadAuthConfig({ AUTH_SECRET: SECRET });
    expect(signInAvailable(set, production)).toBe(true);
    expect(missingSecretWarning(set, production, true)).toBeUndefined();
  });
});
