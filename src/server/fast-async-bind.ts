import { AsyncResource } from 'node:async_hooks';

type Bind = (
  this: AsyncResource,
  fn: (...args: unknown[]) => unknown,
  thisArg?: unknown,
) => unknown;

const INSTALLED = Symbol.for('dynamic-actions.fast-async-resource-bind');

/**
 * Node 24's `AsyncResource#bind` (and the static `AsyncResource.bind` built on it) hangs the
 * deprecated `asyncResource` accessor (DEP0172) on every function it returns, through two
 * `deprecate()` wrappers and `Object.defineProperties`: about 3 µs a call, and some 900 bytes
 * that V8 keeps past two young collections, so they are collected only by full ones. Nest's
 * interceptors consumer binds twice per interceptor on every request: with the one global
 * interceptor of the design card's shape, that cost the bare floor half its req/s and the
 * service a sixth, and most of their full collections (docs/performance.md, "What was tuned").
 * The property is deprecated and set to go (nodejs/node#58618); this installs the bind that
 * remains, where Node still adds it: the same function, run in the resource's async context
 * with the same `this`, arguments, result and `length`, without the deprecated property.
 * Process-wide and once, however many apps are set up; a no-op where Node no longer adds it.
 */
export function installFastAsyncResourceBind(): void {
  const prototype = AsyncResource.prototype as AsyncResource & { [INSTALLED]?: true };
  if (prototype[INSTALLED]) return;
  prototype[INSTALLED] = true;
  const nodeBind = prototype.bind as unknown as Bind;
  const probe = nodeBind.call(new AsyncResource('probe'), () => undefined) as object;
  if (!('asyncResource' in probe)) return;

  const bind: Bind = function (this: AsyncResource, fn, thisArg) {
    // Node's own refusal (ERR_INVALID_ARG_TYPE) for anything that is no function.
    if (typeof fn !== 'function') return nodeBind.call(this, fn, thisArg);
    return bindTo(this, fn, thisArg);
  };
  prototype.bind = bind as unknown as AsyncResource['bind'];
}

function bindTo(
  resource: AsyncResource,
  fn: (...args: unknown[]) => unknown,
  thisArg: unknown,
): (...args: unknown[]) => unknown {
  const bound =
    thisArg === undefined
      ? function (this: unknown, ...args: unknown[]): unknown {
          return resource.runInAsyncScope(fn, this, ...args);
        }
      : (...args: unknown[]): unknown => resource.runInAsyncScope(fn, thisArg, ...args);
  // A rest parameter counts 0: only another length needs setting (it costs a slower shape).
  if (fn.length !== 0) Object.defineProperty(bound, 'length', { value: fn.length });
  return bound;
}
