import { type CallHandler, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { catchError, from, mergeMap, type Observable, of, throwError } from 'rxjs';
import type { ActionCall } from '../kit/action-call';
import { PaidCallStep } from '../kit/paid-call.step';
import { PaymentGate } from './payment-gate';

/**
 * The payment step of every paid action, whichever surface sent the call (the route, a tool
 * call dispatched into it): after the guards (origin, rate limits, context, chains, session),
 * inside the kit's envelope, which runs it for a declaration with a price only. Before the
 * handler the params are validated and the payment verified and claimed (PaymentGate.admit);
 * after a success it is settled; after a refusal it is released, and nothing is charged.
 */
@Injectable()
export class PaymentStep extends PaidCallStep {
  constructor(private readonly gate: PaymentGate) {
    super();
  }

  around(call: ActionCall, reply: FastifyReply, next: CallHandler): Observable<unknown> {
    return from(this.gate.admit(call, reply)).pipe(
      mergeMap((admission) => {
        if ('replay' in admission) return of(admission.replay);
        const { ticket } = admission;
        return next.handle().pipe(
          // The handler's refusal only: a failed settlement has released its claim itself.
          catchError((error: unknown) =>
            from(this.gate.refused(call, ticket)).pipe(mergeMap(() => throwError(() => error))),
          ),
          mergeMap((result: unknown) =>
            from(this.gate.settle(call, reply, ticket, result).then(() => result)),
          ),
        );
      }),
    );
  }
}
