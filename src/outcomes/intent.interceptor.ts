import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  Logger,
  type NestInterceptor,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { from, mergeMap, type Observable } from 'rxjs';
import { getAddress, type Hex, parseTransaction } from 'viem';
import type { ExecutionResponse } from '../contract/action.types';
import { isExecutionResponse } from '../contract/response-guards';
import { fromWagmiJson, type UnsignedTransaction } from '../evm';
import { ActionCall } from '../kit/action-call';
import { limitLog } from '../telemetry/logging/log-limiter';
import { logText } from '../telemetry/logging/log-text';
import { noteIntent } from '../telemetry/request-scope';
import { newIntentId } from './intent-id';
import { IntentsService } from './intents.service';
import type { TransactionIntent } from './outcome.types';

export const INTENT_HEADER = 'X-Action-Intent';

/**
 * Records every transaction answer as an intent (src/outcomes), names it in the `X-Action-Intent`
 * header and the access line, and leaves the body as the contract has it. What the declaration
 * says decides (transaction mode), never the path. An answer without a user has no sender to
 * verify and records nothing; a store that fails costs the intent, never the answer (logged).
 */
@Injectable()
export class IntentInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Intents');

  constructor(private readonly intents: IntentsService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const call = ActionCall.of(context);
    if (!call || call.declaration.responseType === 'data') return next.handle();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next
      .handle()
      .pipe(mergeMap((result: unknown) => from(this.recorded(call, reply, result))));
  }

  private async recorded(call: ActionCall, reply: FastifyReply, result: unknown): Promise<unknown> {
    const intent = isExecutionResponse(result) ? intentOf(call, result) : undefined;
    if (!intent) return result;
    try {
      await this.intents.record(intent);
      void reply.header(INTENT_HEADER, intent.id);
      noteIntent(call.req, intent.id);
    } catch (error) {
      limitLog(this.logger).warn(
        'record',
        `A transaction answer of ${call.declaration.path} was not recorded: ${logText(String(error))}`,
      );
    }
    return result;
  }
}

/** The intent of an answer: its chain, the claimed user, and what the wallet will send. */
function intentOf(call: ActionCall, answer: ExecutionResponse): TransactionIntent | undefined {
  const user = call.context.userAddress;
  const tx = readTransaction(answer.serializedTransaction);
  if (!user || !tx?.to) return undefined;
  const now = Date.now();
  return {
    id: newIntentId(),
    action: call.declaration.path,
    chainId: answer.chainId,
    user: getAddress(user),
    to: getAddress(tx.to),
    data: (tx.data ?? '0x').toLowerCase() as Hex,
    value: (tx.value ?? 0n).toString(),
    status: 'answered',
    createdAt: now,
    updatedAt: now,
    requestId: String(call.req.id),
  };
}

/** RLP (`0x02…`) or wagmi's JSON, as a wallet reads it; undefined when neither parses. */
function readTransaction(serialized: string): Partial<UnsignedTransaction> | undefined {
  try {
    return serialized.startsWith('0x')
      ? (parseTransaction(serialized as Hex) as Partial<UnsignedTransaction>)
      : fromWagmiJson<Partial<UnsignedTransaction>>(serialized);
  } catch {
    return undefined;
  }
}
