import { isDynamicAction } from '../../src/contract/chain-action.types';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { MiniAppIndex } from '../../src/contract/mini-app.types';
import type { MiniAppMetadata } from '../../src/contract/action.types';
import { assertPlatformMetadata } from '../../src/testing';
import { createTestApp } from '../support/app.factory';
import { type DataError, expectDataError } from '../support/kit.helper';

const HOST = 'actions.test:8080';
const BASE = `http://${HOST}`;
const ICONS = join(__dirname, '..', '..', 'src', 'assets', 'icons');

/** The shipped grouping, written out independently of src/actions/mini-apps.ts. */
const SHIPPED = [
  { id: 'tools', actionPaths: ['/api/calculator', '/api/user-lookup', '/api/weather'] },
  { id: 'wallet', actionPaths: ['/api/portfolio', '/api/send-token', '/api/best-swap'] },
  { id: 'collectibles', actionPaths: ['/api/mint-nft'] },
];

const get = (app: NestFastifyApplication, url: string) =>
  app.inject({ method: 'GET', url, headers: { host: HOST } });

/** A published absolute URL as the path (and query) this app answers it at. */
const local = (url: string): string => {
  expect(url.startsWith(`${BASE}/`)).toBe(true);
  return url.slice(BASE.length);
};

describe('Mini-apps: the shipped service', () => {
  let app: NestFastifyApplication;
  let index: MiniAppIndex;

  beforeAll(async () => {
    app = await createTestApp();
    index = (await get(app, '/api/metadata')).json<MiniAppIndex>();
  });
  afterAll(() => app.close());

  it('GET /api/metadata indexes the shipped mini-apps and their actions', () => {
    expect(index).toMatchObject({ title: expect.any(String), description: expect.any(String) });
    expect(index.baseUrl).toBe(BASE);
    // A team's own actions and mini-apps may join (npm run new:action): the shipped ones stay.
    expect(index.miniApps.map(({ id, actionPaths }) => ({ id, actionPaths }))).toEqual(
      expect.arrayContaining(
        SHIPPED.map(({ id, actionPaths }) => ({
          id,
          actionPaths: expect.arrayContaining(actionPaths),
        })),
      ),
    );
    for (const miniApp of index.miniApps) {
      expect(miniApp.metadataUrl).toBe(`${BASE}/api/mini-apps/${miniApp.id}`);
      expect(miniApp.icon).toBe(`${BASE}/icons/${miniApp.id}.svg?v=${version(miniApp.id)}`);
      expect(miniApp.title).not.toBe('');
      expect(miniApp.description).not.toBe('');
    }
  });

  it("every document the service publishes passes the platform's createMetadata rules", async () => {
    const urls = [
      ...index.miniApps.map((miniApp) => local(miniApp.metadataUrl)),
      ...index.miniApps.flatMap((miniApp) => miniApp.actionPaths),
    ];
    for (const url of urls) {
      const response = await get(app, url);
      expect(response.statusCode).toBe(200);
      assertPlatformMetadata(response.json(), `GET ${url}`);
    }
    expect(urls).toEqual(expect.arrayContaining(SHIPPED.flatMap((miniApp) => miniApp.actionPaths)));
  });

  it('a mini-app document holds its actions, its url is where it is served, its icon the index one', async () => {
    for (const summary of index.miniApps) {
      const document = (await get(app, local(summary.metadataUrl))).json<MiniAppMetadata>();
      expect(document).toMatchObject({
        url: summary.metadataUrl,
        icon: summary.icon,
        title: summary.title,
        description: summary.description,
        baseUrl: BASE,
      });
      const dynamic = document.actions.filter(isDynamicAction);
      expect(dynamic.map((action) => action.path)).toEqual(summary.actionPaths);
      for (const path of summary.actionPaths) {
        const one = (await get(app, path)).json<MiniAppMetadata>();
        expect(one).toMatchObject({ url: `${BASE}${path}`, icon: summary.icon, baseUrl: BASE });
        expect(one.actions).toEqual(dynamic.filter((action) => action.path === path));
      }
    }
  });

  it('answers an unknown mini-app with a 404 in the data envelope', async () => {
    for (const url of ['/api/mini-apps/nope', '/api/mini-apps/TOOLS', '/api/mini-apps/tools/x']) {
      const response = await get(app, url);
      expect(response.statusCode).toBe(404);
      expectDataError(404, response.json<DataError>(), response.headers['x-request-id']);
    }
  });

  it('serves each icon it publishes: the file, its content type, cached for a year', async () => {
    for (const { id, icon } of index.miniApps) {
      const response = await get(app, local(icon));
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/svg+xml');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.rawPayload.equals(readFileSync(join(ICONS, `${id}.svg`)))).toBe(true);
      expect(response.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
  });

  it('answers an unknown icon with a 404 that no cache keeps', async () => {
    for (const url of ['/icons/nope.svg', '/icons/..%2Fmain.js', '/icons/%2E%2E']) {
      const response = await get(app, url);
      expect(response.statusCode).toBe(404);
      expect(response.headers['cache-control'] ?? 'none').not.toMatch(/max-age|immutable/);
      expectDataError(404, response.json<DataError>(), response.headers['x-request-id']);
    }
  });
});

describe('Mini-apps: icons and documents are not rate-limited', () => {
  it('serves 20 icons and documents to an IP whose action limit is 1 a minute', async () => {
    const app = await createTestApp({ env: { RATE_LIMIT_IP_MAX: '1' } });
    const { miniApps } = (await get(app, '/api/metadata')).json<MiniAppIndex>();
    for (let i = 0; i < 10; i++) {
      for (const url of [local(miniApps[0].icon), '/api/mini-apps/tools']) {
        const response = await get(app, url);
        expect(response.statusCode).toBe(200);
        expect(response.headers['x-ratelimit-limit']).toBeUndefined();
      }
    }
    const run = () => app.inject({ method: 'POST', url: '/api/calculator?operation=add&a=1&b=2' });
    expect((await run()).statusCode).toBe(200);
    expect((await run()).statusCode).toBe(429);
    await app.close();
  });
});

describe('Mini-apps: url and icon set by configuration', () => {
  const PUBLIC = 'https://actions.example.com';
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({
      env: {
        PUBLIC_BASE_URL: PUBLIC,
        MINI_APP_TOOLS_URL: 'https://tools.example.com/home',
        MINI_APP_WALLET_ICON_URL: 'https://cdn.example.com/wallet.png',
        METADATA_ICON_URL: 'https://cdn.example.com/brand.png',
      },
    });
  });
  afterAll(() => app.close());

  it.each([
    ['/api/mini-apps/tools', 'https://tools.example.com/home', 'https://cdn.example.com/brand.png'],
    ['/api/calculator', 'https://tools.example.com/home', 'https://cdn.example.com/brand.png'],
    [
      '/api/mini-apps/wallet',
      `${PUBLIC}/api/mini-apps/wallet`,
      'https://cdn.example.com/wallet.png',
    ],
    ['/api/send-token', `${PUBLIC}/api/send-token`, 'https://cdn.example.com/wallet.png'],
  ])('GET %s publishes url %s and icon %s', async (url, published, icon) => {
    const document = (await get(app, url)).json<MiniAppMetadata>();
    expect(document).toMatchObject({ url: published, icon, baseUrl: PUBLIC });
    assertPlatformMetadata(document, `GET ${url}`);
  });

  it('lists the configured icons in the index, the metadata URLs on PUBLIC_BASE_URL', async () => {
    const { miniApps } = (await get(app, '/api/metadata')).json<MiniAppIndex>();
    // The shipped mini-apps, in order; a team's own (npm run new:action) follow them.
    expect(miniApps.slice(0, 3).map(({ icon, metadataUrl }) => ({ icon, metadataUrl }))).toEqual([
      { icon: 'https://cdn.example.com/brand.png', metadataUrl: `${PUBLIC}/api/mini-apps/tools` },
      { icon: 'https://cdn.example.com/wallet.png', metadataUrl: `${PUBLIC}/api/mini-apps/wallet` },
      {
        icon: 'https://cdn.example.com/brand.png',
        metadataUrl: `${PUBLIC}/api/mini-apps/collectibles`,
      },
    ]);
    for (const { icon, metadataUrl } of miniApps.slice(3)) {
      expect(icon).toBe('https://cdn.example.com/brand.png');
      expect(metadataUrl.startsWith(`${PUBLIC}/api/mini-apps/`)).toBe(true);
    }
  });
});

function version(id: string): string {
  const file = readFileSync(join(ICONS, `${id}.svg`));
  return createHash('sha256').update(file).digest('hex').slice(0, 12);
}
