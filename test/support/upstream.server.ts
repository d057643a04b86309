import { EventEmitter, once } from 'node:events';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a route answers: JSON (found, not found, 500…), raw text, or either after a delay. */
export type UpstreamReply =
  | { kind: 'json'; status: number; body: unknown }
  | { kind: 'raw'; status: number; body: string }
  | { kind: 'slow'; delayMs: number; then: UpstreamReply };

/** Ready-made answers for `route`: the ones an external API gives, good and bad. */
export const reply = {
  /** 200 (or `status`) with a JSON body: the "found" answer. */
  json: (body: unknown, status = 200): UpstreamReply => ({ kind: 'json', status, body }),
  /** 404 with a JSON error, as most APIs answer an unknown item. */
  notFound: (): UpstreamReply => ({ kind: 'json', status: 404, body: { error: 'not found' } }),
  /** A server failure with a JSON error body. */
  error: (status = 500): UpstreamReply => ({ kind: 'json', status, body: { error: 'boom' } }),
  /** 200 whose body claims JSON but is not. */
  malformed: (): UpstreamReply => ({ kind: 'raw', status: 200, body: '{"results": [ {"name": ' }),
  /** Answers `then` after `delayMs`, unless the client gives up first (counted as aborted). */
  slow: (delayMs: number, then: UpstreamReply = reply.json({})): UpstreamReply => ({
    kind: 'slow',
    delayMs,
    then,
  }),
};

/**
 * A request as the fake upstream received it: path, parsed query and headers, for a test to assert
 * what the service sent (its `x-request-id`, say).
 */
export interface UpstreamRequest {
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

/** Answers a request from what it asked, for a route whose answer depends on the query. */
export type RouteHandler = (request: UpstreamRequest) => UpstreamReply;

/**
 * An imitation of an external HTTP API on 127.0.0.1 (port from listen(0)) for tests: handlers per
 * path, a record of every request, and a count of requests the client closed before the answer.
 */
export class FakeUpstream {
  private readonly routes = new Map<string, RouteHandler>();
  private readonly events = new EventEmitter();
  /** Every request received, oldest first. */
  readonly requests: UpstreamRequest[] = [];
  /** Requests the client closed before their answer: proof that a timed-out call really ended. */
  aborted = 0;

  private constructor(
    private readonly server: Server,
    /** The port it listens on, from listen(0). */
    readonly port: number,
  ) {}

  /**
   * Starts the fake upstream on 127.0.0.1 on a free port, with no routes (every path answers 404).
   */
  static async start(): Promise<FakeUpstream> {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const upstream = new FakeUpstream(server, (server.address() as AddressInfo).port);
    server.on('request', (req, res) => upstream.handle(req, res));
    return upstream;
  }

  /** Base URL to append paths to, for instance `${upstream.base}/geo`. */
  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Sets (or replaces) what `path` answers; unrouted paths answer 404. */
  route(path: string, handler: RouteHandler | UpstreamReply): this {
    this.routes.set(path, typeof handler === 'function' ? handler : () => handler);
    return this;
  }

  /** Requests received on `path`, or on every path. */
  count(path?: string): number {
    return path === undefined
      ? this.requests.length
      : this.requests.filter((r) => r.path === path).length;
  }

  /** Forgets routes, requests and aborts between tests. */
  reset(): void {
    this.routes.clear();
    this.requests.length = 0;
    this.aborted = 0;
  }

  /** Resolves once `n` requests in all have been closed by the client before their answer. */
  async waitForAborted(n = 1): Promise<void> {
    while (this.aborted < n) await once(this.events, 'aborted');
  }

  /** Closes every connection, slow answers included, then the server. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.base);
    const request = { path: url.pathname, query: url.searchParams, headers: req.headers };
    this.requests.push(request);
    const handler = this.routes.get(url.pathname);
    let timer: NodeJS.Timeout | undefined;
    res.on('close', () => {
      clearTimeout(timer);
      if (!res.writableEnded) {
        this.aborted += 1;
        this.events.emit('aborted');
      }
    });
    const send = (answer: UpstreamReply): void => {
      if (answer.kind === 'slow') {
        timer = setTimeout(() => send(answer.then), answer.delayMs);
        return;
      }
      const body = answer.kind === 'json' ? JSON.stringify(answer.body) : answer.body;
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(body);
    };
    send(handler ? handler(request) : reply.notFound());
  }
}

/** A loopback URL where nothing listens: a port the system just handed out, then released. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
