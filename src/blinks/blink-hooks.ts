import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import type { BlinkCatalogue } from './blink-catalogue';
import { ACTION_VERSION, BLINK_EXPOSED_HEADERS, BLINK_ROUTE_CONFIG } from './blink-headers';
import { notAcceptable } from './blink-negotiation';
import type { BlinkOrigins } from './blink-origins';

type Hooks<T> = T | T[] | undefined;
const plus = <T>(hooks: Hooks<T>, hook: T): T[] => [
  ...(hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]),
  hook,
];

/**
 * An error answer in the spec's shape: kept as written when a blink route wrote it so (`{message}`,
 * with an origin refusal's `code`); the words of either of the service's shapes otherwise.
 */
function specError(payload: string): string {
  try {
    const body = JSON.parse(payload) as Record<string, unknown>;
    const { message, error } = body;
    const spec = Object.entries(body).every(
      ([key, value]) => (key === 'message' || key === 'code') && typeof value === 'string',
    );
    if (spec && typeof message === 'string') return payload;
    if (typeof message === 'string') return JSON.stringify({ message });
    if (typeof error === 'string') return JSON.stringify({ message: error });
  } catch {
    // Not JSON: said in general terms below.
  }
  return JSON.stringify({ message: 'The request failed' });
}

/**
 * Adds the spec's hooks to each route declared a blink's (its route config), as Fastify
 * registers it: other routes carry no extra hook. On every answer, refusals included, the
 * spec's X-Action-Version and X-Blockchain-Ids, exposed to pages; an origin BLINKS_ALLOWED_ORIGINS
 * leaves out refused before anything runs, and the routes' CORS set to the same list
 * (blink-origins.ts); a client whose sRFC-31 accept headers rule the blink out refused next
 * (blink-negotiation.ts); and errors raised before the handler (a body that is not JSON), which
 * the service's filter renders, in the spec's shape.
 */
export function blinkRouteHooks(
  catalogue: BlinkCatalogue,
  origins: BlinkOrigins,
): (route: RouteOptions) => void {
  const every = catalogue.blockchainIds();
  const blinkOf = (req: FastifyRequest): string[] | undefined => {
    const { name } = (req.params ?? {}) as { name?: string };
    return name === undefined ? undefined : catalogue.find(name)?.blockchainIds;
  };
  const headers = (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const chains = blinkOf(req);
    void reply.header('X-Action-Version', ACTION_VERSION);
    void reply.header('X-Blockchain-Ids', (chains ?? every).join(','));
    // After the CORS hook, which has set the service's list: the spec's two join it.
    const exposed = reply.getHeader('access-control-expose-headers');
    const listed = typeof exposed === 'string' ? exposed.split(',').map((name) => name.trim()) : [];
    const known = new Set(listed.map((name) => name.toLowerCase()));
    const list = [...listed, ...BLINK_EXPOSED_HEADERS.filter((h) => !known.has(h.toLowerCase()))];
    void reply.header('access-control-expose-headers', list.join(', '));
    // Preflights are CORS's to answer (the routes' list decides what the browser is told).
    if (req.method === 'OPTIONS') return done();
    const forbidden = origins.refusal(req.headers.origin);
    if (forbidden) return void reply.code(forbidden.status).send(forbidden.body);
    // A blink's own routes honour the client's accept headers; actions.json does not.
    const refused =
      chains === undefined ? undefined : notAcceptable(req.headers, ACTION_VERSION, chains);
    if (refused) return void reply.code(refused.status).send({ message: refused.message });
    done();
  };
  const errors = (
    _req: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: null, payload: unknown) => void,
  ) => {
    if (reply.statusCode < 400 || typeof payload !== 'string') return done(null, payload);
    done(null, specError(payload));
  };
  return (route) => {
    const config = route.config as { blink?: unknown; cors?: object } | undefined;
    if (config?.blink !== BLINK_ROUTE_CONFIG.blink) return;
    // @fastify/cors reads the route's `cors` over the service's on each request.
    const cors = { ...config.cors, origin: origins.cors };
    route.config = { ...config, cors } as RouteOptions['config'];
    route.onRequest = plus(route.onRequest as Hooks<typeof headers>, headers);
    route.onSend = plus(route.onSend as Hooks<typeof errors>, errors);
  };
}
