import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import type { BlinkCatalogue } from './blink-catalogue';
import { ACTION_VERSION, BLINK_EXPOSED_HEADERS, BLINK_ROUTE_CONFIG } from './blink-headers';
import { notAcceptable } from './blink-negotiation';

type Hooks<T> = T | T[] | undefined;
const plus = <T>(hooks: Hooks<T>, hook: T): T[] => [
  ...(hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]),
  hook,
];

/** The words of an error answer in either of the service's shapes. */
function messageOf(payload: string): string {
  try {
    const { message, error } = JSON.parse(payload) as { message?: unknown; error?: unknown };
    if (typeof message === 'string') return message;
    if (typeof error === 'string') return error;
  } catch {
    // Not JSON: said in general terms below.
  }
  return 'The request failed';
}

/**
 * Adds the spec's hooks to each route declared a blink's (its route config), as Fastify
 * registers it: other routes carry no extra hook. On every answer, refusals included, the
 * spec's X-Action-Version and X-Blockchain-Ids, exposed to pages; a client whose sRFC-31 accept
 * headers rule the blink out refused before anything runs (blink-negotiation.ts); and errors
 * raised before the handler (a body that is not JSON), which the service's filter renders, in
 * the spec's shape.
 */
export function blinkRouteHooks(catalogue: BlinkCatalogue): (route: RouteOptions) => void {
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
    const list = [...(typeof exposed === 'string' ? [exposed] : []), ...BLINK_EXPOSED_HEADERS];
    void reply.header('access-control-expose-headers', list.join(', '));
    // A blink's own routes honour the client's accept headers; actions.json and preflights do not.
    const refused =
      chains === undefined || req.method === 'OPTIONS'
        ? undefined
        : notAcceptable(req.headers, ACTION_VERSION, chains);
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
    done(null, JSON.stringify({ message: messageOf(payload) }));
  };
  return (route) => {
    const config = route.config as { blink?: unknown } | undefined;
    if (config?.blink !== BLINK_ROUTE_CONFIG.blink) return;
    route.onRequest = plus(route.onRequest as Hooks<typeof headers>, headers);
    route.onSend = plus(route.onSend as Hooks<typeof errors>, errors);
  };
}
