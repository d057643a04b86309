import type { FastifyReply } from 'fastify';
import type { ExecutionResponse } from '../contract/action.types';
import type { ActionCall } from './action-call';

/**
 * Told of every transaction answer before it is sent, by the envelope interceptor that shapes
 * it: the layer above that wants to know (src/outcomes records each as an intent) binds its class
 * to this token from a global module. One interceptor serves both, not one each: every global
 * interceptor costs each request of every action a turn through Nest's RxJS chain.
 */
export abstract class TransactionAnswerListener {
  /** May set headers on `reply`; must not throw (the answer is sent whatever it does). */
  abstract answered(
    call: ActionCall,
    answer: ExecutionResponse,
    reply: FastifyReply,
  ): Promise<void>;
}
