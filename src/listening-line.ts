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
