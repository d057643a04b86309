/**
 * The Actions spec version the blinks follow, as X-Action-Version: @solana/actions-spec 2.4
 * (Dialect's client compares major and minor with the version it supports).
 */
export const ACTION_VERSION = '2.4';

/**
 * Marks a route as a blink's (Fastify route config): the spec's headers apply to it, and its
 * CORS is the blinks' (@fastify/cors merges a route's `cors` over the service's rules): any
 * origin, as the spec asks, unless BLINKS_ALLOWED_ORIGINS lists some (blink-hooks.ts sets the
 * list). The origin guard never sees these routes, which are no action and not guarded.
 */
export const BLINK_ROUTE_CONFIG = {
  blink: true,
  cors: {
    origin: '*',
    // The headers the spec asks a blink's preflight to allow (sRFC-31's accept headers among
    // them), and the service's request id.
    allowedHeaders:
      'Content-Type, Authorization, Content-Encoding, Accept-Encoding, X-Accept-Action-Version, X-Accept-Blockchain-Ids, x-request-id',
  },
} as const;

/**
 * Exposed to pages on every blink answer: the spec's two, and a transaction answer's intent
 * (`X-Action-Intent`, as the platform route's answer names it) that a client may report a hash to.
 */
export const BLINK_EXPOSED_HEADERS = ['X-Action-Version', 'X-Blockchain-Ids', 'X-Action-Intent'];
