import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';
import type { ActionResult } from '../contract/action.types';
import { dataEnvelope } from './response-metadata';

/**
 * Wraps a service route's results (the transaction reports, sign-in) in the data-mode envelope,
 * the same one data actions answer; their errors are the envelope the kit's filter renders for
 * any route that is no transaction action.
 */
@Injectable()
export class DataRouteInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    return next
      .handle()
      .pipe(map(({ data, message }: ActionResult) => dataEnvelope(req, reply, data, message)));
  }
}
