import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';
import { ACTION_KEY } from './action.decorator';
import type {
  ActionDeclaration,
  ActionResult,
  DynamicActionDataResponse,
  ExecutionResponse,
} from '../contract/action.types';
import { readActionRequest } from './action-request';
import { jsonSafe } from '../contract/json-safe';
import { hasTransactionShape, isExecutionResponse } from '../contract/response-guards';
import { responseMetadata } from './response-metadata';

/**
 * Shapes what action handlers return: data-mode results get the contract's envelope with timing
 * metadata; transaction-mode results must be an ExecutionResponse. Mixing the two is a bug.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const declaration = this.reflector.get<ActionDeclaration | undefined>(
      ACTION_KEY,
      context.getClass(),
    );
    if (!declaration) return next.handle();
    const http = context.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (declaration.responseType === 'data') {
      return next
        .handle()
        .pipe(map((result: unknown) => this.envelope(declaration, req, reply, result)));
    }
    return next.handle().pipe(map((result: unknown) => this.transaction(declaration, req, result)));
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
    // bigint and Date become text here, by the kit's one rule (json-safe.ts), never a 500.
    return {
      success: true,
      data: jsonSafe(data),
      message,
      statusCode: reply.statusCode,
      metadata: { ...(jsonSafe(metadata) as object), ...responseMetadata(req, reply) },
    };
  }

  private transaction(
    declaration: ActionDeclaration,
    req: FastifyRequest,
    result: unknown,
  ): ExecutionResponse {
    const answer = this.withDestination(declaration, req, result);
    if (!isExecutionResponse(answer)) {
      throw this.modeError(
        declaration,
        'a transaction-mode handler returned something other than a transaction',
      );
    }
    return answer;
  }

  /** A cross-chain action's answer names its destination chain, as the platform reads it. */
  private withDestination(
    declaration: ActionDeclaration,
    req: FastifyRequest,
    result: unknown,
  ): unknown {
    const destination = declaration.chains.destination;
    if (destination === undefined || !hasTransactionShape(result)) return result;
    const { crossChain } = result as { crossChain?: unknown };
    if (crossChain !== undefined && (typeof crossChain !== 'object' || crossChain === null)) {
      return result;
    }
    const requested = readActionRequest(req).context.destinationChain;
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
