import type { CallHandler } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Observable } from 'rxjs';
import type { ActionCall } from './action-call';

/**
 * The payment step of an action that declares a price, run by the envelope interceptor around
 * the handler: the layer that takes payments (src/payments) binds its class to this token from a
 * global module. Not an interceptor of its own: every global interceptor costs each request of
 * every action, free ones included, a turn through Nest's RxJS chain (docs/performance.md).
 */
export abstract class PaidCallStep {
  /**
   * What the handler's result becomes once paid for: `next.handle()` after the payment is
   * verified, then settled after a success and released after a refusal, or a replayed result.
   */
  abstract around(call: ActionCall, reply: FastifyReply, next: CallHandler): Observable<unknown>;
}
