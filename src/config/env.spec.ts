import { loadConfig } from './app.config';
import { redactUrl, shownValue } from './redact-url';
import { bootError } from '../testing/boot-error';

describe('boot errors never echo secrets of URL-valued settings', () => {
  it.each([
    [
      'REDIS_URL',
      'http://:hunter2@cache.internal:6379',
      'http://<credentials>@cache.internal:6379',
    ],
    ['REDIS_URL', 'redis://:p@ss@cache.internal:6379', 'redis://<credentials>@cache.internal:6379'],
    [
      'REDIS_URL',
      'mysql://admin:hunter2@db.internal/prod',
      'mysql://<credentials>@db.internal/<path>',
    ],
  ])('%s=%s shows %s', (name, value, shown) => {
    const message = bootError(() => loadConfig({ [name]: value }));
    expect(message).toContain(`${name}=${shown}:`);
    expect(message).not.toMatch(/hunter2|p@ss|admin|prod/);
  });

  it('still quotes values that are not URLs, so the mistake can be seen', () => {
    expect(bootError(() => loadConfig({ PORT: 'eighty' }))).toContain('PORT="eighty":');
  });

  it('shortens a long value that is not a URL', () => {
    const message = bootError(() => loadConfig({ PORT: 'x'.repeat(5000) }));
    expect(message.length).toBeLessThan(400);
  });
});

describe('redactUrl', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com'],
    ['https://api.example.com/', 'https://api.example.com'],
    [
      'https://u:p@api.example.com:8443/v3/key/abc?k=1#x',
      'https://<credentials>@api.example.com:8443/<path>?<query>#<fragment>',
    ],
    [
      'rediss://default:pw@redis.example:6380/2',
      'rediss://<credentials>@redis.example:6380/<path>',
    ],
    ['https://api key=s3cret@host', 'https://<credentials>@host'],
    ['https://[zz]/path?key=s3cret', 'https://[zz]/<path>?<query>'],
    ['https://u:p w@host name/x', 'https://<credentials>@host name/<path>'],
    ['user:pw@host', '<credentials>@host'],
    ['default:s3cretpass', 'default:<not shown>'],
    ['localhost:6379', 'localhost:6379'],
    ['actions.example.com', 'actions.example.com'],
    ['prices.example/v3/price?key=s3cret', 'prices.example/<path>?<query>'],
    ['bad\nhost/x', 'bad\\nhost/<path>'],
  ])('shows %s as %s', (value, shown) => {
    expect(redactUrl(value)).toBe(shown);
  });
});

describe('shownValue', () => {
  it('redacts a value carrying credentials whatever the setting', () => {
    expect(shownValue('HOST', 'admin:pw@10.0.0.1')).toBe('<credentials>@10.0.0.1');
    expect(shownValue('CHAIN_CONFIG_FILE', 'https://u:pw@files.example/c.json')).toBe(
      'https://<credentials>@files.example/<path>',
    );
  });

  it('never shows a secret, not even in part', () => {
    expect(shownValue('WEBHOOK_SECRET', 'short-but-secret')).toBe('<not shown>');
  });

  it('quotes anything else as JSON', () => {
    expect(shownValue('PORT', '80a')).toBe('"80a"');
    expect(shownValue('STRICT_ORIGIN', 'yes\n')).toBe('"yes\\n"');
  });
});
