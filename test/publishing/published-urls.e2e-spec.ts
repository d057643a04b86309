import { Logger } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { MiniAppMetadata } from '../../src/contract/action.types';
import { createTestApp } from '../support/app.factory';
import { KitFixturesModule } from '../fixtures/kit.fixture';
import { type DataError, expectDataError, send } from '../support/kit.helper';
import { exchange, parseAnswer } from '../support/raw-http.helper';

const boot = (env: Record<string, string> = {}): Promise<NestFastifyApplication> =>
  createTestApp({ actions: [KitFixturesModule], env });

const getAs = (
  app: NestFastifyApplication,
  headers: Record<string, string>,
  url = '/api/metadata',
) => send(app, { method: 'GET', url, headers });

/** A refusal in the data envelope that repeats nothing of what the request named. */
function expectRefused(
  response: Awaited<ReturnType<typeof getAs>>,
  status: number,
  error: string,
): void {
  expect(response.statusCode).toBe(status);
  expectDataError(status, response.json<DataError>(), response.headers['x-request-id']);
  expect(response.json()).toMatchObject({ error });
  expect(response.body).not.toMatch(/evil|javascript/);
  expect(response.headers['access-control-allow-origin']).toBe('*');
}

describe('Published URLs cannot be steered by a request', () => {
  describe('without PUBLIC_BASE_URL', () => {
    let app: NestFastifyApplication;
    beforeAll(async () => {
      app = await boot();
    });
    afterAll(() => app.close());

    it.each([
      ['a path and a fragment', 'evil.com/phish#'],
      ['userinfo', 'user:pass@evil.com'],
      ['a query', 'evil.com?x=1'],
      ['a second port', 'evil.com:80:81'],
      ['a port out of range', 'evil.com:99999'],
      ['quotes', 'evil.com"onload="x'],
    ])('refuses a Host with %s with 400', async (_, host) => {
      expectRefused(await getAs(app, { host }), 400, 'Invalid Host header');
    });

    it('refuses a bad Host on every path, actions included', async () => {
      expectRefused(
        await getAs(app, { host: 'evil.com/x' }, '/api/echo'),
        400,
        'Invalid Host header',
      );
      const response = await send(app, {
        url: '/api/echo',
        payload: '{}',
        headers: { host: 'evil.com/x' },
      });
      expectRefused(response, 400, 'Invalid Host header');
    });

    it('refuses it in the transaction shape on a transaction action', async () => {
      const response = await send(app, {
        url: '/api/tx-transfer',
        headers: { host: 'a@evil.com' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'Invalid Host header',
        code: 'INVALID_HOST',
        message: 'The request names an invalid host',
      });
    });

    it.each([
      ['actions.example.com', 'http://actions.example.com'],
      ['actions.example.com:8443', 'http://actions.example.com:8443'],
      ['127.0.0.1:3000', 'http://127.0.0.1:3000'],
      ['[::1]:3000', 'http://[::1]:3000'],
    ])('publishes a plain Host %s as %s', async (host, baseUrl) => {
      const response = await getAs(app, { host });
      expect(response.statusCode).toBe(200);
      expect(response.json<MiniAppMetadata>().baseUrl).toBe(baseUrl);
    });

    it('ignores X-Forwarded-Host and X-Forwarded-Proto without TRUST_PROXY', async () => {
      const response = await getAs(app, {
        host: 'actions.example.com',
        'x-forwarded-host': 'evil.com',
        'x-forwarded-proto': 'javascript:alert(1)//',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json<MiniAppMetadata>().baseUrl).toBe('http://actions.example.com');
    });

    it.each([['/api/metadata'], ['/api/echo']])(
      'sends Cache-Control: no-store with the metadata at %s',
      async (url) => {
        const response = await getAs(app, { host: 'actions.example.com' }, url);
        expect(response.statusCode).toBe(200);
        expect(response.headers['cache-control']).toBe('no-store');
      },
    );

    describe('over a socket', () => {
      let port: number;
      beforeAll(async () => {
        await app.listen(0, '127.0.0.1');
        port = (app.getHttpServer().address() as AddressInfo).port;
      });

      it('refuses a second Host header with 400', async () => {
        const answer = parseAnswer(
          await exchange(
            port,
            'GET /api/metadata HTTP/1.1\r\nHost: actions.example.com\r\nHost: evil.com\r\n' +
              'Connection: close\r\n\r\n',
          ),
        );
        expect(answer.status).toBe(400);
        expect(JSON.parse(answer.body)).toMatchObject({
          success: false,
          error: 'More than one Host header',
          statusCode: 400,
        });
        expect(answer.body).not.toMatch(/evil/);
      });

      it('refuses to publish metadata for an HTTP/1.0 request that names no host', async () => {
        const answer = parseAnswer(await exchange(port, 'GET /api/metadata HTTP/1.0\r\n\r\n'));
        expect(answer.status).toBe(400);
        expect(JSON.parse(answer.body)).toMatchObject({ success: false, statusCode: 400 });
      });
    });
  });

  describe('with TRUST_PROXY (requests from the proxy at 127.0.0.1)', () => {
    let app: NestFastifyApplication;
    beforeAll(async () => {
      app = await boot({ TRUST_PROXY: '127.0.0.1' });
    });
    afterAll(() => app.close());

    it('publishes the forwarded host and protocol', async () => {
      const response = await getAs(app, {
        host: 'app:3000',
        'x-forwarded-host': 'actions.example.com',
        'x-forwarded-proto': 'https',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json<MiniAppMetadata>().baseUrl).toBe('https://actions.example.com');
    });

    it.each([['evil.com/phish#'], ['user:pass@evil.com'], ['good.example.com, evil.com/x']])(
      'refuses X-Forwarded-Host %s with 400',
      async (forwarded) => {
        const response = await getAs(app, { host: 'app:3000', 'x-forwarded-host': forwarded });
        expectRefused(response, 400, 'Invalid X-Forwarded-Host header');
      },
    );

    it.each([['javascript:alert(1)//'], ['ftp'], ['https:'], ['http, javascript']])(
      'refuses X-Forwarded-Proto %s with 400',
      async (proto) => {
        const response = await getAs(app, { host: 'app:3000', 'x-forwarded-proto': proto });
        expectRefused(response, 400, 'Invalid X-Forwarded-Proto header');
      },
    );
  });

  describe('with ALLOWED_HOSTS', () => {
    let app: NestFastifyApplication;
    beforeAll(async () => {
      app = await boot({
        ALLOWED_HOSTS: 'actions.example.com, *.example.org, localhost:3000',
        TRUST_PROXY: '127.0.0.1',
      });
    });
    afterAll(() => app.close());

    it.each([
      ['actions.example.com'],
      ['actions.example.com:8443'],
      ['a.example.org'],
      ['localhost:3000'],
    ])('serves %s', async (host) => {
      const response = await getAs(app, { host });
      expect(response.statusCode).toBe(200);
      expect(response.json<MiniAppMetadata>().baseUrl).toBe(`http://${host}`);
    });

    it.each([['evil.com'], ['example.org'], ['localhost:3001'], ['actions.example.com.evil.com']])(
      'refuses %s with 421',
      async (host) => {
        expectRefused(await getAs(app, { host }), 421, 'Host not allowed');
      },
    );

    it('refuses an unlisted forwarded host with 421', async () => {
      const response = await getAs(app, {
        host: 'actions.example.com',
        'x-forwarded-host': 'evil.com',
      });
      expectRefused(response, 421, 'Host not allowed');
    });

    it('refuses an unlisted host on an action too', async () => {
      const response = await send(app, {
        url: '/api/echo',
        payload: '{}',
        headers: { host: 'evil.com' },
      });
      expectRefused(response, 421, 'Host not allowed');
    });

    it.each([['/health'], ['/health/ready']])(
      'answers %s to a load balancer that names an address',
      async (url) => {
        const response = await getAs(app, { host: '10.1.2.3:3000' }, url);
        expect(response.statusCode).toBe(200);
      },
    );
  });

  it('with PUBLIC_BASE_URL, publishes it whatever the Host, still without caching', async () => {
    const app = await boot({ PUBLIC_BASE_URL: 'https://actions.example.com' });
    try {
      const response = await getAs(app, { host: 'other.example.net' });
      expect(response.json<MiniAppMetadata>().baseUrl).toBe('https://actions.example.com');
      expect(response.headers['cache-control']).toBe('no-store');
    } finally {
      await app.close();
    }
  });

  describe('boot warning', () => {
    let warn: jest.SpyInstance;
    beforeEach(() => {
      warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    });
    afterEach(() => warn.mockRestore());

    const warned = (): boolean =>
      warn.mock.calls.some(([message]) =>
        /PUBLIC_BASE_URL nor ALLOWED_HOSTS/.test(String(message)),
      );

    it.each([
      ['production, neither set: warns', { NODE_ENV: 'production' }, true],
      [
        'production, ALLOWED_HOSTS set: no warning',
        { NODE_ENV: 'production', ALLOWED_HOSTS: 'a.example.com' },
        false,
      ],
      [
        'production, PUBLIC_BASE_URL set: no warning',
        { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://a.example.com' },
        false,
      ],
      ['test, neither set: no warning', { NODE_ENV: 'test' }, false],
    ])('%s', async (_, env, expected) => {
      const app = await boot(env);
      await app.close();
      expect(warned()).toBe(expected);
    });
  });
});
