import type { AddressInfo } from 'node:net';

const EVERY_INTERFACE = new Set(['0.0.0.0', '::']);

/**
 * The boot line naming the address the socket is bound to. Nest's `getUrl()` prints `0.0.0.0` as
 * `127.0.0.1`, which reads as "loopback only" while every interface is listening.
 */
export function listeningLine(bound: AddressInfo | string | null): string {
  if (bound === null || typeof bound === 'string')
    return `Listening on ${bound ?? 'an unknown address'}`;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  const every = EVERY_INTERFACE.has(bound.address) ? ' (every interface)' : '';
  return `Listening on http://${host}:${bound.port}${every}`;
}

/** The variables naming the ports the service opens. */
export type PortVariable = 'PORT' | 'METRICS_PORT';

/**
 * A port already taken, as the one line a failed boot prints: the port, the variable that moves
 * it, and Node's code to search for. Any other error is returned as it is.
 */
export function namePortInUse(error: unknown, variable: PortVariable): unknown {
  const { code, port, address } = (error ?? {}) as {
    code?: string;
    port?: number;
    address?: string;
  };
  if (code !== 'EADDRINUSE') return error;
  const where = address === undefined ? '' : ` on ${address}`;
  return Object.assign(
    new Error(
      `${variable} ${port ?? ''} is already in use${where} (EADDRINUSE): stop what holds it ` +
        `(another npm start or npm run dev?), or set ${variable} to another port`,
    ),
    { code },
  );
}
