import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InProcessCalls } from '../kit/in-process-call';

/** What the service answered a request it made to itself. */
export interface Dispatched {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Record<string, unknown>;
}

/** Headers of the inner answer a blink answer passes on: its rate-limit state and intent. */
export const PASSED_HEADERS = [
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-action-intent',
] as const;

/** Writes the inner answer's PASSED_HEADERS on the blink's reply. */
export function passHeaders(reply: FastifyReply, headers: Dispatched['headers']): void {
  for (const name of PASSED_HEADERS) {
    const value = headers[name];
    if (value !== undefined) void reply.header(name, value);
  }
}

/** How the request to the service's own route is sent. */
export interface DispatchOptions {
  /** The user the request names (`x-user-address`): a blink's `account`. */
  user?: string;
  /**
   * Sent as the client's own request: its Origin passed on and no in-process mark, so the route's
   * origin rule judges the client as if it had called the route itself (the blinks' reports).
   */
  asClient?: boolean;
  /** A session token (a signed-in blink's), sent as `Authorization: Bearer`: the route checks it. */
  session?: string;
  /** More headers the request carries (the MCP endpoint's: the chain, the caller's bearer token). */
  headers?: Record<string, string>;
}

/** A body sent as it is, for a route that reads another type than JSON (an upload's form). */
export interface RawPayload {
  contentType: string;
  body: Buffer | string;
}

/**
 * Runs a blink's request through the action's own route, in-process (Fastify's inject): the
 * same rate limits (the client's IP; the user named by `account`), validation, handler,
 * builder and simulation, and the same intent recording as the Sherry route. Nothing of that
 * pipeline is repeated here; only the request's shape differs. The host and request id are
 * the client's, so the host check and the logs see one request. The MCP endpoint (src/mcp) runs
 * its tool calls through it too, `asClient`, with its own headers and an upload's form as a raw
 * payload. An action's call has no Origin,
 * and is marked as the service's own (InProcessCalls) so that STRICT_ORIGIN does not refuse it:
 * the blink routes judged the origin already (BLINKS_ALLOWED_ORIGINS). A report is sent
 * `asClient` instead.
 */
@Injectable()
export class BlinkDispatch {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly inProcess: InProcessCalls,
  ) {}

  post(
    req: FastifyRequest,
    url: string,
    payload: object | RawPayload,
    options: DispatchOptions = {},
  ): Promise<Dispatched> {
    return this.send(req, 'POST', url, payload, options);
  }

  /** A GET of one of the service's routes (a blink's sign-in asks for a nonce; the MCP endpoint reads an intent). */
  get(req: FastifyRequest, url: string, options: DispatchOptions = {}): Promise<Dispatched> {
    return this.send(req, 'GET', url, undefined, options);
  }

  private async send(
    req: FastifyRequest,
    method: 'GET' | 'POST',
    url: string,
    payload: object | RawPayload | undefined,
    { user, asClient = false, session, headers = {} }: DispatchOptions,
  ): Promise<Dispatched> {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const { host, origin } = req.headers;
    const raw = payload !== undefined && isRaw(payload) ? payload : undefined;
    const response = await fastify.inject({
      method,
      url,
      remoteAddress: req.ip,
      headers: {
        ...headers,
        ...(payload !== undefined && { 'content-type': raw?.contentType ?? 'application/json' }),
        'x-request-id': req.id,
        ...(asClient ? origin !== undefined && { origin } : this.inProcess.headers()),
        ...(host !== undefined && { host }),
        ...(user !== undefined && { 'x-user-address': user }),
        ...(session !== undefined && { authorization: `Bearer ${session}` }),
      },
      ...(payload !== undefined && { payload: raw ? raw.body : JSON.stringify(payload) }),
    });
    let body: unknown;
    try {
      body = response.json();
    } catch {
      body = {};
    }
    return {
      status: response.statusCode,
      headers: response.headers,
      body: typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {},
    };
  }
}

const isRaw = (payload: object): payload is RawPayload =>
  'contentType' in payload && 'body' in payload;
