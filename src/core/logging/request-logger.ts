import { Store, storage } from 'nestjs-pino/storage';
import type { Logger } from 'pino';

/**
 * Runs the rest of a request with nestjs-pino's request-scoped logger bound to its id: every line
 * Nest's `Logger` writes meanwhile (the kit's, an action service's) carries `reqId`, found through
 * nestjs-pino's AsyncLocalStorage, so no service passes the id around. What nestjs-pino's
 * middleware does, done from the request's first Fastify hook (nestjs-pino 4 keeps its storage in
 * this module).
 */
export function withRequestLogger(root: Logger, reqId: string, next: () => void): void {
  storage.run(new Store(root.child({ reqId })), next);
}
