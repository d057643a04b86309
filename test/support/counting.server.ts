import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How a CountingServer answers: the request, its response and the whole body as text, read before
 * the handler runs.
 */
export type CountedHandler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** Never answers: the socket stays open until the client gives up. */
export const neverAnswer: CountedHandler = () => undefined;

/** Answers every request with this status and a JSON error body. */
export const failWith =
  (status: number): CountedHandler =>
  (_req, res) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end('{"error":"down"}');

/** Redirects every request to `location`. */
export const redirectTo =
  (location: string, status = 302): CountedHandler =>
  (_req, res) =>
    res.writeHead(status, { location }).end();

/**
 * An HTTP server on 127.0.0.1 (port from listen(0)) that counts what reaches it: requests, those
 * still open (received, not yet answered nor abandoned by the client) now and at most at once,
 * and open sockets, so a test can tell how many calls and connections a client held.
 *
 * The most at once is counted on requests rather than sockets: Node reports a socket's close in
 * a later phase of the event loop than a new connection, so a client that closes one socket and
 * then opens another would seem to hold both for an instant.
 */
export class CountingServer {
  private readonly events = new EventEmitter();
  /** Requests whose body has arrived: the calls a client made. */
  requests = 0;
  /** Requests received and not yet answered nor abandoned by the client, now. */
  openRequests = 0;
  /**
   * The most requests open at once since start or `reset`: how many calls a client held in flight.
   */
  maxOpenRequests = 0;
  /** Open sockets now: a client's connections, kept alive or not. */
  liveSockets = 0;

  private constructor(
    private readonly server: Server,
    /** How the next requests are answered; a test may swap it between phases. */
    public handler: CountedHandler,
  ) {
    server.on('connection', (socket) => {
      this.liveSockets += 1;
      socket.on('close', () => {
        this.liveSockets -= 1;
        this.events.emit('change');
      });
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      this.openRequests += 1;
      this.maxOpenRequests = Math.max(this.maxOpenRequests, this.openRequests);
      res.on('close', () => {
        this.openRequests -= 1;
        this.events.emit('change');
      });
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.requests += 1;
        this.events.emit('change');
        this.handler(req, res, Buffer.concat(chunks).toString('utf8'));
      });
    });
  }

  /** Starts a server on 127.0.0.1 on a free port (listen(0)), so suites never compete for one. */
  static async start(handler: CountedHandler): Promise<CountingServer> {
    const server = createServer({ keepAliveTimeout: 60_000 });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return new CountingServer(server, handler);
  }

  /** The server's origin (`http://127.0.0.1:<port>`), to configure as the upstream's URL. */
  get base(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once the condition holds, checked on every request and every closed socket. */
  async until(condition: () => boolean): Promise<void> {
    while (!condition()) await once(this.events, 'change');
  }

  /**
   * Zeroes the counts between phases of a test; the most at once restarts from the requests still
   * open.
   */
  reset(): void {
    this.requests = 0;
    this.maxOpenRequests = this.openRequests;
  }

  /**
   * Closes every connection, idle keep-alive ones included, then the server, so the test leaves no
   * socket behind.
   */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
