import { type ExecutionContext, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { ActionRateLimit } from '../contract/action.types';
import { ActionCall } from './action-call';
import { requestOf } from './http-args';

const GUARDED_ROUTE_KEY = 'dynamic-action:guarded-route';
const reflector = new Reflector();

/**
 * A route the service serves beside the actions that users' apps call (the transaction reports
 * of src/outcomes): the origin check and the rate limits apply to it as to an action. `path` names
 * its rate-limit bucket (an action's is its path); `rateLimit` overrides the limits like a
 * declaration's.
 */
export interface GuardedRouteSpec {
  path: string;
  rateLimit?: ActionRateLimit;
}

/** Marks a handler (or a controller) as guarded like an action; see GuardedRouteSpec. */
export function GuardedRoute(spec: GuardedRouteSpec): ClassDecorator & MethodDecorator {
  return SetMetadata(GUARDED_ROUTE_KEY, spec);
}

/** What the origin and rate-limit guards count a request as: an action call or a guarded route. */
export interface GuardedRequest {
  limits: GuardedRouteSpec;
  req: FastifyRequest;
  /** The user the user limit counts, when the request names one. */
  user(): string | undefined;
}

/** The request's guarded form; undefined for a route that is neither an action nor guarded. */
export function guardedRequest(context: ExecutionContext): GuardedRequest | undefined {
  const call = ActionCall.of(context);
  if (call) {
    return { limits: call.declaration, req: call.req, user: () => call.userForLimits() };
  }
  const spec = reflector.getAllAndOverride<GuardedRouteSpec | undefined>(GUARDED_ROUTE_KEY, [
    context.getHandler(),
    context.getClass(),
  ]);
  if (!spec) return undefined;
  return { limits: spec, req: requestOf(context), user: () => undefined };
}
