import type { FastifyRequest } from 'fastify';

/**
 * The Actions spec version the blinks follow, as X-Action-Version: @solana/actions-spec 2.4
 * (Dialect's client compares major and minor with the version it supports).
 */
export const ACTION_VERSION = '2.4';

/** Marks a route as a blink's (Fastify route config): the spec's CORS and headers apply to it. */
export const BLINK_ROUTE_CONFIG = { blink: true } as const;

export const BLINK_EXPOSED_HEADERS = ['X-Action-Version', 'X-Blockchain-Ids'];

/** What the spec asks a blink's preflight to allow, besides the service's own headers. */
export const BLINK_ALLOWED_HEADERS = [
  'Content-Type',
  'Authorization',
  'Content-Encoding',
  'Accept-Encoding',
];

/** Whether the route a request reached is a blink's: read from its declaration, not its path. */
export function isBlinkRoute(req: FastifyRequest): boolean {
  const config = req.routeOptions?.config as { blink?: unknown } | undefined;
  return config?.blink === BLINK_ROUTE_CONFIG.blink;
}
