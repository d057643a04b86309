import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { getAddress, type Hex } from 'viem';
import type { ExecutionResponse } from '../contract/action.types';
import { parseSerialized, tagsIn, type UnsignedTransaction } from '../evm';
import type { ActionCall } from '../kit/action-call';
import { TransactionAnswerListener } from '../kit/transaction-answer.listener';
import { limitLog } from '../telemetry/logging/log-limiter';
import { logText } from '../telemetry/logging/log-text';
import { noteIntent, scopeOf } from '../telemetry/request-scope';
import { OutcomeMetrics } from './outcome-metrics';
import { newIntentId } from './intent-id';
import { IntentsService } from './intents.service';
import type { TransactionIntent } from './outcome.types';

/** The header naming a transaction answer's intent: report its hash, or read its outcome, with it. */
export const INTENT_HEADER = 'X-Action-Intent';

/** The most JSON an intent keeps of its answer's fields: every intent lives in the store a day. */
export const MAX_FIELDS_BYTES = 2048;

/**
 * Records every transaction answer as an intent (src/outcomes), names it in the `X-Action-Intent`
 * header and the access line, and leaves the body as the contract has it. The kit's envelope
 * interceptor calls it for transaction-mode answers only (the declaration decides, never the
 * path). An answer without a user has no sender to watch for and records nothing. A store that
 * fails, or is out (the Redis breaker answers at once), or holds INTENT_MAX_OPEN open intents
 * already, costs the intent, never the answer: counted and logged.
 */
@Injectable()
export class IntentRecorder extends TransactionAnswerListener {
  private readonly logger = new Logger('Intents');

  constructor(
    private readonly intents: IntentsService,
    private readonly metrics: OutcomeMetrics,
  ) {
    super();
  }

  async answered(call: ActionCall, answer: ExecutionResponse, reply: FastifyReply): Promise<void> {
    const intent = intentOf(call, answer);
    if (!intent) return;
    const fields = this.fieldsOf(call, answer);
    if (fields) intent.fields = fields;
    try {
      if (!(await this.intents.record(intent))) {
        this.metrics.unrecorded('full');
        limitLog(this.logger).warn(
          'full',
          `A transaction answer of ${call.declaration.path} was not recorded: INTENT_MAX_OPEN intents are open`,
        );
        return;
      }
      void reply.header(INTENT_HEADER, intent.id);
      noteIntent(call.req, intent.id);
    } catch (error) {
      this.metrics.unrecorded('store');
      limitLog(this.logger).warn(
        'record',
        `A transaction answer of ${call.declaration.path} was not recorded: ${logText(String(error))}`,
      );
    }
  }

  /**
   * The answer's `params.args` its action's webhook names, for that webhook's deliveries; none
   * past MAX_FIELDS_BYTES (the action's bug: logged, the answer and its intent unharmed).
   */
  private fieldsOf(
    call: ActionCall,
    answer: ExecutionResponse,
  ): Record<string, unknown> | undefined {
    const names = call.declaration.webhook?.fields;
    if (!names?.length) return undefined;
    const args = (answer.params as { args?: Record<string, unknown> } | undefined)?.args ?? {};
    const fields = Object.fromEntries(
      names.filter((name) => Object.hasOwn(args, name)).map((name) => [name, args[name]]),
    );
    const bytes = Buffer.byteLength(JSON.stringify(fields));
    if (bytes <= MAX_FIELDS_BYTES) return fields;
    limitLog(this.logger).warn(
      `fields ${call.declaration.path}`,
      `The webhook fields of ${call.declaration.path} are ${bytes} bytes of JSON, over ${MAX_FIELDS_BYTES}: left out of its intent`,
    );
    return undefined;
  }
}

/** The intent of an answer: its chain, the claimed user, and what the wallet will send. */
function intentOf(call: ActionCall, answer: ExecutionResponse): TransactionIntent | undefined {
  const user = call.context.userAddress;
  const tx = readTransaction(answer.serializedTransaction);
  if (!user || !tx?.to) return undefined;
  const now = Date.now();
  // The signer's pending nonce its simulation (or TX_FILL=estimate) read; not the parsed one,
  // which viem reads as 0 when the answer leaves the nonce to the wallet.
  const scope = scopeOf(call.req.raw);
  const read = scope?.signerNonce;
  const mine =
    read && read.chainId === answer.chainId && read.address.toLowerCase() === user.toLowerCase();
  const data = (tx.data ?? '0x').toLowerCase() as Hex;
  // The id the builder tagged the calldata with (src/evm's answer-tag.ts), when it did.
  const id = scope?.answerTag ?? newIntentId();
  return {
    id,
    action: call.declaration.path,
    chainId: answer.chainId,
    user: getAddress(user),
    userLevel: call.verified ? 'siwe' : 'claimed',
    origin: call.verified ? 'siwe' : clientOrigin(call.req.ip),
    to: getAddress(tx.to),
    data,
    ...(tagsIn(data).includes(id) && { tagged: true }),
    value: (tx.value ?? 0n).toString(),
    ...(mine && { nonce: read.nonce }),
    ...(mine && read.block !== undefined && { answeredBlock: read.block.toString() }),
    status: 'answered',
    createdAt: now,
    updatedAt: now,
    requestId: String(call.req.id),
  };
}

/**
 * A claiming client, as the bounds on open intents count it: 16 characters of a hash of its IP
 * (never the address itself in Redis).
 */
const clientOrigin = (ip: string): string =>
  `ip:${createHash('sha256').update(ip).digest('base64url').slice(0, 16)}`;

/** RLP (`0x02…`) or wagmi's JSON, as a wallet reads it; undefined when neither parses. */
function readTransaction(serialized: string): Partial<UnsignedTransaction> | undefined {
  try {
    return parseSerialized(serialized);
  } catch {
    return undefined;
  }
}
