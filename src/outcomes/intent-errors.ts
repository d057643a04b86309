import { HttpStatus } from '@nestjs/common';
import { ActionException } from '../contract/action.exception';
import {
  type IntentStatus,
  SETTLED_STATUSES,
  type SettledStatus,
  type TransactionIntent,
} from './outcome.types';

export const isSettled = (status: IntentStatus): status is SettledStatus =>
  (SETTLED_STATUSES as readonly string[]).includes(status);

/** Another hash for an intent that has settled: a 409. */
export function refuseSettled(intent: TransactionIntent): void {
  if (!isSettled(intent.status)) return;
  throw new ActionException(
    HttpStatus.CONFLICT,
    'The intent has settled with another transaction',
    {
      message: `This transaction intent is already ${intent.status} with another hash`,
      data: { code: 'INTENT_SETTLED' },
      code: 'INTENT_SETTLED',
    },
  );
}

const refusal = (
  status: HttpStatus,
  error: string,
  message: string,
  code: string,
): ActionException => new ActionException(status, error, { message, data: { code }, code });

/** A hash whose transaction does not carry this intent's call as its user ran it: a 422. */
export const mismatch = (): ActionException =>
  refusal(
    HttpStatus.UNPROCESSABLE_ENTITY,
    'The transaction is not the answered one',
    "This hash names a transaction that does not carry this answer's call (its tag), sent or run by its user: the intent stays open",
    'HASH_MISMATCH',
  );

/** The answered call, but sent before the answer was given: a 422. */
export const early = (): ActionException =>
  refusal(
    HttpStatus.UNPROCESSABLE_ENTITY,
    'The transaction predates the answer',
    'This transaction was sent before the action answered (an older nonce or block): it pays for an earlier answer, and the intent stays open',
    'HASH_BEFORE_ANSWER',
  );

/** A transaction that already settles another intent: a 409. */
export const hashUsed = (): ActionException =>
  refusal(
    HttpStatus.CONFLICT,
    'The transaction belongs to another intent',
    'This transaction already settles another transaction intent: one payment settles one intent',
    'HASH_USED',
  );
