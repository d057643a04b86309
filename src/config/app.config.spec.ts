import { loadConfig } from './app.config';

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      nodeEnv: 'production',
      bodyLimitBytes: 1_048_576,
      metadata: {
        title: expect.any(String),
        description: expect.any(String),
        iconUrl: undefined,
      },
      publicBaseUrl: undefined,
      allowedOrigins: [],
      strictOrigin: false,
      debugUi: false,
      trustProxy: [],
      redisUrl: undefined,
      redisKeyPrefix: '',
      shutdownTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
      maxConnections: 10_000,
      listenBacklog: 4096,
      acceptSockets: 1,
      allowedHosts: [],
      shutdownDelayMs: 0,
      shutdownDrainMs: 1000,
    });
    const { title, description } = loadConfig({}).metadata;
    expect(title.length).toBeGreaterThan(0);
    expect(description.length).toBeGreaterThan(0);
  });

  it('reads every core variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      NODE_ENV: 'development',
      BODY_LIMIT_BYTES: '2048',
      METADATA_TITLE: 'My actions',
      METADATA_DESCRIPTION: 'What they do',
      PUBLIC_BASE_URL: 'https://actions.example.com/',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      nodeEnv: 'development',
      bodyLimitBytes: 2048,
      metadata: { title: 'My actions', description: 'What they do' },
      publicBaseUrl: 'https://actions.example.com',
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', NODE_ENV: '', METADATA_TITLE: '' })).toMatchObject({
      port: 3000,
      nodeEnv: 'production',
      metadata: loadConfig({}).metadata,
    });
  });

  it('accepts PORT=0 (any free port)', () => {
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
  });

  it.each([['abc'], ['80.5'], ['-1'], ['65536'], ['3000abc']])(
    'refuses PORT=%s with a message naming PORT and the value',
    (port) => {
      expect(() => loadConfig({ PORT: port })).toThrow(
        new RegExp(`^Invalid configuration:\\n  - PORT="?${port}"?: PORT must`),
      );
    },
  );

  it.each([['staging'], ['dev'], ['PRODUCTION']])('refuses NODE_ENV=%s, naming it', (env) => {
    expect(() => loadConfig({ NODE_ENV: env })).toThrow(`NODE_ENV="${env}"`);
  });

  it.each([
    ['BODY_LIMIT_BYTES', '0'],
    ['BODY_LIMIT_BYTES', '1mb'],
    ['PUBLIC_BASE_URL', 'actions.example.com'],
    ['PUBLIC_BASE_URL', 'not a url'],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}="?${value}"?: `));
  });

  it('reads the request deadlines and the connection cap', () => {
    const config = loadConfig({
      REQUEST_TIMEOUT_MS: '5000',
      HEADERS_TIMEOUT_MS: '2000',
      KEEP_ALIVE_TIMEOUT_MS: '65000',
      MAX_CONNECTIONS: '0',
    });
    expect(config).toMatchObject({
      requestTimeoutMs: 5000,
      headersTimeoutMs: 2000,
      keepAliveTimeoutMs: 65_000,
      maxConnections: 0,
    });
  });

  it('defaults the headers deadline to the request deadline when that is under 10 s', () => {
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '500' }).headersTimeoutMs).toBe(500);
  });

  it('refuses a headers deadline longer than the request deadline, naming both', () => {
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '2000' })).toThrow(
      /HEADERS_TIMEOUT_MS=2000: HEADERS_TIMEOUT_MS must not be greater than REQUEST_TIMEOUT_MS/,
    );
  });

  it('reads ALLOWED_HOSTS, wildcards and ports included', () => {
    expect(loadConfig({ ALLOWED_HOSTS: 'Actions.example.com, *.example.org:8443' })).toMatchObject({
      allowedHosts: [
        { hostname: 'actions.example.com', wildcard: false },
        { hostname: 'example.org', port: 8443, wildcard: true },
      ],
    });
  });

  it.each([
    ['REQUEST_TIMEOUT_MS', '0'],
    ['REQUEST_TIMEOUT_MS', '99'],
    ['REQUEST_TIMEOUT_MS', '3600001'],
    ['REQUEST_TIMEOUT_MS', '30s'],
    ['HEADERS_TIMEOUT_MS', '0'],
    ['KEEP_ALIVE_TIMEOUT_MS', '0'],
    ['MAX_CONNECTIONS', '-1'],
    ['MAX_CONNECTIONS', 'many'],
    ['ALLOWED_HOSTS', 'evil.com/phish'],
    ['ALLOWED_HOSTS', 'good.example.com,user@evil.com'],
    ['ALLOWED_HOSTS', 'https://actions.example.com'],
    ['ALLOWED_HOSTS', '*'],
    ['ALLOWED_HOSTS', ','],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(`${name}=`);
  });

  it('reads METADATA_ICON_URL and PUBLIC_BASE_URL as absolute http(s) URLs', () => {
    const config = loadConfig({
      METADATA_ICON_URL: 'https://cdn.example.com/icon.png',
      PUBLIC_BASE_URL: 'http://localhost:3000/',
    });
    expect(config.metadata.iconUrl).toBe('https://cdn.example.com/icon.png');
    expect(config.publicBaseUrl).toBe('http://localhost:3000');
  });

  it.each([
    ['METADATA_ICON_URL', 'without a scheme', 'cdn.example.com/icon.png'],
    ['METADATA_ICON_URL', 'on ftp', 'ftp://cdn.example.com/icon.png'],
    ['METADATA_ICON_URL', 'over 2000 characters', `https://cdn.example.com/${'i'.repeat(1980)}`],
    ['PUBLIC_BASE_URL', 'on ftp', 'ftp://actions.example.com'],
    ['PUBLIC_BASE_URL', 'over 2000 characters', `https://actions.example.com/${'p'.repeat(1980)}`],
  ])('refuses %s %s, which the platform would refuse', (name, _, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(`${name}=`);
  });

  it('names every bad variable in one error', () => {
    expect(() => loadConfig({ PORT: 'x', NODE_ENV: 'y', BODY_LIMIT_BYTES: '-5' })).toThrow(
      /PORT="x"[\s\S]*NODE_ENV="y"[\s\S]*BODY_LIMIT_BYTES=-5/,
    );
  });

  it('reads the shutdown timings', () => {
    const env = { SHUTDOWN_TIMEOUT_MS: '30000', SHUTDOWN_DELAY_MS: '5000', SHUTDOWN_DRAIN_MS: '0' };
    expect(loadConfig(env)).toMatchObject({
      shutdownTimeoutMs: 30_000,
      shutdownDelayMs: 5000,
      shutdownDrainMs: 0,
    });
  });

  it.each([
    [
      { SHUTDOWN_DELAY_MS: '10000' },
      /\(10000 \+ 1000\) must be less than SHUTDOWN_TIMEOUT_MS \(10000\)/,
    ],
    [
      { SHUTDOWN_TIMEOUT_MS: '1000' },
      /\(0 \+ 1000\) must be less than SHUTDOWN_TIMEOUT_MS \(1000\)/,
    ],
    [{ SHUTDOWN_DELAY_MS: '-1' }, /SHUTDOWN_DELAY_MS=-1: /],
    [{ SHUTDOWN_DRAIN_MS: '1s' }, /SHUTDOWN_DRAIN_MS="1s": /],
  ])('refuses shutdown timings %j, naming them', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads REDIS_KEY_PREFIX (empty by default) and refuses one Redis keys should not carry', () => {
    expect(loadConfig({}).redisKeyPrefix).toBe('');
    expect(loadConfig({ REDIS_KEY_PREFIX: 'svc-a:v1.' }).redisKeyPrefix).toBe('svc-a:v1.');
    for (const bad of ['has space', 'x'.repeat(65), 'star*']) {
      expect(() => loadConfig({ REDIS_KEY_PREFIX: bad })).toThrow(
        'REDIS_KEY_PREFIX must be up to 64',
      );
    }
  });

  it('serves the debugging pages in development unless DEBUG_UI says otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).debugUi).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', DEBUG_UI: 'false' }).debugUi).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DEBUG_UI: 'true' }).debugUi).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).debugUi).toBe(false);
    expect(() => loadConfig({ DEBUG_UI: 'maybe' })).toThrow(/DEBUG_UI/);
  });

  it('accepts on one socket by default, and refuses more sockets than backlog places to share', () => {
    expect(loadConfig({ ACCEPT_SOCKETS: '8', LISTEN_BACKLOG: '8' })).toMatchObject({
      acceptSockets: 8,
      listenBacklog: 8,
    });
    expect(() => loadConfig({ ACCEPT_SOCKETS: '9', LISTEN_BACKLOG: '8' })).toThrow(
      'ACCEPT_SOCKETS (9) must not exceed LISTEN_BACKLOG (8)',
    );
  });

  it('ignores variables it does not know', () => {
    expect(() => loadConfig({ UNRELATED: '1', PATH: '/usr/bin' })).not.toThrow();
  });
});
