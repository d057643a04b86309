import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { listenApp } from '../../src/bootstrap';
import { APP_CONFIG, type AppConfig } from '../../src/config/app.config';
import { GracefulShutdown } from '../../src/server/graceful-shutdown';
import { createTestApp } from '../support/app.factory';
import { RawClient } from '../support/raw-http.helper';
import { startSlowPost } from '../support/shutdown-clients.helper';

const HEALTH = 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
const TIMEOUT = 30_000;
// SO_REUSEPORT as the service uses it is Linux's; elsewhere the service listens on one socket.
const describeOnLinux = process.platform === 'linux' ? describe : describe.skip;

/** The app listening as main.ts listens (listenApp), on 127.0.0.1 and a free port. */
async function serve(env: Record<string, string>): Promise<{
  app: NestFastifyApplication;
  server: Server;
  port: number;
}> {
  const app = await createTestApp({ env });
  const config = app.get<AppConfig>(APP_CONFIG);
  const warn = jest.fn();
  await listenApp(app, { ...config, port: 0, host: '127.0.0.1' }, { warn });
  expect(warn).not.toHaveBeenCalled();
  const server = app.getHttpServer();
  return { app, server, port: (server.address() as AddressInfo).port };
}

/**
 * Calls `listener` with the server's side of each connection and the listening socket that took
 * it: first, before Node's HTTP listener names the server as every connection's `server`.
 */
function onAccepted(server: Server, listener: (socket: Socket, by: unknown) => void): void {
  server.prependListener('connection', (socket: Socket & { server?: unknown }) =>
    listener(socket, socket.server),
  );
}

/** Resolves with the server's side of the next connection and the listening socket that took it. */
const nextConnection = (server: Server): Promise<[Socket, unknown]> =>
  new Promise((resolve) => {
    const take = (socket: Socket & { server?: unknown }): void => {
      server.off('connection', take);
      resolve([socket, socket.server]);
    };
    server.prependListener('connection', take);
  });

/** Whether a connection to the port is refused (no socket listens on it any more). */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describeOnLinux('ACCEPT_SOCKETS: listening sockets sharing the port', () => {
  it(
    'takes connections on the other sockets too, and answers each of them',
    async () => {
      const { app, server, port } = await serve({ ACCEPT_SOCKETS: '8' });
      const listeners = new Set<unknown>();
      onAccepted(server, (_socket, by) => listeners.add(by));
      const clients = await Promise.all(Array.from({ length: 48 }, () => RawClient.open(port)));
      for (const client of clients) client.write(HEALTH);
      for (const client of clients)
        expect(await client.waitFor('{"status":"ok"}')).toMatch(/^HTTP\/1.1 200/);
      // The kernel spreads connections by a hash of their ports: 48 on one socket of 8 would be
      // a chance of 8^-47.
      expect(listeners.size).toBeGreaterThan(1);
      expect(listeners.has(server)).toBe(true);
      for (const client of clients) client.destroy();
      await app.close();
    },
    TIMEOUT,
  );

  it(
    'keeps MAX_CONNECTIONS one cap over every socket',
    async () => {
      const { app, server, port } = await serve({ ACCEPT_SOCKETS: '8', MAX_CONNECTIONS: '3' });
      const accepted: Socket[] = [];
      server.on('connection', (socket: Socket) => accepted.push(socket));
      const served = [await RawClient.open(port), await RawClient.open(port)];
      served.push(await RawClient.open(port));
      for (const client of served) client.write(HEALTH);
      for (const client of served) await client.waitFor('{"status":"ok"}');

      // Whichever socket takes them, the fourth to the tenth are closed unanswered.
      const drops: unknown[] = [];
      server.on('drop', (data: unknown) => drops.push(data));
      for (let i = 0; i < 7; i++) {
        const extra = await RawClient.open(port);
        extra.write(HEALTH);
        expect(await extra.closed).toBe('');
      }
      // Each as Node's own check reports a connection it drops.
      expect(drops).toEqual(
        Array(7).fill(expect.objectContaining({ localPort: port, remoteAddress: '127.0.0.1' })),
      );
      expect(accepted).toHaveLength(3);

      // One served connection ends: a new one is served again.
      const ended = once(accepted[0], 'close');
      served[0].destroy();
      await ended;
      const next = await RawClient.open(port);
      next.write(HEALTH);
      expect(await next.waitFor('{"status":"ok"}')).toMatch(/^HTTP\/1.1 200/);
      for (const client of [...served, next]) client.destroy();
      await app.close();
    },
    TIMEOUT,
  );

  it(
    'refuses to share its port with a second copy of the service (EADDRINUSE, as with one socket)',
    async () => {
      const { app, port } = await serve({ ACCEPT_SOCKETS: '8' });
      const second = await createTestApp({ env: { ACCEPT_SOCKETS: '8' } });
      const config = second.get<AppConfig>(APP_CONFIG);
      await expect(
        listenApp(second, { ...config, port, host: '127.0.0.1' }, { warn: jest.fn() }),
      ).rejects.toThrow(/EADDRINUSE/);
      await second.close();
      await app.close();
    },
    TIMEOUT,
  );

  it(
    'closes every socket with the app: the port refuses connections',
    async () => {
      const { app, port } = await serve({ ACCEPT_SOCKETS: '8' });
      await app.close();
      // Any socket left listening would take some of these.
      const answers = await Promise.all(Array.from({ length: 24 }, () => refused(port)));
      expect(answers.every(Boolean)).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'drains on shutdown what the other sockets accepted before the app closes',
    async () => {
      const { app, server, port } = await serve({ ACCEPT_SOCKETS: '2', SHUTDOWN_DRAIN_MS: '100' });
      const close = jest.spyOn(app, 'close');
      // A request still arriving on a connection the second socket accepted (half the time each).
      let post = startSlowPost(port);
      for (let [socket, by] = await nextConnection(server); by === server;) {
        socket.destroy();
        await post.answer;
        const accepted = nextConnection(server);
        post = startSlowPost(port);
        [socket, by] = await accepted;
      }
      const stopped = GracefulShutdown.of(app).stop('SIGTERM');
      // Every listening socket is closed at once; the app waits for that connection.
      expect(await refused(port)).toBe(true);
      expect(close).not.toHaveBeenCalled();
      post.finish();
      expect(await post.answer).toMatchObject({
        kind: 'answer',
        status: 200,
        connectionClose: true,
      });
      expect(await stopped).toBe(0);
      expect(close).toHaveBeenCalledTimes(1);
    },
    TIMEOUT,
  );
});
