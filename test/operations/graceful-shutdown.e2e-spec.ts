import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { once } from 'node:events';
import { Agent } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { RedisStatus } from '../../src/telemetry/redis/redis.provider';
import { GracefulShutdown } from '../../src/server/graceful-shutdown';
import { createTestApp } from '../support/app.factory';
import { send, startSlowPost } from '../support/shutdown-clients.helper';

/** The application on 127.0.0.1:0, as main.ts serves it, with `env` on top of the test's. */
async function serve(env: Record<string, string>): Promise<{
  app: NestFastifyApplication;
  port: number;
  closed: Promise<void>;
}> {
  const app = await createTestApp({ env });
  await app.listen(0, '127.0.0.1');
  // Resolves once the application has closed, whoever closed it.
  const close = app.close.bind(app);
  const closed = new Promise<void>((resolve) =>
    jest.spyOn(app, 'close').mockImplementation(() => close().then(resolve)),
  );
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, port, closed };
}

describe('GracefulShutdown in process', () => {
  it('closes a keep-alive connection still idle after SHUTDOWN_DRAIN_MS, then stops with 0', async () => {
    const { app, port, closed } = await serve({
      SHUTDOWN_DRAIN_MS: '200',
      SHUTDOWN_TIMEOUT_MS: '20000',
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const answer = await send(agent, port, { method: 'GET', path: '/health' });
    expect(answer).toMatchObject({ kind: 'answer', status: 200, connectionClose: false });
    const [socket] = Object.values(agent.freeSockets).flat() as Socket[];
    const socketClosed = once(socket, 'close');

    // Nothing is sent on it: only the end of the drain closes it, and the stop follows.
    expect(await GracefulShutdown.of(app).stop('SIGTERM')).toBe(0);
    await socketClosed;
    await closed;
  }, 60_000);

  it('past SHUTDOWN_TIMEOUT_MS, closes Redis and stops with 1 (the request still running is not cut)', async () => {
    const { app, port, closed } = await serve({
      SHUTDOWN_DRAIN_MS: '100',
      SHUTDOWN_TIMEOUT_MS: '500',
    });
    const closeRedis = jest.spyOn(app.get(RedisStatus), 'onApplicationShutdown');
    const stuck = startSlowPost(port);
    await stuck.connected;

    expect(await GracefulShutdown.of(app).stop('SIGTERM')).toBe(1);
    expect(closeRedis).toHaveBeenCalled();

    // In production the process exits here; in process the request still gets its answer.
    stuck.finish();
    expect(await stuck.answer).toMatchObject({ kind: 'answer', status: 200 });
    await closed;
  }, 60_000);

  it('asks once: a second signal shares the first shutdown', async () => {
    const { app, closed } = await serve({});
    const shutdown = GracefulShutdown.of(app);
    const [first, second] = await Promise.all([shutdown.stop('SIGTERM'), shutdown.stop('SIGINT')]);
    expect([first, second]).toEqual([0, 0]);
    expect(app.close).toHaveBeenCalledTimes(1);
    await closed;
  });
});
