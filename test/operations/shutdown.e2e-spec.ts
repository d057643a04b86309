import { Agent } from 'node:http';
import {
  buildProduction,
  type ProductionBuild,
  ProductionServer,
} from '../support/production.server';
import { freePort } from '../support/redis.helper';
import {
  CALCULATOR,
  type Call,
  HeldWeatherApi,
  isRefusal,
  loadClient,
  type Outcome,
  send,
  startSlowPost,
} from '../support/shutdown-clients.helper';

const CLIENTS = 32;
const SLOW_POSTS = 16;
const HELD_WEATHER = 8;
const READY: Call = { method: 'GET', path: '/health/ready' };
/** A stack trace line, as a logged error would print it: after a newline, or its JSON escape. */
const STACK = /(?:\n|\\n)\s+at .+:\d+:\d+/;

const body = (outcome: Outcome): Record<string, unknown> =>
  outcome.kind === 'answer' ? (JSON.parse(outcome.body) as Record<string, unknown>) : {};

/** A complete 200 in the data envelope: the only answer the calculator should ever give here. */
const answered = (outcome: Outcome): boolean =>
  outcome.kind === 'answer' && outcome.status === 200 && body(outcome).success === true;

/** The readiness refusal: a 503 in the data envelope, on a connection the server then closes. */
function expectNotReady(outcome: Outcome): void {
  expect(outcome).toMatchObject({ kind: 'answer', status: 503, connectionClose: true });
  expect(body(outcome)).toMatchObject({
    success: false,
    error: 'Service unavailable',
    message: 'The service is shutting down',
    statusCode: 503,
    metadata: { requestId: expect.any(String) },
  });
}

describe('SIGTERM on the production build', () => {
  let build: ProductionBuild;
  let server: ProductionServer | undefined;
  let weather: HeldWeatherApi | undefined;

  beforeAll(async () => {
    build = await buildProduction();
  }, 180_000);
  afterEach(async () => {
    server?.stop();
    await weather?.close();
    weather = undefined;
  });
  afterAll(() => build?.remove());

  it('answers every request written on an open connection, finishes those in flight, refuses new connections, exits 0', async () => {
    const api = (weather = await HeldWeatherApi.start());
    const port = await freePort();
    server = await ProductionServer.start(build.main, port, {
      RATE_LIMIT_IP_MAX: '1000000',
      WEATHER_GEOCODING_URL: `${api.base}/geo`,
      WEATHER_FORECAST_URL: `${api.base}/forecast`,
      EXTERNAL_TIMEOUT_MS: '60000',
      // Margins: these bound a broken shutdown, never a working one, which ends on events.
      SHUTDOWN_DRAIN_MS: '10000',
      SHUTDOWN_TIMEOUT_MS: '40000',
    });

    // In flight at the signal: requests still being written, and handlers awaiting an API.
    const slow = Array.from({ length: SLOW_POSTS }, () => startSlowPost(port));
    await Promise.all(slow.map(({ connected }) => connected));
    const held = Array.from({ length: HELD_WEATHER }, (_, i) =>
      send(new Agent({ keepAlive: true }), port, {
        method: 'POST',
        path: '/api/weather',
        body: JSON.stringify({ params: { city: `City ${i}` } }),
      }),
    );
    await api.waitForHeld(HELD_WEATHER);
    const probe = new Agent({ keepAlive: true, maxSockets: 1 });
    expect(await send(probe, port, READY)).toMatchObject({ kind: 'answer', status: 200 });

    // Under load: every client has had answers on its keep-alive connection before the signal.
    let signalled = false;
    const clients = Array.from({ length: CLIENTS }, () =>
      loadClient(port, CALCULATOR, () => signalled),
    );
    await Promise.all(clients.map(({ warm }) => warm));
    signalled = true;
    server.signal('SIGTERM');
    await server.waitFor(/SIGTERM received/);
    // The load balancer's probe, on the connection it already had open.
    const readiness = await send(probe, port, READY);
    const loads = await Promise.all(clients.map(({ done }) => done));
    // By now the listener is closed; what was accepted before the signal is still answered.
    for (const { finish } of slow) finish();
    api.release();
    const slowAnswers = await Promise.all(slow.map(({ answer }) => answer));
    const weatherAnswers = await Promise.all(held);
    const code = await server.exited;

    // Each request was answered, or refused on a new connection: never reset, never a bare 503.
    expect(loads.flat().filter((o) => !answered(o) && !isRefusal(o))).toEqual([]);
    for (const outcomes of loads) {
      // The client moved off its connection because the answer said so, then was refused.
      const firstRefusal = outcomes.findIndex(isRefusal);
      expect(firstRefusal).toBeGreaterThan(0);
      expect(outcomes[firstRefusal - 1]).toMatchObject({ kind: 'answer', connectionClose: true });
    }
    expectNotReady(readiness);
    for (const outcome of slowAnswers) {
      expect(outcome).toMatchObject({ kind: 'answer', status: 200 });
      expect(body(outcome)).toMatchObject({ success: true, data: { result: 42 } });
    }
    expect(weatherAnswers.filter((o) => !answered(o))).toEqual([]);
    expect(code).toBe(0);
    expect(server.log).toMatch(/Stopped: every accepted request was answered/);
    expect(server.log).not.toMatch(STACK);
  }, 120_000);

  it('turns readiness to 503 at once and keeps serving through SHUTDOWN_DELAY_MS before closing the listener', async () => {
    const port = await freePort();
    server = await ProductionServer.start(build.main, port, {
      // Wide enough for three loopback requests on a busy machine.
      SHUTDOWN_DELAY_MS: '4000',
      SHUTDOWN_DRAIN_MS: '10000',
      SHUTDOWN_TIMEOUT_MS: '40000',
    });
    const open = new Agent({ keepAlive: true, maxSockets: 1 });
    const fresh = new Agent({ keepAlive: true, maxSockets: 1 });
    expect(await send(open, port, READY)).toMatchObject({ kind: 'answer', status: 200 });

    server.signal('SIGTERM');
    await server.waitFor(/SIGTERM received/);
    expectNotReady(await send(open, port, READY));
    // During the delay, new connections are still accepted and served.
    expectNotReady(await send(fresh, port, READY));
    const during = await send(fresh, port, CALCULATOR);
    expect(answered(during)).toBe(true);
    expect(during).toMatchObject({ connectionClose: true });
    expect(await send(fresh, port, { method: 'GET', path: '/health' })).toMatchObject({
      kind: 'answer',
      status: 200,
    });

    await server.waitFor(/Listener closed/);
    expect(isRefusal(await send(fresh, port, CALCULATOR))).toBe(true);
    expect(await server.exited).toBe(0);
    expect(server.log).not.toMatch(STACK);
  }, 120_000);
});
