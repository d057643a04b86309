import { ArgumentsHost, Catch, ExceptionFilter, Inject, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ActionRegistry } from './action.registry';
import type { DynamicActionDataResponse, TransactionErrorBody } from './action.types';
import { mapError, type MappedError } from './error-mapping';
import { responseMetadata } from './response-metadata';

/**
 * Renders every error of the service, inside an action or not, in the shape of the action's mode:
 * the data envelope, or `{error, code, details?}` for transaction actions.
 */
@Catch()
export class ActionExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ActionError');

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
    if (mapped.details !== undefined) {
      this.logger.error(
        `${req.method} ${req.url} failed: ${mapped.details}`,
        (thrown as Error)?.stack,
      );
      if (development) mapped.error = mapped.details;
    }
    const declaration = this.registry.find(req.routeOptions?.url);
    const body =
      declaration && declaration.responseType !== 'data'
        ? transactionBody(mapped, development)
        : dataBody(mapped, req, reply);
    void reply.status(mapped.status).send(body);
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
    ...(mapped.data !== undefined && { data: mapped.data }),
    metadata: responseMetadata(req, reply),
  };
}

function transactionBody(mapped: MappedError, development: boolean): TransactionErrorBody {
  return {
    error: mapped.error,
    code: mapped.code,
    ...(development && mapped.details !== undefined && { details: mapped.details }),
  };
}
