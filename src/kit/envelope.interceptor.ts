import {
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  Optional,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, map, mergeMap, type Observable } from 'rxjs';
import { ActionCall } from './action-call';
import type {
  ActionDeclaration,
  ActionResult,
  DynamicActionDataResponse,
  ExecutionResponse,
} from '../contract/action.types';
import { hasTransactionShape, isExecutionResponse } from '../contract/response-guards';
import { dataEnvelope } from './response-metadata';
import { TransactionAnswerListener } from './transaction-answer.listener';
import { PaidCallStep } from './paid-call.step';
import { replyOf } from './http-args';

/**
 * Shapes what action handlers return: data-mode results get the contract's envelope with timing
 * metadata; transaction-mode results must be an ExecutionResponse. Mixing the two is a bug. A
 * declaration with a price has its handler run inside the payment step (PaidCallStep).
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(
    @Optional() private readonly listener?: TransactionAnswerListener,
    @Optional() private readonly payments?: PaidCallStep,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const call = ActionCall.of(context);
    if (!call) return next.handle();
    const { declaration, req } = call;
    const reply = replyOf(context);
    const handled = declaration.price ? this.paid(call, reply, next) : next.handle();
    if (declaration.responseType === 'data') {
      return handled.pipe(map((result: unknown) => this.envelope(declaration, req, reply, result)));
    }
    const answers = handled.pipe(map((result: unknown) => this.transaction(call, result)));
    const listener = this.listener;
    if (!listener) return answers;
    return answers.pipe(
      mergeMap((answer) => from(listener.answered(call, answer, reply).then(() => answer))),
    );
  }

  /** A priced action never runs unpaid: without a payment step bound, the call fails (500). */
  private paid(call: ActionCall, reply: FastifyReply, next: CallHandler): Observable<unknown> {
    if (!this.payments)
      throw this.modeError(call.declaration, 'it has a price and no payment step');
    return this.payments.around(call, reply, next);
  }

  private envelope(
    declaration: ActionDeclaration,
    req: FastifyRequest,
    reply: FastifyReply,
    result: unknown,
  ): DynamicActionDataResponse {
    const { data, message, metadata } = (result ?? {}) as ActionResult;
    if (hasTransactionShape(data) || hasTransactionShape(result)) {
      throw this.modeError(declaration, 'a data-mode handler returned a transaction');
    }
    return dataEnvelope(req, reply, data, message, metadata);
  }

  private transaction(call: ActionCall, result: unknown): ExecutionResponse {
    const answer = this.withDestination(call, result);
    if (!isExecutionResponse(answer)) {
      throw this.modeError(
        call.declaration,
        'a transaction-mode handler returned something other than a transaction',
      );
    }
    return answer;
  }

  /** A cross-chain action's answer names its destination chain, as the platform reads it. */
  private withDestination(call: ActionCall, result: unknown): unknown {
    const destination = call.declaration.chains.destination;
    if (destination === undefined || !hasTransactionShape(result)) return result;
    const { crossChain } = result as { crossChain?: unknown };
    if (crossChain !== undefined && (typeof crossChain !== 'object' || crossChain === null)) {
      return result;
    }
    const requested = call.context.destinationChain;
    return {
      ...(result as ExecutionResponse),
      crossChain: { destinationChainId: requested ?? destination, ...crossChain },
    };
  }

  /** A programming error: the exception filter answers 500 and logs it with the path. */
  private modeError(declaration: ActionDeclaration, problem: string): Error {
    return new Error(`Action ${declaration.path}: ${problem}`);
  }
}
