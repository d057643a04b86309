import type { Server as HttpServer } from 'node:http';
import { createServer, type Server as NetServer, type Socket } from 'node:net';

/** The listening sockets opened beside a server's own, by that server. */
const opened = new WeakMap<HttpServer, NetServer[]>();

export interface AcceptSocketsOptions {
  /** Listening sockets in all, the server's own included (ACCEPT_SOCKETS). */
  count: number;
  /** LISTEN_BACKLOG: shared among the sockets (backlogShares), the server's own included. */
  backlog: number;
  /** MAX_CONNECTIONS: one cap over every socket; 0, none. */
  maxConnections: number;
}

/**
 * Opens `count - 1` more listening sockets on the server's address and port; each hands what it
 * accepts to the HTTP server (its 'connection' event, which Node documents for injected
 * connections). The server must already listen with `reusePort`, so the kernel spreads new
 * connections across all of them.
 *
 * Why: libuv accepts one connection per listening socket each time it polls, and on a loaded server
 * a poll first serves up to 1,024 ready sockets (about 100 ms at 10k req/s). With one socket, 2,000
 * clients connecting at once were accepted at about ten a second once the first thousand were busy:
 * hundreds waited in the kernel's accept queue past their 10 s timeout (docs/performance.md).
 *
 * Each socket's backlog is its share of `backlog` (the kernel keeps one queue per socket): 128
 * sockets of the whole LISTEN_BACKLOG held 128 times the handshakes a stalled process completes
 * and never serves.
 *
 * Resolves with the number opened; the first socket that cannot listen (a Node or platform without
 * SO_REUSEPORT; the open-file limit) stops the opening, and its error is returned beside the count.
 */
export async function openAcceptSockets(
  server: HttpServer,
  { count, backlog, maxConnections: max }: AcceptSocketsOptions,
): Promise<{ opened: number; error?: Error }> {
  const address = server.address();
  if (count <= 1 || !address || typeof address === 'string') return { opened: 0 };
  // The cap stays one: the server's own check counts only what it accepted, so its limit is what
  // the other sockets leave; theirs count every open connection.
  let open = 0;
  let handedOver = 0;
  const capOwn = (): void => {
    if (max > 0) server.maxConnections = max - handedOver;
  };
  server.on('connection', (socket: Socket) => {
    open++;
    socket.once('close', () => open--);
  });
  const handOver = (socket: Socket): void => {
    if (max > 0 && open >= max) {
      // What Node's own check emits for a connection it drops, read before the socket is gone.
      const { localAddress, localPort, localFamily, remoteAddress, remotePort, remoteFamily } =
        socket;
      socket.destroy();
      server.emit('drop', {
        localAddress,
        localPort,
        localFamily,
        remoteAddress,
        remotePort,
        remoteFamily,
      });
      return;
    }
    handedOver++;
    capOwn();
    socket.once('close', () => {
      handedOver--;
      capOwn();
    });
    server.emit('connection', socket);
  };
  const sockets: NetServer[] = [];
  opened.set(server, sockets);
  const shares = backlogShares(backlog, count);
  for (let i = 1; i < count; i++) {
    // As http.Server's own: half-open allowed (HTTP decides when to end), no Nagle delay.
    const socket = createServer({ allowHalfOpen: true, noDelay: true }, handOver);
    try {
      await listen(socket, address.port, address.address, shares[i]);
    } catch (error) {
      return { opened: sockets.length, error: error as Error };
    }
    sockets.push(socket);
  }
  return { opened: sockets.length };
}

/**
 * `total` split among `count` sockets, the first ones taking the remainder, so the shares add up
 * to it (at least 1 each; the configuration refuses more sockets than places).
 */
export function backlogShares(total: number, count: number): number[] {
  const base = Math.floor(total / count);
  return Array.from({ length: count }, (_, i) => Math.max(1, base + (i < total % count ? 1 : 0)));
}

/**
 * Rejects (EADDRINUSE) when a socket already listens on the port, as listening would without
 * SO_REUSEPORT: another process listening with it (a second copy of the service) would otherwise
 * share the port's connections silently instead of failing the boot.
 */
export async function checkPortFree(port: number, host: string): Promise<void> {
  const probe = createServer();
  await listen(probe, port, host, 1, false);
  await new Promise((resolve) => probe.close(resolve));
}

function listen(
  socket: NetServer,
  port: number,
  host: string,
  backlog: number,
  reusePort = true,
): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.listen({ port, host, backlog, reusePort }, () => {
      socket.off('error', reject);
      resolve();
    });
  });
}

/**
 * Stops the server's other sockets from accepting; resolves once every connection they accepted
 * has ended (as net.Server#close does for the server's own socket).
 */
export function closeAcceptSockets(server: HttpServer): Promise<void> {
  const sockets = opened.get(server) ?? [];
  opened.delete(server);
  return Promise.all(
    sockets.map((socket) => new Promise<void>((resolve) => socket.close(() => resolve()))),
  ).then(() => undefined);
}
