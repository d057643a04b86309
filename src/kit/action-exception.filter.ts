import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Inject,
  Logger,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ActionException } from '../contract/action.exception';
import { ActionRegistry } from './action.registry';
import type { DynamicActionDataResponse, TransactionErrorBody } from '../contract/action.types';
import { isClientAbort, mapError, type MappedError } from '../contract/error-mapping';
import { LogLimiter } from '../telemetry/logging/log-limiter';
import { logStack, logText } from '../telemetry/logging/log-text';
import { jsonSafe } from '../contract/json-safe';
import { noteErrorCode } from '../telemetry/request-scope';
import { responseMetadata } from './response-metadata';
import { loggableTarget } from './sensitive-params';

/**
 * Renders every error of the service, inside an action or not, in the shape of the action's mode:
 * the data envelope, or `{error, code, message?, data?, details?}` for transaction actions.
 */
@Catch()
export class ActionExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ActionError');
  private readonly logs = new LogLimiter(this.logger);

  constructor(
    private readonly registry: ActionRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  catch(thrown: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const mapped = mapError(thrown);
    const development = this.config.nodeEnv === 'development';
    this.report(thrown, mapped, req);
    // For the request's access line and span.
    noteErrorCode(req, mapped.code);
    // An unexpected failure shows its own text in development; an action's refusal keeps its words.
    const unexpected = !(thrown instanceof ActionException);
    if (development && unexpected && mapped.details !== undefined) mapped.error = mapped.details;
    const declaration = this.registry.find(req.routeOptions?.url);
    const body =
      declaration && declaration.responseType !== 'data'
        ? transactionBody(mapped, development, thrown)
        : dataBody(mapped, req, reply);
    void reply.status(mapped.status).send(body);
  }

  /**
   * What the operators read: a client gone mid-request is a debug line; a refusal the code chose
   * (an HttpException, such as readiness's 503) is one line without a stack, a debug line when it
   * is the user's (a transaction that would revert); anything else is an error with its stack. Repeats of one failure are written once a minute, and the request's
   * URL and the failure's text, which may quote user input, are escaped and shortened.
   */
  private report(thrown: unknown, mapped: MappedError, req: FastifyRequest): void {
    const declaration = this.registry.find(req.routeOptions?.url);
    const where = `${req.method} ${logText(loggableTarget(req.url, declaration))}`;
    if (isClientAbort(thrown, req.raw)) {
      this.logs.debug('client-abort', `${where}: the client closed the connection mid-request`);
      return;
    }
    if (mapped.details === undefined) return;
    const details = logText(mapped.details);
    const key = `${mapped.status} ${details}`;
    const line = `${where} failed: ${details}`;
    if (!(thrown instanceof HttpException)) this.logs.error(key, line, logStack(thrown));
    else if (mapped.status < 500) this.logs.debug(key, line);
    else if (mapped.status === 503) this.logs.warn(key, line);
    else this.logs.error(key, line);
  }
}

function dataBody(
  mapped: MappedError,
  req: FastifyRequest,
  reply: FastifyReply,
): DynamicActionDataResponse {
  return {
    success: false,
    error: mapped.error,
    message: mapped.message,
    statusCode: mapped.status,
    ...(mapped.data !== undefined && { data: jsonSafe(mapped.data) }),
    metadata: responseMetadata(req, reply),
  };
}

/**
 * `{error, code, details?}`, plus the `message` and `data` an action gave its ActionException: a
 * user-readable text and context (the offending parameters) are the action's to show, whatever
 * its mode.
 */
function transactionBody(
  mapped: MappedError,
  development: boolean,
  thrown: unknown,
): TransactionErrorBody {
  const given = thrown instanceof ActionException ? thrown.details : {};
  return {
    error: mapped.error,
    code: mapped.code,
    ...(given.message !== undefined &&
      given.message !== mapped.error && { message: given.message }),
    ...(given.data !== undefined && { data: jsonSafe(given.data) }),
    ...(development && mapped.details !== undefined && { details: mapped.details }),
  };
}
