import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DynamicActionDataResponse, ResponseMetadata } from '../contract/action.types';
import { jsonSafe } from '../contract/json-safe';

/** Timing and tracing facts every envelope carries, success or error. */
export function responseMetadata(req: FastifyRequest, reply: FastifyReply): ResponseMetadata {
  return {
    timestamp: Date.now(),
    requestId: req.id,
    executionTime: Math.round(reply.elapsedTime * 100) / 100,
  };
}

/**
 * The data-mode success envelope, the one shape for data actions and the service's own data
 * routes: bigint and Date become text here, by the kit's one rule (json-safe.ts), never a 500.
 */
export function dataEnvelope(
  req: FastifyRequest,
  reply: FastifyReply,
  data: unknown,
  message?: string,
  metadata?: unknown,
): DynamicActionDataResponse {
  return {
    success: true,
    data: jsonSafe(data),
    message,
    statusCode: reply.statusCode,
    metadata:
      metadata === undefined
        ? responseMetadata(req, reply)
        : { ...(jsonSafe(metadata) as object), ...responseMetadata(req, reply) },
  };
}
