import { HttpStatus } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { AppConfig } from '../../config/app.config';
import { ActionException } from '../../contract/action.exception';
import { hostAllowed, hostParser, type ParsedHost } from '../../contract/host-syntax';

const ANY_HOST = 'anyHost';
const FORWARDED_PROTOCOL = /^https?$/i;

/**
 * Lets a route answer whatever host a request names, outside ALLOWED_HOSTS (the host's syntax
 * is still checked): for health checks a load balancer sends to an address.
 */
export const AnyHost = (): MethodDecorator => RouteConfig({ [ANY_HOST]: true });

const invalid = (error: string): ActionException =>
  new ActionException(HttpStatus.BAD_REQUEST, error, {
    message: 'The request names an invalid host',
    code: 'INVALID_HOST',
  });

const notAllowed = (): ActionException =>
  new ActionException(HttpStatus.MISDIRECTED, 'Host not allowed', {
    message: 'This server does not answer for that host',
    code: 'HOST_NOT_ALLOWED',
  });

function countHostHeaders(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].length === 4 && rawHeaders[i].toLowerCase() === 'host') count += 1;
  }
  return count;
}

/** What is wrong with the host and protocol a request names, if anything. */
function hostProblem(
  req: FastifyRequest,
  config: AppConfig,
  parseHost: (value: string) => ParsedHost | undefined,
): ActionException | undefined {
  const { raw } = req;
  const hostHeaders = countHostHeaders(raw.rawHeaders);
  if (hostHeaders > 1) return invalid('More than one Host header');
  // HTTP/1.0 may leave Host out (load balancers' health checks do); HTTP/1.1 must send it.
  if (hostHeaders === 0 && raw.httpVersion !== '1.0') return invalid('The Host header is required');
  if (raw.headers.host !== undefined && !parseHost(raw.headers.host)) {
    return invalid('Invalid Host header');
  }
  // With TRUST_PROXY, Fastify takes the host and protocol from X-Forwarded-Host/-Proto.
  const host = req.host ? parseHost(req.host) : undefined;
  if (req.host && !host) return invalid('Invalid X-Forwarded-Host header');
  if (!FORWARDED_PROTOCOL.test(req.protocol)) return invalid('Invalid X-Forwarded-Proto header');
  if (config.allowedHosts.length === 0 || (host && hostAllowed(host, config.allowedHosts))) {
    return undefined;
  }
  // Read last: Fastify builds `routeOptions` afresh on every read.
  const anyHost = (req.routeOptions.config as { [ANY_HOST]?: boolean })[ANY_HOST] === true;
  return anyHost ? undefined : notAllowed();
}

/**
 * `onRequest` hook: the host a request names ends up in published URLs (metadata `baseUrl`),
 * so only a plain host (and http/https as forwarded protocol) is accepted, from ALLOWED_HOSTS
 * when set. A Fastify hook rather than a guard: it sees every request, unknown paths included.
 */
export function hostCheck(
  config: AppConfig,
): (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void {
  const parseHost = hostParser();
  return (req, _reply, done) => done(hostProblem(req, config, parseHost));
}
