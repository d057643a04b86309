import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { IN_PROCESS_HEADER } from '../../src/kit/in-process-call';
import { createTestApp, postJson } from '../support/app.factory';
import { testLogs } from '../support/log-capture.helper';

const USER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const SHERRY = 'https://app.sherry.social';
const ELSEWHERE = 'https://elsewhere.example';
/** A well-formed intent no answer recorded, and a hash. */
const INTENT = 'A'.repeat(32);
const HASH = `0x${'ab'.repeat(32)}`;

/**
 * Under STRICT_ORIGIN a request with no Origin is refused; a blink's in-process call to its
 * action has none, and is let through by the mark only the service knows, not by a header
 * anyone can send (BLINKS_ALLOWED_ORIGINS at `*`: the blinks serve any origin). A report of a
 * hash through a blink is the client's own request to /api/transactions: no mark, its Origin.
 */
describe('Blinks under STRICT_ORIGIN', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({
      env: { STRICT_ORIGIN: 'true', ALLOWED_ORIGINS: SHERRY },
      actions: [CalculatorModule],
    });
  });
  afterAll(() => app.close());

  const params = { operation: 'add', a: 1, b: 2 };

  it('refuses the action itself without an Origin, or with a guessed mark', async () => {
    expect((await postJson(app, '/api/calculator', { params })).status).toBe(403);
    const guessed = await postJson(
      app,
      '/api/calculator',
      { params },
      { [IN_PROCESS_HEADER]: 'x' },
    );
    expect(guessed.status).toBe(403);
  });

  it('runs the action through its blink from any origin, or none', async () => {
    const origins: Record<string, string>[] = [{}, { origin: ELSEWHERE }];
    for (const headers of origins) {
      const { status, body } = await postJson(
        app,
        '/api/blinks/calculator?operation=add&a=1&b=2',
        { account: USER },
        headers,
      );
      expect([status, body]).toEqual([
        200,
        { type: 'post', message: expect.stringContaining('3') },
      ]);
    }
  });

  it('says at boot, in one line, what the blinks still allow', () => {
    const lines = testLogs.lines().filter((l) => l.level === 'warn' && l.context === 'Blinks');
    expect(lines.map((l) => l.msg)).toContainEqual(
      "ALLOWED_ORIGINS and STRICT_ORIGIN narrow the actions' own routes, not the blinks: " +
        'BLINKS_ALLOWED_ORIGINS=* lets any origin (or none) run every action, data actions ' +
        'included, through /api/blinks/<name> (set BLINKS_ALLOWED_ORIGINS, or BLINKS=off)',
    );
  });

  it('refuses a report through a blink as /api/transactions refuses it, by origin', async () => {
    const origins: Record<string, string>[] = [{}, { origin: ELSEWHERE }, { origin: SHERRY }];
    for (const headers of origins) {
      const direct = await postJson(app, `/api/transactions/${INTENT}`, { hash: HASH }, headers);
      for (const step of ['next', 'completed']) {
        const blink = await postJson(
          app,
          `/api/blinks/calculator/${step}/${INTENT}`,
          { account: USER, signature: HASH },
          headers,
        );
        expect([headers.origin, step, blink.status, blink.body.message]).toEqual([
          headers.origin,
          step,
          direct.status,
          direct.body.message,
        ]);
      }
      // The listed origin gets past the origin rule to the route's own answer.
      expect(direct.status).toBe(headers.origin === SHERRY ? 404 : 403);
    }
  });
});

/** BLINKS_ALLOWED_ORIGINS set: the blink routes answer the listed origins only. */
describe('Blinks with BLINKS_ALLOWED_ORIGINS', () => {
  const DIAL = 'https://dial.to';
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({
      env: { BLINKS_ALLOWED_ORIGINS: DIAL, ALLOWED_ORIGINS: SHERRY },
      actions: [CalculatorModule],
    });
  });
  afterAll(() => app.close());

  const run = (headers: Record<string, string>) =>
    postJson(app, '/api/blinks/calculator?operation=add&a=1&b=2', { account: USER }, headers);

  it('runs the action for a listed origin, and for none (a server), as the origin guard does', async () => {
    const listed = await run({ origin: DIAL });
    expect([listed.status, listed.body.type]).toEqual([200, 'post']);
    expect(listed.headers['access-control-allow-origin']).toBe(DIAL);
    expect((await run({})).status).toBe(200);
  });

  it('refuses any other origin with the origin guard’s status and code, on every blink route', async () => {
    const action = await postJson(
      app,
      '/api/calculator',
      { params: { operation: 'add', a: 1, b: 2 } },
      { origin: ELSEWHERE },
    );
    const refused = await run({ origin: SHERRY });
    expect(refused.status).toBe(action.status);
    expect(refused.body).toEqual({ message: action.body.message, code: 'ORIGIN_NOT_ALLOWED' });
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(refused.headers['x-action-version']).toBe('2.4');
    for (const url of ['/api/blinks/calculator', '/actions.json']) {
      const res = await app.inject({ method: 'GET', url, headers: { origin: ELSEWHERE } });
      expect([url, res.statusCode]).toEqual([url, 403]);
    }
  });

  it('answers preflights with the list: the listed origin allowed, another not', async () => {
    const preflight = (origin: string) =>
      app.inject({
        method: 'OPTIONS',
        url: '/api/blinks/calculator',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
    const listed = await preflight(DIAL);
    expect(listed.statusCode).toBeLessThan(300);
    expect(listed.headers['access-control-allow-origin']).toBe(DIAL);
    expect(String(listed.headers['access-control-allow-headers'])).toContain(
      'X-Accept-Action-Version',
    );
    expect((await preflight(ELSEWHERE)).headers['access-control-allow-origin']).toBeUndefined();
  });
});
