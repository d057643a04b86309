import { HttpException, HttpStatus } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import { ActionException } from './action.exception';

/** Everything the two error shapes need, whatever was thrown. */
export interface MappedError {
  status: number;
  error: string;
  message: string;
  code: string;
  data?: unknown;
  /** Internal text of an unexpected failure: shown only in development, always logged. */
  details?: string;
}

const CODES: Record<number, string> = {
  400: 'VALIDATION_ERROR',
  401: 'UNVERIFIED_USER',
  403: 'ORIGIN_NOT_ALLOWED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  502: 'UPSTREAM_ERROR',
  503: 'SERVICE_UNAVAILABLE',
  504: 'UPSTREAM_TIMEOUT',
};

/** User-readable texts where the error text is written for developers. */
const MESSAGES: Record<number, string> = {
  413: 'The request is too large',
  429: 'Too many requests, please try again later',
};

export const codeFor = (status: number): string =>
  CODES[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'REQUEST_ERROR');

function httpErrorText(exception: HttpException): string {
  const body = exception.getResponse();
  if (typeof body === 'string') return body;
  const message = (body as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join(', ');
  return typeof message === 'string' && message ? message : exception.message;
}

const ABORT_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * The 4xx Fastify put on an error of its own (FST_ERR_*) or on a request body the client cut
 * short. Only those: a library's error may carry the `statusCode` of the upstream it called.
 */
function fastifyClientStatus(thrown: unknown): number | undefined {
  if (!(thrown instanceof Error)) return undefined;
  const { statusCode, code } = thrown as Error & { statusCode?: unknown; code?: unknown };
  const fromFastify =
    typeof code === 'string' && (code.startsWith('FST_') || ABORT_CODES.has(code));
  const isStatus = typeof statusCode === 'number' && Number.isInteger(statusCode);
  return fromFastify && isStatus && statusCode >= 400 && statusCode < 500 ? statusCode : undefined;
}

/**
 * A client that went away mid-request (an abandoned upload): nothing failed on our side. The
 * request stream being cut short tells it apart from an upstream connection reset.
 */
export function isClientAbort(
  thrown: unknown,
  request?: { aborted?: boolean; complete?: boolean; destroyed?: boolean },
): boolean {
  const code = (thrown as { code?: unknown } | null)?.code;
  const cutShort = request?.aborted === true || (request?.destroyed && !request.complete);
  return typeof code === 'string' && ABORT_CODES.has(code) && cutShort === true;
}

/** Maps anything thrown to a status and texts that are safe to show outside development. */
export function mapError(thrown: unknown): MappedError {
  if (thrown instanceof ActionException) {
    const status = thrown.getStatus();
    const { message, data, code, details } = thrown.details;
    return {
      status,
      error: thrown.error,
      message: message ?? thrown.error,
      data,
      code: code ?? codeFor(status),
      ...(details !== undefined && { details }),
    };
  }
  if (thrown instanceof HttpException && thrown.getStatus() < 500) {
    const status = thrown.getStatus();
    const error = httpErrorText(thrown);
    return { status, error, message: MESSAGES[status] ?? error, code: codeFor(status) };
  }
  const clientStatus = fastifyClientStatus(thrown);
  if (clientStatus !== undefined) {
    const error = STATUS_CODES[clientStatus] ?? 'Bad request';
    return {
      status: clientStatus,
      error,
      message: MESSAGES[clientStatus] ?? error,
      code: codeFor(clientStatus),
    };
  }
  const status =
    thrown instanceof HttpException ? thrown.getStatus() : HttpStatus.INTERNAL_SERVER_ERROR;
  return {
    status,
    error: status === 503 ? 'Service unavailable' : 'Internal server error',
    message: 'Something went wrong, please try again later',
    code: codeFor(status),
    details: thrown instanceof Error ? thrown.message : String(thrown),
  };
}
