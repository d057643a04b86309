import type {
  ActionError,
  NextActionLink,
  PostResponse,
  TransactionResponse,
} from '@solana/actions-spec';
import type { Blink } from './blink-catalogue';
import { blinkPath } from './blink-catalogue';
import type { Dispatched } from './blink-dispatch';
import { inputsQuery } from './blink-request';
import { walletTransaction } from './blink-transaction';

/** What a blink POST answers: the spec's response, or its error, with the status to send. */
export interface BlinkAnswer {
  status: number;
  body: TransactionResponse | PostResponse | ActionError;
}

/** How much of a data action's result a `post` answer's message quotes, when it has no message. */
const MAX_MESSAGE = 1000;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** The answer's words in an error: the action's message, its error, else the status alone. */
export function errorOf({ status, body }: Dispatched): BlinkAnswer {
  const message = text(body.message) ?? text(body.error) ?? `The action failed (${status})`;
  return { status, body: { message } };
}

/** The intent the outcomes module recorded for a transaction answer (X-Action-Intent). */
const intentOf = ({ headers }: Dispatched): string | undefined => {
  const intent = headers['x-action-intent'];
  return typeof intent === 'string' ? intent : undefined;
};

/** An approval the kit answered in place of the action: step 1 (or 2) of `steps`. */
function isApproval(params: unknown): params is { args: { step: number; steps: number } } {
  const { functionName, args } = (params ?? {}) as { functionName?: unknown; args?: unknown };
  const { step, steps } = (args ?? {}) as { step?: unknown; steps?: unknown };
  return (
    functionName === 'approve' &&
    typeof step === 'number' &&
    typeof steps === 'number' &&
    step < steps
  );
}

/**
 * The action's own answer as the spec's: a transaction (the one the Sherry route answers, in the
 * EVM wallet adapter's format: blink-transaction.ts) or, for a data action, a `post` whose
 * message is the result. A transaction chains on (links.next, `post`): an approval to the next
 * step, anything else to a `completed` action that reports the outcome. The intent rides in the
 * href so the wallet's hash can be reported against it.
 */
export function postAnswer(
  blink: Blink,
  dispatched: Dispatched,
  inputs: Record<string, string | boolean>,
): BlinkAnswer {
  if (dispatched.status >= 300) return errorOf(dispatched);
  const { body } = dispatched;
  if (blink.action.responseType === 'data') {
    const message = text(body.message) ?? JSON.stringify(body.data ?? null).slice(0, MAX_MESSAGE);
    return { status: 200, body: { type: 'post', message } };
  }
  const params = body.params as { args?: { summary?: unknown } } | undefined;
  const message = text(params?.args?.summary) ?? blink.action.label;
  const intent = intentOf(dispatched);
  const next = chained(blink, intent, isApproval(body.params), inputs);
  return {
    status: 200,
    body: {
      type: 'transaction',
      transaction: walletTransaction(String(body.serializedTransaction)),
      message,
      ...(next && { links: { next } }),
    },
  };
}

function chained(
  blink: Blink,
  intent: string | undefined,
  approval: boolean,
  inputs: Record<string, string | boolean>,
): NextActionLink | undefined {
  if (intent === undefined) return undefined;
  const at = `${blinkPath(blink.name)}/${approval ? 'next' : 'completed'}/${intent}`;
  const query = approval ? inputsQuery(inputs) : '';
  return { type: 'post', href: query === '' ? at : `${at}?${query}` };
}
