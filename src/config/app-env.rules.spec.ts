import { HttpException } from '@nestjs/common';
import { loadConfig } from './app.config';
import { checkConfiguration } from './configuration.check';
import { ConfigError } from './env';
import { permanentBaseUrl } from './published-base-url';
import { bootError } from '../testing/boot-error';

describe('values that parse but mean something else are refused, naming the variable', () => {
  it.each([
    ['credentials', 'https://user:hunter2@actions.example.com'],
    ['a query', 'https://actions.example.com/?ref=x'],
    ['a bare query mark', 'https://actions.example.com/?'],
    ['a fragment', 'https://actions.example.com/#top'],
  ])('PUBLIC_BASE_URL with %s', (_, value) => {
    const message = bootError(() => loadConfig({ PUBLIC_BASE_URL: value }));
    expect(message).toMatch(
      /PUBLIC_BASE_URL=.*: PUBLIC_BASE_URL must carry no credentials, query or fragment/,
    );
    expect(message).not.toContain('hunter2');
  });

  it('keeps a base URL with a path', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://example.com/actions/' }).publicBaseUrl).toBe(
      'https://example.com/actions',
    );
  });

  it.each([
    ['*'],
    ['https://app.example.com/'],
    ['app.example.com'],
    ['https://app.example.com/path'],
    ['ftp://app.example.com'],
    ['https://app.example.com, *'],
    ['https://App.Example.com'],
  ])('ALLOWED_ORIGINS=%s', (value) => {
    expect(bootError(() => loadConfig({ ALLOWED_ORIGINS: value }))).toContain(
      'ALLOWED_ORIGINS must be a comma-separated list of origins',
    );
  });

  it('reads a list of origins', () => {
    expect(
      loadConfig({ ALLOWED_ORIGINS: 'https://app.example.com, http://localhost:5173' })
        .allowedOrigins,
    ).toEqual(['https://app.example.com', 'http://localhost:5173']);
  });

  it.each([['1.2.3'], ['10.0.0.0/33'], ['::g'], ['10.0.0.1/8/1'], ['true'], ['proxy.internal']])(
    'TRUST_PROXY=%s',
    (value) => {
      expect(bootError(() => loadConfig({ TRUST_PROXY: value }))).toMatch(
        /TRUST_PROXY=.*: TRUST_PROXY must be false or a comma-separated list of IP addresses/,
      );
    },
  );

  it('reads addresses, CIDRs and proxy-addr range names for TRUST_PROXY', () => {
    expect(
      loadConfig({ TRUST_PROXY: '10.0.0.0/8, ::1, fd00::/8, loopback, 192.168.1.7' }).trustProxy,
    ).toEqual(['10.0.0.0/8', '::1', 'fd00::/8', 'loopback', '192.168.1.7']);
  });
});

describe('checkConfiguration: every group of variables at once, in one shape', () => {
  it('reports problems of several groups in one error', () => {
    let error: unknown;
    try {
      checkConfiguration({
        PORT: 'abc',
        RATE_LIMIT_ON_STORE_ERROR: 'bogus',
        CACHE_TTL_SECONDS: 'x',
        LOG_LEVEL: 'loud',
        ALLOWED_ORIGINS: '*',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { message, problems } = error as ConfigError;
    expect(message.startsWith('Invalid configuration:\n  - ')).toBe(true);
    for (const name of [
      'PORT',
      'RATE_LIMIT_ON_STORE_ERROR',
      'CACHE_TTL_SECONDS',
      'LOG_LEVEL',
      'ALLOWED_ORIGINS',
    ]) {
      expect(problems.filter((problem) => problem.startsWith(`${name}=`))).toHaveLength(1);
    }
  });

  it('passes a valid environment', () => {
    expect(() => checkConfiguration({})).not.toThrow();
  });
});

describe('permanentBaseUrl: where token URIs point', () => {
  const req = { protocol: 'https', host: 'attacker.example' };

  it('refuses the request host in production with neither PUBLIC_BASE_URL nor ALLOWED_HOSTS', () => {
    const config = loadConfig({ NODE_ENV: 'production' });
    let error: unknown;
    try {
      permanentBaseUrl(config, req);
    } catch (caught) {
      error = caught;
    }
    expect((error as HttpException).getStatus()).toBe(503);
  });

  it('uses PUBLIC_BASE_URL when set', () => {
    const config = loadConfig({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://a.example/' });
    expect(permanentBaseUrl(config, req)).toBe('https://a.example');
  });

  it('uses the request host when ALLOWED_HOSTS bounds it, or outside production', () => {
    const bounded = loadConfig({ NODE_ENV: 'production', ALLOWED_HOSTS: 'attacker.example' });
    expect(permanentBaseUrl(bounded, req)).toBe('https://attacker.example');
    expect(permanentBaseUrl(loadConfig({ NODE_ENV: 'test' }), req)).toBe(
      'https://attacker.example',
    );
  });
});
