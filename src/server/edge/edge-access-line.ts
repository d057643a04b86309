import type { Logger } from 'pino';
import type { EdgeAnswer, EdgeSource } from './edge-reply';

/** Server errors at `error`, where alerts look; refusals and successes at `info`. */
export const levelOf = (status: number): 'error' | 'info' => (status >= 500 ? 'error' : 'info');

/**
 * The access line of an answer written before Fastify saw a request (a header overflow, a bad
 * Content-Length, a deadline, a declared body over the limit after `Expect: 100-continue`): route
 * `unknown` like any unrouted request, Node's error code as `reason`, not timed (it never started).
 */
export function writeEdgeLine(
  logger: Logger,
  answer: EdgeAnswer,
  { req, ip, reason }: EdgeSource,
): void {
  const level = levelOf(answer.status);
  if (!logger.isLevelEnabled(level)) return;
  logger[level](
    {
      reqId: answer.headers['x-request-id'],
      method: req?.method,
      route: 'unknown',
      status: answer.status,
      bytes: Number(answer.headers['content-length']),
      ip: req?.socket.remoteAddress ?? ip,
      reason,
    },
    'request refused before routing',
  );
}
