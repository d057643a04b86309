import { BadRequestException, type NestApplicationOptions } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBodyParser, FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { EdgeReplies } from './edge/edge-reply';
import { hostCheck } from './edge/host-check.hook';
import { type JsonBodyError, parseJsonBody } from './edge/json-body';
import { edgeServerOptions, hardenServer } from './edge/http-server';
import { RequestObserver } from './request-observer';
import { GracefulShutdown } from './graceful-shutdown';
import { KitModule } from '../kit/kit.module';
import { closeUnlessUploadRead } from '../kit/uploads/multipart.setup';
import { refusedBeforeBody } from '../kit/throttling/early-counts';
import { PublishingModule } from '../publishing/publishing.module';
import { BlinksModule } from '../blinks/blinks.module';

type ContentTypeParser = FastifyBodyParser<string>;

/**
 * Headers a mini-app client sends; browsers may send them cross-origin. The platform's proxy adds
 * the x-sherry-* and x-timestamp ones; its older SDK build, calling directly, x-sdk-version.
 */
export const CORS_ALLOWED_HEADERS = [
  'Content-Type',
  'x-user-address',
  'x-wallet-address',
  'x-source-chain',
  'x-chain-id',
  'x-destination-chain',
  'x-request-id',
  'x-sherry-proxy',
  'x-sherry-version',
  'x-timestamp',
  'x-sdk-version',
].join(', ');
export const CORS_EXPOSED_HEADERS = [
  'x-request-id',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Action-Intent',
].join(', ');
const CORS_METHODS = 'GET, POST, OPTIONS';

const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Reuses a caller's request id when it is safe to echo, so traces join up across services. */
function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Set by the observer's first hook on every answer: the request id, and an upload's
 * `Connection: close` until the upload has been read. On Node's response, not Fastify's reply,
 * which Fastify passes to Node again as it writes it, each header checked anew.
 */
function stampHeaders(req: FastifyRequest, reply: FastifyReply): void {
  reply.raw.setHeader('x-request-id', req.id);
  closeUnlessUploadRead(req.raw, reply.raw);
}

/**
 * The allowed methods and headers, which the contract asks of every answer, not only of
 * preflights (those CORS answers itself, with both). Set after Nest's CORS hook, which sets every
 * `access-control-*` header Node's response already holds on it again, checking each anew.
 */
function stampAllowed(reply: FastifyReply): void {
  reply.raw.setHeader('access-control-allow-methods', CORS_METHODS);
  reply.raw.setHeader('access-control-allow-headers', CORS_ALLOWED_HEADERS);
}

/** Renders errors raised before routing with the same CORS headers and request ids. */
const edgeReplies = (config: AppConfig): EdgeReplies =>
  new EdgeReplies(
    {
      methods: CORS_METHODS,
      allowedHeaders: CORS_ALLOWED_HEADERS,
      exposedHeaders: CORS_EXPOSED_HEADERS,
      allowedOrigins: config.allowedOrigins,
    },
    requestId,
  );

/** Nest's own body parsers stay off: setupApp reads every body as JSON, empty bodies included. */
export const APP_OPTIONS: NestApplicationOptions = { bodyParser: false };

/** The edge replies each adapter's server answers with, for setupApp to observe and reuse. */
const EDGE_REPLIES = new WeakMap<FastifyAdapter, EdgeReplies>();

export function createAdapter(config: AppConfig): FastifyAdapter {
  const replies = edgeReplies(config);
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    // Only listed proxies may set the client IP through X-Forwarded-For (rate limits key on it).
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    requestIdHeader: false,
    genReqId: requestId,
    // Request deadlines; parser errors, timeouts and bad URLs answered in the envelope.
    ...edgeServerOptions(config, replies),
    // GracefulShutdown closes Fastify only once every connection has ended; should it be closed
    // earlier, requests on open connections are still served and not cut, never a bare 503.
    return503OnClosing: false,
    forceCloseConnections: false,
  });
  EDGE_REPLIES.set(adapter, replies);
  return adapter;
}

/** Everything main.ts and the tests both need on top of the module graph. */
export function setupApp(app: NestFastifyApplication): NestFastifyApplication {
  const fastify = app.getHttpAdapter().getInstance();
  const config = app.get<AppConfig>(APP_CONFIG);
  // Nest's Logger writes JSON lines through pino, with the request's id while one is served.
  app.useLogger(app.get(PinoNestLogger));
  // Access lines, metrics and spans, from the first hook on: refused requests count too, and so
  // do the answers written before routing (parser errors, deadlines, `Expect`).
  const replies = EDGE_REPLIES.get(app.getHttpAdapter() as FastifyAdapter) ?? edgeReplies(config);
  app.get(RequestObserver).install(app, replies, stampHeaders);
  const { allowedOrigins } = config;

  // Clients send JSON, sometimes with no body or a missing/odd content type: read any body as
  // JSON (prototype-poisoning keys removed, the check bounded), an empty one as no body.
  const parseJson: ContentTypeParser = (req, body, done) => {
    // A client over its IP limit is refused by the guards; its body is not worth parsing.
    if (body.trim() === '' || refusedBeforeBody(req.raw)) return done(null, undefined);
    try {
      done(null, parseJsonBody(body));
    } catch (error) {
      done(new BadRequestException((error as JsonBodyError).message));
    }
  };
  fastify.removeAllContentTypeParsers();
  // Also under its own type: Fastify remembers the parser of each content type it has seen,
  // except one found by the catch-all, for which it parses the header anew on every request.
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson);
  fastify.addContentTypeParser('*', { parseAs: 'string' }, parseJson);
  // multipart/form-data is left unread until the guards have passed: the kit's to read.
  const uploadCap = KitModule.setup(app);
  // The blink routes' own hooks (src/blinks), added as their routes are registered.
  BlinksModule.setup(app);
  // Connection cap, and `Expect` answered before any body is read.
  hardenServer(fastify.server, config, replies, (req) => uploadCap(req) ?? config.bodyLimitBytes);

  GracefulShutdown.setup(app);
  app.enableCors({
    // With an allow-list, only listed origins are reflected; the OriginGuard refuses the others.
    origin: allowedOrigins.length > 0 ? allowedOrigins : '*',
    methods: CORS_METHODS,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    optionsSuccessStatus: 200,
    strictPreflight: false,
  });
  // After CORS, so a refused host still gets the CORS headers.
  const checkHost = hostCheck(config);
  fastify.addHook('onRequest', (req, reply, done) => {
    stampAllowed(reply);
    checkHost(req, reply, done);
  });
  // /docs under DEBUG_UI (the document itself is always at /api/openapi.json).
  PublishingModule.setup(app);
  return app;
}
