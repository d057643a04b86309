import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config/app.config';
import type { EdgeReplies } from './edge-reply';

/** Statuses of the errors Node's HTTP parser reports; anything else it reports is a 400. */
const CLIENT_ERROR_STATUS: Record<string, number> = {
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
};

/** The parts of Fastify's server options that bound a request's arrival and render edge errors. */
export interface EdgeServerOptions {
  requestTimeout: number;
  keepAliveTimeout: number;
  http: {
    requestTimeout: number;
    headersTimeout: number;
    connectionsCheckingInterval: number;
    requireHostHeader: boolean;
  };
  clientErrorHandler: (error: ConnectionError, socket: Socket) => void;
  frameworkErrors: (error: FastifyError, req: FastifyRequest, reply: FastifyReply) => void;
}

export function edgeServerOptions(config: AppConfig, replies: EdgeReplies): EdgeServerOptions {
  return {
    // Fastify's defaults (0) switch the request deadline off: a trickling body held a socket open.
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.headersTimeoutMs,
      // Node looks for overdue requests only this often (30 s by default, which would let a
      // 30 s deadline run to 60 s): often enough to overrun a deadline by a quarter at most.
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, config.headersTimeoutMs / 4)),
      // Node answers a missing Host with an empty 400; the host check answers it in the envelope.
      requireHostHeader: false,
    },
    clientErrorHandler: (error, socket) => {
      // A reset connection has nobody left to answer.
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      // Like Node's own handler: the answer goes straight to the socket, which then closes.
      const status = CLIENT_ERROR_STATUS[error.code] ?? 400;
      // A deadline may cut a request already being served (its body trickling in): same id.
      const served = replies.servedOn(socket);
      const answer = replies.answer(status, served?.req, served?.id);
      const ip = socket.remoteAddress;
      if (socket.writable) socket.write(replies.raw(answer));
      socket.destroy();
      replies.refused(answer, { req: served?.req, ip, reason: error.code ?? 'client error' });
    },
    // A URL Fastify's router cannot decode, a path parameter too long: answered before routing.
    frameworkErrors: (error, req, reply) => {
      const status =
        error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 400;
      const answer = replies.answer(status, req.raw, req.id);
      void reply.code(answer.status).headers(answer.headers).send(answer.body);
      replies.refused(answer, { req: req.raw, reason: error.code });
    },
  };
}

/** The largest body a request may declare: uploads have their own cap (UPLOAD_MAX_BYTES). */
export type BodyLimit = (req: IncomingMessage) => number;

/** Settings of the Node server itself: the connection cap and `Expect` handling. */
export function hardenServer(
  server: Server,
  config: AppConfig,
  replies: EdgeReplies,
  bodyLimit: BodyLimit,
): void {
  if (config.maxConnections > 0) server.maxConnections = config.maxConnections;
  // A declared body over the limit is refused before `100 Continue`, so it is never sent.
  server.on('checkContinue', (req, res) => {
    if (Number(req.headers['content-length']) > bodyLimit(req)) {
      const answer = replies.answer(413, req);
      replies.send(res, answer);
      replies.refused(answer, { req, reason: 'declared body over the limit' });
      return;
    }
    res.writeContinue();
    server.emit('request', req, res);
  });
  server.on('checkExpectation', (req, res) => {
    const answer = replies.answer(417, req);
    replies.send(res, answer);
    replies.refused(answer, { req, reason: 'unsupported Expect' });
  });
}
