import {
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Req,
  UseInterceptors,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ActionException } from '../contract/action.exception';
import type { ActionResult } from '../contract/action.types';
import { GuardedRoute } from '../kit/guarded-route';
import { DataRouteInterceptor } from '../kit/data-route.interceptor';
import { isIntentId, isTransactionHash } from './intent-id';
import { IntentReports } from './intent-reports';
import { IntentsService } from './intents.service';
import type { IntentStatus, TransactionIntent } from './outcome.types';

export const TRANSACTIONS_PATH = '/api/transactions';

/** What both routes answer of an intent (never its user, call data or request id). */
export interface IntentView {
  intent: string;
  action: string;
  chainId: number;
  status: TransactionIntent['status'];
  hash?: string;
  blockNumber?: string;
  updatedAt: number;
}

/** What each status says to a person reading the envelope's `message`. */
export const STATUS_SENTENCES: Record<IntentStatus, string> = {
  answered: 'The transaction has not been seen on the chain yet',
  submitted: 'The transaction is on the chain, waiting for its confirmations',
  confirmed: 'The transaction is confirmed',
  reverted: 'The transaction was mined and reverted',
  replaced: 'Another transaction of the wallet took its place',
  expired: 'The transaction was not seen on the chain in time',
  unchecked:
    'The transaction was not seen in time, but blocks of its chain went unread meanwhile: check the chain before acting on it',
};

/**
 * The wallet's hash reported for an intent (a hint: the chain follower settles intents without
 * one), and the intent read back. Origin checks and rate
 * limits apply as to the actions (GuardedRoute); errors are the data-mode envelope the kit's
 * filter renders for any route that is no transaction action.
 */
@Controller(TRANSACTIONS_PATH)
@UseInterceptors(DataRouteInterceptor)
export class TransactionsController {
  constructor(
    private readonly intents: IntentsService,
    private readonly reports: IntentReports,
  ) {}

  @Post(':intent')
  @HttpCode(HttpStatus.OK)
  @GuardedRoute({ path: `${TRANSACTIONS_PATH}:report` })
  async report(@Param('intent') id: string, @Req() req: FastifyRequest): Promise<ActionResult> {
    checkId(id);
    const hash = hashOf(req);
    const { intent, known } = await this.reports.report(id, hash);
    const message = known
      ? STATUS_SENTENCES[intent.status]
      : `The chain does not know this transaction yet. ${STATUS_SENTENCES[intent.status]}`;
    return { data: view(intent), message };
  }

  @Get(':intent')
  @GuardedRoute({ path: `${TRANSACTIONS_PATH}:read` })
  async read(@Param('intent') id: string): Promise<ActionResult> {
    checkId(id);
    const intent = await this.intents.read(id);
    return { data: view(intent), message: STATUS_SENTENCES[intent.status] };
  }
}

function checkId(id: string): void {
  if (!isIntentId(id)) {
    throw new ActionException(HttpStatus.BAD_REQUEST, 'Malformed transaction intent id', {
      message: 'This is not a transaction intent id (X-Action-Intent of a transaction answer)',
      data: { code: 'INVALID_INTENT' },
      code: 'INVALID_INTENT',
    });
  }
}

/** `{"hash": "0x…"}`, else the `hash` query parameter. */
function hashOf(req: FastifyRequest): `0x${string}` {
  const body = req.body as { hash?: unknown } | undefined | null;
  const query = req.query as { hash?: unknown } | undefined;
  const hash =
    typeof body === 'object' && body !== null && 'hash' in body ? body.hash : query?.hash;
  if (!isTransactionHash(hash)) {
    throw new ActionException(HttpStatus.BAD_REQUEST, 'Malformed transaction hash', {
      message: 'Send the transaction hash as {"hash": "0x…"} (32 bytes in hex)',
      data: { code: 'INVALID_HASH' },
      code: 'INVALID_HASH',
    });
  }
  return hash;
}

/** An intent as the read route and a verified user's listing show it: nothing of its bounds or origin. */
export function view(intent: TransactionIntent): IntentView {
  return {
    intent: intent.id,
    action: intent.action,
    chainId: intent.chainId,
    status: intent.status,
    ...(intent.hash !== undefined && { hash: intent.hash }),
    ...(intent.blockNumber !== undefined && { blockNumber: intent.blockNumber }),
    updatedAt: intent.updatedAt,
  };
}
