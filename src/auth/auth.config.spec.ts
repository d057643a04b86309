import { ConfigError } from '../config/env';
import { loadAuthConfig, missingSecretWarning, signInAvailable } from './auth.config';
import type { AppConfig } from '../config/app.config';

const production = { nodeEnv: 'production' } as AppConfig;
const SECRET = 'x'.repeat(32);

describe('sign-in configuration', () => {
  it('reads a secret of 32 bytes or more, counted in UTF-8 bytes, never shown in the refusal', () => {
    expect(loadAuthConfig({ AUTH_SECRET: SECRET }).secretConfigured).toBe(true);
    // 16 two-byte characters: 32 bytes.
    expect(loadAuthConfig({ AUTH_SECRET: 'é'.repeat(16) }).secret).toHaveLength(32);
    expect(() => loadAuthConfig({ AUTH_SECRET: 'short secret' })).toThrow(ConfigError);
    try {
      loadAuthConfig({ AUTH_SECRET: 'short secret' });
    } catch (error) {
      expect((error as Error).message).toContain('AUTH_SECRET=<not shown>');
      expect((error as Error).message).not.toContain('short secret');
    }
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
