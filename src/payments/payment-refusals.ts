import { HttpStatus } from '@nestjs/common';
import { ActionException } from '../contract/action.exception';

/** A payment identifier's record: claimed while its call runs, then what it bought. */
export interface IdRecord {
  state: 'pending' | 'done';
  /** SHA-256 of the PAYMENT-SIGNATURE header: the same payment, byte for byte. */
  hash: string;
  path: string;
  result?: unknown;
  paymentResponse?: string;
}

/** A PAYMENT-SIGNATURE header that is no x402 payload: a 400. */
export function notAPayment(): ActionException {
  return new ActionException(HttpStatus.BAD_REQUEST, 'PAYMENT-SIGNATURE is not an x402 payment', {
    message: 'The PAYMENT-SIGNATURE header is not a base64 x402 payment payload',
    code: 'PAYMENT_INVALID',
    data: { code: 'PAYMENT_INVALID' },
  });
}

/** A facilitator that failed or did not answer: a 502, nothing charged, no detail shown. */
export function facilitatorFailure(): ActionException {
  return new ActionException(HttpStatus.BAD_GATEWAY, 'The payment facilitator did not answer', {
    message: 'Payments are unavailable right now, please try again shortly; nothing was charged',
    code: 'FACILITATOR_ERROR',
    data: { code: 'FACILITATOR_ERROR' },
  });
}

/** A refusal of the payment, in the action's envelope: `data.code` and x402's reason. */
export function paymentException(
  status: number,
  code: string,
  reason?: string,
  message?: string,
): ActionException {
  const text =
    reason && reason !== 'Payment required' ? `Payment refused: ${reason}` : 'Payment required';
  return new ActionException(status, text, {
    message:
      message ??
      (code === 'PAYMENT_REQUIRED'
        ? 'This action is paid: pay with x402 (the PAYMENT-REQUIRED header holds the terms)'
        : `The payment was refused (${reason ?? 'invalid'}): sign a new one`),
    code,
    data: { code, ...(reason && { reason }) },
  });
}

/** A payment identifier already used (by another payment, or by a call still running): a 409. */
export function conflict(record: IdRecord, hash: string, path: string): ActionException {
  const running = record.state === 'pending';
  const message = running
    ? 'A call with this payment identifier is being answered: retry it once it is done'
    : record.hash === hash && record.path === path
      ? 'This payment was settled but its answer is not kept: it cannot be answered again'
      : 'This payment identifier was used with another payment: use a new identifier';
  return new ActionException(HttpStatus.CONFLICT, 'Payment identifier already used', {
    message,
    code: 'PAYMENT_ID_CONFLICT',
    data: { code: 'PAYMENT_ID_CONFLICT' },
  });
}
