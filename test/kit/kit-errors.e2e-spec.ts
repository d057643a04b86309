import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp, postJson } from '../support/app.factory';
import { ADDRESS, KitFixturesModule } from '../fixtures/kit.fixture';
import {
  ANSWERS,
  type DataError,
  expectDataError,
  expectNoLeak,
  type Sent,
  send,
  UUID,
} from '../support/kit.helper';
import { SECRET_FAILURE } from '../fixtures/transaction.fixture';

describe('Kit: errors outside development', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({ actions: [KitFixturesModule], env: { BODY_LIMIT_BYTES: '1024' } });
  });
  afterAll(() => app.close());

  const post = (url: string, payload?: string) => send(app, { url, payload });

  describe('data mode', () => {
    it('renders a validation failure in the envelope, with data naming the parameters', async () => {
      const { status, headers, body } = await postJson<DataError>(app, '/api/kitchen-sink', {});
      expect(status).toBe(400);
      expectDataError(400, body, headers['x-request-id']);
      expect(body.data?.invalidParams).toContain('name');
    });

    it('answers an unexpected failure with 500 and a generic text, leaking nothing', async () => {
      const response = await post('/api/data-broken');
      expect(response.statusCode).toBe(500);
      const body = response.json<DataError>();
      expectDataError(500, body, response.headers['x-request-id']);
      expect(body.error).not.toContain('ECONNREFUSED');
      expectNoLeak(response.body);
    });

    it('answers 500 when a data-mode handler returns a transaction', async () => {
      const response = await post('/api/data-returns-tx');
      expect(response.statusCode).toBe(500);
      const body = response.json<DataError>();
      expectDataError(500, body, response.headers['x-request-id']);
      expect(body).not.toHaveProperty('serializedTransaction');
      expect(response.body).not.toContain('0x02f0');
    });
  });

  describe('transaction mode', () => {
    it('renders a validation failure as {error, code} with the message and data it was given', async () => {
      const response = await post('/api/tx-transfer?amount=0');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'amount must be at least 1, to is required',
        code: 'VALIDATION_ERROR',
        message: 'Invalid amount: 0, to is required',
        data: { invalidParams: ['amount', 'to'] },
      });
    });

    it('answers an unexpected failure with 500 {error, code} and no details', async () => {
      const response = await post('/api/tx-broken');
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ error: expect.any(String), code: 'INTERNAL_ERROR' });
      expectNoLeak(response.body);
    });

    it('answers 500 when a transaction handler returns something else', async () => {
      const response = await post('/api/tx-wrong-shape');
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ error: expect.any(String), code: 'INTERNAL_ERROR' });
      expect(response.body).not.toContain('not a transaction');
    });

    it('answers a success as the ExecutionResponse itself, without an envelope', async () => {
      const response = await post(`/api/tx-transfer?amount=2&to=${ADDRESS}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).not.toHaveProperty('success');
      expect(response.json()).toMatchObject({ serializedTransaction: '0x02f0', chainId: 43113 });
    });
  });

  describe('outside any action', () => {
    it('answers a POST to an unknown path with 404 in the data envelope', async () => {
      const response = await post('/api/does-not-exist', '{"params":{}}');
      expect(response.statusCode).toBe(404);
      expectDataError(404, response.json<DataError>(), response.headers['x-request-id']);
    });

    it.each([
      ['a data-mode action', '/api/echo'],
      ['an unknown path', '/api/does-not-exist'],
    ])('answers a body that is not valid JSON on %s with 400 in the envelope', async (_, url) => {
      for (const payload of ['{bad', '{"params":', "{'a':1}", 'params=1']) {
        const response = await post(url, payload);
        expect(response.statusCode).toBe(400);
        expectDataError(400, response.json<DataError>(), response.headers['x-request-id']);
      }
    });

    it('answers invalid JSON on a transaction action with 400 {error, code}', async () => {
      const response = await post('/api/tx-transfer', '{bad');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: expect.any(String), code: 'VALIDATION_ERROR' });
    });

    it.each([['[1,2]'], ['[]'], ['42'], ['"text"'], ['true'], ['null']])(
      'answers the non-object JSON body %s with 400',
      async (payload) => {
        const response = await post('/api/echo', payload);
        expect(response.statusCode).toBe(400);
        expectDataError(400, response.json<DataError>(), response.headers['x-request-id']);
      },
    );

    it('answers a body over BODY_LIMIT_BYTES with 413 in the envelope', async () => {
      const payload = JSON.stringify({ word: 'x'.repeat(1100) });
      const response = await post('/api/echo', payload);
      expect(response.statusCode).toBe(413);
      expectDataError(413, response.json<DataError>(), response.headers['x-request-id']);
    });

    it('accepts a body just under BODY_LIMIT_BYTES', async () => {
      const payload = JSON.stringify({ word: 'x'.repeat(1000) });
      expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(1024);
      expect((await post('/api/echo', payload)).statusCode).toBe(200);
    });

    it('answers a body over the limit on a transaction action with 413 {error, code}', async () => {
      const response = await post('/api/tx-transfer', JSON.stringify({ a: 'x'.repeat(2000) }));
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({ error: expect.any(String), code: 'PAYLOAD_TOO_LARGE' });
    });

    it.each([['PUT'], ['DELETE'], ['PATCH']] as const)(
      'answers %s on an action path with a JSON 404 or 405',
      async (method) => {
        const response = await send(app, { method, url: '/api/echo' });
        expect([404, 405]).toContain(response.statusCode);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expectDataError(
          response.statusCode,
          response.json<DataError>(),
          response.headers['x-request-id'],
        );
      },
    );
  });

  describe('x-request-id', () => {
    const answers: (Sent & { label: string })[] = [
      ...ANSWERS,
      { label: 'a body over the limit', url: '/api/echo', payload: `"${'x'.repeat(2000)}"` },
      { label: 'OPTIONS', method: 'OPTIONS', url: '/api/echo' },
    ];

    it.each(answers)('is sent on $label', async (sent) => {
      const response = await send(app, sent);
      expect(response.headers['x-request-id']).toMatch(UUID);
    });

    it('is the envelope requestId and differs between requests', async () => {
      const first = await post('/api/echo', '{}');
      const second = await post('/api/echo', '{}');
      expect(first.json<DataError>().metadata.requestId).toBe(first.headers['x-request-id']);
      expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    });

    it.each([['abc-123'], ['trace.id:42_x'], ['A'.repeat(128)]])(
      'reuses the sane incoming id %s in the header, envelope and handler context',
      async (id) => {
        const response = await postJson<{
          data: { context: { requestId: string } };
          metadata: { requestId: string };
        }>(app, '/api/echo', {}, { 'x-request-id': id });
        expect(response.headers['x-request-id']).toBe(id);
        expect(response.body.metadata.requestId).toBe(id);
        expect(response.body.data.context.requestId).toBe(id);
      },
    );

    it('reuses a sane incoming id on an error answer too', async () => {
      const response = await postJson(app, '/nowhere', {}, { 'x-request-id': 'err-7' });
      expect(response.headers['x-request-id']).toBe('err-7');
      expect(response.body.metadata).toMatchObject({ requestId: 'err-7' });
    });

    it.each([
      ['with spaces', 'has spaces'],
      ['with markup', '<script>alert(1)</script>'],
      ['too long', 'a'.repeat(129)],
      ['with a CRLF escape', 'abc%0d%0aSet-Cookie:x=1'],
    ])('replaces an incoming id %s with a fresh one', async (_, id) => {
      const response = await postJson(app, '/api/echo', {}, { 'x-request-id': id });
      expect(response.headers['x-request-id']).toMatch(UUID);
      expect(response.body.metadata).toMatchObject({ requestId: response.headers['x-request-id'] });
    });
  });
});

describe.each(['production', 'test'])('Kit: NODE_ENV=%s, default body limit', (nodeEnv) => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({ actions: [KitFixturesModule], env: { NODE_ENV: nodeEnv } });
  });
  afterAll(() => app.close());

  it.each([['/api/data-broken'], ['/api/tx-broken'], ['/api/tx-wrong-shape']])(
    '%s answers 500 without the failure text, a stack or details',
    async (url) => {
      const response = await app.inject({ method: 'POST', url });
      expect(response.statusCode).toBe(500);
      expect(response.json()).not.toHaveProperty('details');
      expectNoLeak(response.body);
    },
  );

  const sendOfSize = (bytes: number) => {
    const payload = JSON.stringify({ word: '' }).replace('""', `"${'x'.repeat(bytes - 11)}"`);
    expect(Buffer.byteLength(payload)).toBe(bytes);
    return send(app, { url: '/api/echo', payload });
  };

  it('accepts a body of exactly 1 MiB and refuses one byte more with 413', async () => {
    expect((await sendOfSize(1_048_576)).statusCode).toBe(200);
    expect((await sendOfSize(1_048_577)).statusCode).toBe(413);
  });
});

describe('Kit: errors with NODE_ENV=development', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({ actions: [KitFixturesModule], env: { NODE_ENV: 'development' } });
  });
  afterAll(() => app.close());

  it('shows the failure text in a data-mode 500, still without a stack', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/data-broken' });
    expect(response.statusCode).toBe(500);
    const body = response.json<DataError>();
    expectDataError(500, body, response.headers['x-request-id']);
    expect(body.error).toBe(SECRET_FAILURE);
    expect(response.body).not.toMatch(/\n\s+at /);
  });

  it('adds details to a transaction-mode 500', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/tx-broken' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: expect.any(String),
      code: 'INTERNAL_ERROR',
      details: SECRET_FAILURE,
    });
    expect(response.body).not.toMatch(/\n\s+at /);
  });

  it('keeps a transaction-mode validation failure to {error, code, data}: no details', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/tx-transfer' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'amount is required, to is required',
      code: 'VALIDATION_ERROR',
      data: { invalidParams: ['amount', 'to'] },
    });
  });
});
