import { isDynamicAction } from '../../src/contract/chain-action.types';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { MiniAppIndex } from '../../src/contract/mini-app.types';
import type { MiniAppMetadata } from '../../src/contract/action.types';
import { createTestApp } from '../support/app.factory';
import { BAD_DECLARATIONS, TwoActionsOnOnePathModule } from '../fixtures/bad-declarations.fixture';
import { FIXTURE_MINI_APPS, KITCHEN_SINK, TRANSFER } from '../fixtures/expected-metadata.fixture';
import { KitFixturesModule } from '../fixtures/kit.fixture';
import { ANSWERS, type Sent, send } from '../support/kit.helper';

const ALLOWED_HEADERS = [
  'Content-Type',
  'x-user-address',
  'x-source-chain',
  'x-wallet-address',
  'x-chain-id',
  'x-destination-chain',
  'x-request-id',
];
const EXPOSED_HEADERS = [
  'x-request-id',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Action-Intent',
];

const list = (header: string | string[] | number | undefined): string[] =>
  String(header ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase());

describe('Kit: HTTP surface (CORS, metadata, health)', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({
      actions: [KitFixturesModule],
      env: {
        METADATA_TITLE: 'Kit service',
        METADATA_DESCRIPTION: 'Actions that prove the kit',
        PUBLIC_BASE_URL: 'https://actions.example.com/',
      },
    });
  });
  afterAll(() => app.close());

  const get = (url: string, headers?: Record<string, string>) =>
    send(app, { method: 'GET', url, headers });

  describe('OPTIONS', () => {
    it.each([
      ['an action path', '/api/echo', {}],
      ['an action path, with an Origin', '/api/echo', { origin: 'https://app.example.com' }],
      [
        'an action path, as a full preflight',
        '/api/kitchen-sink',
        {
          origin: 'https://app.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, x-user-address',
        },
      ],
      ['an unknown path', '/no/such/path', {}],
      ['an unknown path, with an Origin', '/no/such/path', { origin: 'https://a.example.com' }],
      ['the metadata path', '/api/metadata', {}],
    ])('answers 200 with an empty body on %s', async (_, url, headers) => {
      const response = await send(app, { method: 'OPTIONS', url, headers });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('');
      expect(response.headers['access-control-allow-origin']).toBe('*');
    });
  });

  describe('CORS headers', () => {
    const options: Sent & { label: string } = { label: 'OPTIONS', method: 'OPTIONS', url: '/' };
    it.each([...ANSWERS, options])('are on $label', async (sent) => {
      const { headers } = await send(app, sent);
      expect(headers['access-control-allow-origin']).toBe('*');
      expect(list(headers['access-control-allow-methods'])).toEqual(
        expect.arrayContaining(['get', 'post', 'options']),
      );
      expect(list(headers['access-control-allow-headers'])).toEqual(
        expect.arrayContaining(ALLOWED_HEADERS.map((h) => h.toLowerCase())),
      );
      expect(list(headers['access-control-expose-headers'])).toEqual(
        expect.arrayContaining(EXPOSED_HEADERS.map((h) => h.toLowerCase())),
      );
    });

    it.each(ANSWERS)('$label is answered in JSON', async (sent) => {
      const response = await send(app, sent);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(() => response.json<unknown>()).not.toThrow();
    });
  });

  describe('metadata', () => {
    const BASE = 'https://actions.example.com';
    /** The kit's default icon, served by the service, its URL carrying the file's hash. */
    const SERVED_ICON = expect.stringMatching(
      /^https:\/\/actions\.example\.com\/icons\/mini-app\.svg\?v=[0-9a-f]{12}$/,
    );
    const KIT_TX_ICON = 'https://cdn.example.com/kit-tx.png';

    it('GET /api/metadata is the index: the service, and each mini-app with its action paths', async () => {
      const response = await get('/api/metadata');
      expect(response.statusCode).toBe(200);
      expect(response.json<MiniAppIndex>()).toEqual({
        title: 'Kit service',
        description: 'Actions that prove the kit',
        baseUrl: BASE,
        miniApps: FIXTURE_MINI_APPS.map((miniApp) => ({
          ...miniApp,
          icon: miniApp.id === 'kit-tx' ? KIT_TX_ICON : SERVED_ICON,
          metadataUrl: `${BASE}/api/mini-apps/${miniApp.id}`,
        })),
      });
    });

    it('GET /api/mini-apps/<id> publishes the mini-app and its actions exactly as declared', async () => {
      const kit = (await get('/api/mini-apps/kit')).json<MiniAppMetadata>();
      const kitActions = kit.actions.filter(isDynamicAction);
      expect(kit).toMatchObject({
        url: `${BASE}/api/mini-apps/kit`,
        icon: SERVED_ICON,
        title: 'Kit fixtures',
        description: 'Data-mode actions that echo their parameters and context',
        baseUrl: BASE,
      });
      expect(kitActions.map((a) => a.path)).toEqual(FIXTURE_MINI_APPS[0].actionPaths);
      expect(kitActions.find((a) => a.path === '/api/kitchen-sink')).toEqual(KITCHEN_SINK);
      expect(kitActions.find((a) => a.path === '/api/who-am-i')).not.toHaveProperty('params');
      const tx = (await get('/api/mini-apps/kit-tx')).json<MiniAppMetadata>();
      expect(tx).toMatchObject({ url: `${BASE}/api/mini-apps/kit-tx`, icon: KIT_TX_ICON });
      expect(tx.actions.filter(isDynamicAction).find((a) => a.path === '/api/tx-transfer')).toEqual(
        TRANSFER,
      );
      expect(tx.actions.every((action) => action.type === 'dynamic')).toBe(true);
    });

    it.each([
      ['a data-mode action', '/api/kitchen-sink', KITCHEN_SINK, 'kit'],
      ['a transaction-mode action', '/api/tx-transfer', TRANSFER, 'kit-tx'],
    ])('GET on %s returns its mini-app holding that one action', async (_, path, action, id) => {
      const miniApp = FIXTURE_MINI_APPS.find((candidate) => candidate.id === id);
      for (const url of [path, `${path}?utm=1`]) {
        const response = await get(url);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({
          url: `${BASE}${path}`,
          icon: id === 'kit-tx' ? KIT_TX_ICON : SERVED_ICON,
          title: miniApp?.title,
          description: miniApp?.description,
          baseUrl: BASE,
          actions: [action],
        });
      }
    });

    it('answers a GET of an unknown path with a JSON 404', async () => {
      for (const url of ['/api/nope', '/', '/api/kitchen-sink/extra']) {
        const response = await get(url);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ success: false, statusCode: 404 });
      }
    });
  });

  it('GET /health answers 200 {status: "ok"}', async () => {
    const response = await get('/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });
});

describe('Kit: base URL without PUBLIC_BASE_URL', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({ actions: [KitFixturesModule] });
  });
  afterAll(() => app.close());

  const baseUrl = async (url: string, headers: Record<string, string>) =>
    (await app.inject({ method: 'GET', url, headers })).json<MiniAppMetadata>().baseUrl;

  it('derives the base URL from the Host header, on both metadata endpoints', async () => {
    const host = { host: 'actions.test:8080' };
    expect(await baseUrl('/api/metadata', host)).toBe('http://actions.test:8080');
    expect(await baseUrl('/api/echo', host)).toBe('http://actions.test:8080');
  });

  it('ignores X-Forwarded-Host and -Proto from an untrusted client', async () => {
    const headers = {
      host: 'actions.test',
      'x-forwarded-host': 'evil.example.com',
      'x-forwarded-proto': 'https',
    };
    expect(await baseUrl('/api/metadata', headers)).toBe('http://actions.test');
  });

  it('publishes the default title and description, and icons on the request host', async () => {
    const headers = { host: 'actions.test:8080' };
    const body = (
      await app.inject({ method: 'GET', url: '/api/metadata', headers })
    ).json<MiniAppIndex>();
    expect(body.title).toEqual(expect.any(String));
    expect(body.title).not.toBe('');
    expect(body.description).not.toBe('');
    expect(body.miniApps[0]).toMatchObject({
      icon: expect.stringMatching(/^http:\/\/actions\.test:8080\/icons\/mini-app\.svg\?v=/),
      metadataUrl: 'http://actions.test:8080/api/mini-apps/kit',
    });
  });
});

describe('Kit: declarations are checked at boot', () => {
  it.each(BAD_DECLARATIONS.map((bad) => [bad.what, bad] as const))(
    'refuses to boot with %s, naming the action and the problem',
    async (_, bad) => {
      await expect(createTestApp({ actions: [bad.module] })).rejects.toThrow(bad.message);
    },
  );

  it('refuses to boot with two actions on one path, naming the actions and the path', async () => {
    const boot = createTestApp({ actions: [TwoActionsOnOnePathModule] });
    await expect(boot).rejects.toThrow(/\/api\/shared/);
    await expect(boot).rejects.toThrow(/"(First|Second) owner"/);
  });

  it('boots with the well-declared fixtures', async () => {
    const app = await createTestApp({ actions: [KitFixturesModule] });
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    await app.close();
  });
});
