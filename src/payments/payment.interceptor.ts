import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { catchError, from, mergeMap, type Observable, of, throwError } from 'rxjs';
import { ActionCall } from '../kit/action-call';
import { PaymentGate } from './payment-gate';

/**
 * The payment step of every paid action, whichever surface sent the call (the route, a tool
 * call dispatched into it): after the guards (origin, rate limits, context, chains, session),
 * inside the kit's envelope. Before the handler the params are validated and the payment
 * verified and claimed (PaymentGate.admit); after a success it is settled; after a refusal it is
 * released, and nothing is charged. A free action passes through untouched.
 */
@Injectable()
export class PaymentInterceptor implements NestInterceptor {
  constructor(private readonly gate: PaymentGate) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const call = ActionCall.of(context);
    if (!call?.declaration.price) return next.handle();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
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
