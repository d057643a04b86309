import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  Logger,
} from '@nestjs/common';
import type { ActionError } from '@solana/actions-spec';
import type { FastifyReply } from 'fastify';
import { mapError } from '../contract/error-mapping';
import { logText } from '../telemetry/logging/log-text';
import { errorOf } from './blink-answers';
import { type Dispatched, passHeaders } from './blink-dispatch';

/**
 * The action's refusal, passed on as the spec's error: its status and words, and the headers a
 * client acts on (Retry-After, the rate-limit state).
 */
export class BlinkRefusal extends HttpException {
  constructor(
    readonly answer: ActionError,
    status: number,
    readonly headers: Dispatched['headers'] = {},
  ) {
    super(answer.message, status);
  }
}

/** A refusal the service's own route answered (BlinkDispatch), passed on as the blink's. */
export function refusalOf(dispatched: Dispatched): BlinkRefusal {
  const { status, body } = errorOf(dispatched);
  return new BlinkRefusal(body as ActionError, status, dispatched.headers);
}

/**
 * Every error of a blink route in the spec's shape, `{message}`, with its 4xx or 5xx: a blink
 * client shows the message to the user, so it is the action's words, never a stack, a URL or a
 * node's raw answer (mapError keeps an unexpected failure's text for the log).
 */
@Catch()
export class BlinkErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Blinks');

  catch(thrown: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (thrown instanceof BlinkRefusal) {
      passHeaders(reply, thrown.headers);
      void reply.status(thrown.getStatus()).send(thrown.answer);
      return;
    }
    const mapped = mapError(thrown);
    if (mapped.status >= 500) this.logger.error(logText(mapped.details ?? mapped.error));
    const body: ActionError = { message: mapped.message };
    void reply.status(mapped.status).send(body);
  }
}
