import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** The CORS headers every answer carries, as src/app.setup.ts configures them. */
export interface EdgeCors {
  methods: string;
  allowedHeaders: string;
  exposedHeaders: string;
  /** Empty: any origin (`*`); else only a listed Origin is reflected. */
  allowedOrigins: readonly string[];
}

/** An answer written outside Nest's pipeline: before routing, or instead of it. */
export interface EdgeAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Told of every answer written outside Fastify's request cycle, so it is logged and counted like
 * the others (RequestObserver). `req` when the request line and headers were read; else the
 * client's `ip`, read before its socket was closed.
 */
export interface EdgeListener {
  /** The request being served on `socket` when a deadline cut it: its answer carries its id. */
  servedOn(socket: Socket): { req: IncomingMessage; id: string } | undefined;
  refused(answer: EdgeAnswer, from: EdgeSource): void;
}

export interface EdgeSource {
  req?: IncomingMessage;
  ip?: string;
  /** Node's error code, or what was refused: a constant, never client text. */
  reason: string;
}

/** User-readable texts of the errors the HTTP layer raises before a route runs. */
const TEXTS: Record<number, { error: string; message: string }> = {
  400: { error: 'Bad request', message: 'The request could not be read' },
  408: { error: 'Request timeout', message: 'The request took too long to arrive' },
  413: { error: 'Payload too large', message: 'The request is too large' },
  414: { error: 'URI too long', message: 'The request URL is too long' },
  417: { error: 'Expectation failed', message: 'Only "Expect: 100-continue" is supported' },
  431: {
    error: 'Request header fields too large',
    message: 'The request headers are too large',
  },
};

/**
 * Renders errors raised outside the router (parser errors, deadlines, `Expect`) in the data
 * envelope with the CORS headers and an x-request-id, as the exception filter does for the rest.
 */
export class EdgeReplies {
  private listener?: EdgeListener;

  constructor(
    private readonly cors: EdgeCors,
    private readonly newRequestId: (req: IncomingMessage) => string,
  ) {}

  /** Set once by setupApp: the request observer. */
  observe(listener: EdgeListener): void {
    this.listener = listener;
  }

  /** Reports an answer written outside the request cycle (see EdgeListener). */
  refused(answer: EdgeAnswer, from: EdgeSource): void {
    this.listener?.refused(answer, from);
  }

  /** The request a parser error or deadline on `socket` cut short, if one was being served. */
  servedOn(socket: Socket): { req: IncomingMessage; id: string } | undefined {
    return this.listener?.servedOn(socket);
  }

  /** `req` when the request line and headers were read; `requestId` when one was assigned. */
  answer(status: number, req?: IncomingMessage, requestId?: string): EdgeAnswer {
    const id = requestId ?? (req ? this.newRequestId(req) : randomUUID());
    const texts = TEXTS[status] ?? {
      error: status >= 500 ? 'Internal server error' : (STATUS_CODES[status] ?? 'Request error'),
      message:
        status >= 500 ? 'Something went wrong, please try again later' : 'The request was refused',
    };
    const body = JSON.stringify({
      success: false,
      ...texts,
      statusCode: status,
      metadata: { timestamp: Date.now(), requestId: id },
    });
    return {
      status,
      headers: {
        ...this.corsHeaders(req?.headers.origin),
        'x-request-id': id,
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
      },
      body,
    };
  }

  /** The answer as HTTP/1.1 text, for a socket whose request the parser gave up on. */
  raw({ status, headers, body }: EdgeAnswer): string {
    const lines = Object.entries({ ...headers, connection: 'close' }).map(
      ([name, value]) => `${name}: ${value}`,
    );
    return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
  }

  /** Sends the answer on a response Node created and closes the connection after it. */
  send(res: ServerResponse, { status, headers, body }: EdgeAnswer): void {
    res.writeHead(status, { ...headers, connection: 'close' });
    res.end(body);
  }

  private corsHeaders(origin: string | undefined): Record<string, string> {
    const { allowedOrigins } = this.cors;
    const allowOrigin =
      allowedOrigins.length === 0
        ? '*'
        : origin !== undefined && allowedOrigins.includes(origin)
          ? origin
          : undefined;
    return {
      ...(allowOrigin !== undefined && { 'access-control-allow-origin': allowOrigin }),
      ...(allowedOrigins.length > 0 && { vary: 'Origin' }),
      'access-control-allow-methods': this.cors.methods,
      'access-control-allow-headers': this.cors.allowedHeaders,
      'access-control-expose-headers': this.cors.exposedHeaders,
    };
  }
}
