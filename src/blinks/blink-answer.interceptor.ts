import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { map, type Observable } from 'rxjs';
import { type Dispatched, passHeaders } from './blink-dispatch';

/** A blink's answer with the headers of the action's own answer it passes on (PASSED_HEADERS). */
export class WithHeaders<T> {
  constructor(
    readonly body: T,
    readonly headers: Dispatched['headers'],
  ) {}
}

/**
 * Writes a WithHeaders answer's headers on the blink's reply and sends its body: a transaction
 * answer's `X-Action-Intent` (as the platform route names it) and the rate-limit state, on
 * success as on refusal (BlinkErrorFilter).
 */
@Injectable()
export class BlinkAnswerInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((answer: unknown) => {
        if (!(answer instanceof WithHeaders)) return answer;
        passHeaders(context.switchToHttp().getResponse<FastifyReply>(), answer.headers);
        return answer.body as unknown;
      }),
    );
  }
}
