import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResponseMetadata } from '../contract/action.types';

/** Timing and tracing facts every envelope carries, success or error. */
export function responseMetadata(req: FastifyRequest, reply: FastifyReply): ResponseMetadata {
  return {
    timestamp: Date.now(),
    requestId: req.id,
    executionTime: Math.round(reply.elapsedTime * 100) / 100,
  };
}
