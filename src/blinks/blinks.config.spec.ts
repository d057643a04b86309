import { loadConfig } from '../config/app.config';
import { ConfigError } from '../config/env';
import { blinkOriginsNotice, loadBlinksConfig } from './blinks.config';

describe('loadBlinksConfig', () => {
  it('serves blinks to any origin by default', () => {
    expect(loadBlinksConfig({})).toEqual({ enabled: true, allowedOrigins: [] });
    expect(loadBlinksConfig({ BLINKS_ALLOWED_ORIGINS: '*' }).allowedOrigins).toEqual([]);
  });

  it('reads BLINKS=off and a list of origins', () => {
    const config = loadBlinksConfig({
      BLINKS: 'off',
      BLINKS_ALLOWED_ORIGINS: 'https://dial.to, https://x.com',
    });
    expect(config).toEqual({
      enabled: false,
      allowedOrigins: ['https://dial.to', 'https://x.com'],
    });
  });

  it.each([
    ['BLINKS', 'no'],
    ['BLINKS_ALLOWED_ORIGINS', 'https://dial.to/'],
    ['BLINKS_ALLOWED_ORIGINS', '*,https://dial.to'],
  ])('refuses %s=%s at boot', (name, value) => {
    expect(() => loadBlinksConfig({ [name]: value })).toThrow(ConfigError);
  });
});

describe('blinkOriginsNotice', () => {
  const notice = (env: Record<string, string>): string | undefined =>
    blinkOriginsNotice(loadConfig({ NODE_ENV: 'test', ...env }), loadBlinksConfig(env));

  it('speaks only when the service is narrowed and the blinks are not', () => {
    expect(notice({})).toBeUndefined();
    expect(notice({ ALLOWED_ORIGINS: 'https://app.sherry.social' })).toMatch(
      /^ALLOWED_ORIGINS narrow the actions' own routes, not the blinks/,
    );
    expect(notice({ STRICT_ORIGIN: 'true' })).toMatch(/^STRICT_ORIGIN narrow/);
    expect(
      notice({
        ALLOWED_ORIGINS: 'https://app.sherry.social',
        BLINKS_ALLOWED_ORIGINS: 'https://dial.to',
      }),
    ).toBeUndefined();
  });
});
