/**
 * Used by main.ts around loading the application. NestJS 12's packages are ES modules that import
 * `node:http`, and Node builds the ES-module view of a built-in module by reading each of its
 * exports once, getters included. Three of `http`'s getters (`WebSocket`, `CloseEvent`,
 * `MessageEvent`) load Node's own bundled undici (fetch, WebSocket, an HTTP/2 client…) to answer:
 * 30 to 80 ms of every boot (docs/performance.md) for classes nothing takes from `http`.
 *
 * While `load` runs, those three read as undefined; then Node's getters are put back, so
 * `require('node:http').WebSocket` is what it always was. Only an ES module that imports one of
 * the three from `node:http` during the boot would see undefined (none of the service's does: they
 * are globals). Where Node has no such getter, nothing is changed.
 */
// `import =`, not `import * as`: TypeScript's namespace import copies every export, getters read.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import http = require('node:http');

const UNDICI_GETTERS = ['WebSocket', 'CloseEvent', 'MessageEvent'] as const;

export function withoutHttpUndiciGetters<T>(load: () => T): T {
  const saved = UNDICI_GETTERS.flatMap((name) => {
    const descriptor = Object.getOwnPropertyDescriptor(http, name);
    return descriptor?.get && descriptor.configurable ? [{ name, descriptor }] : [];
  });
  for (const { name, descriptor } of saved) {
    Object.defineProperty(http, name, { ...descriptor, get: () => undefined });
  }
  try {
    return load();
  } finally {
    for (const { name, descriptor } of saved) Object.defineProperty(http, name, descriptor);
  }
}
