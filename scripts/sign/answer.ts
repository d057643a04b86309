import type { ExecutionResponse } from '../../src/contract/action.types';

export interface SignInput {
  answer: ExecutionResponse;
  /** The answer's intent: its `X-Action-Intent` header, or an `intent` key beside the answer. */
  intent?: string;
}

/** A refused input or command line: exit 2, the message and the usage. */
export class UsageError extends Error {}

/**
 * The answer in what `npm run sign` reads: the ExecutionResponse JSON alone, or the whole HTTP
 * answer as `curl -i` prints it (status line, headers, blank line, body), whose
 * `X-Action-Intent` header names the intent.
 */
export function readAnswer(text: string): SignInput {
  let body = text.trim();
  let intent: string | undefined;
  // Every header block (`HTTP/1.1 100 Continue` may come first); the last one is the answer's.
  while (/^HTTP\/\d/.test(body)) {
    const end = /\r?\n\r?\n/.exec(body);
    if (!end) throw new UsageError('an HTTP answer without a body');
    const headers = body.slice(0, end.index);
    body = body.slice(end.index + end[0].length).trim();
    intent = /^x-action-intent:\s*(\S+)\s*$/im.exec(headers)?.[1];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new UsageError('the answer is not JSON (an ExecutionResponse, or curl -i output)');
  }
  const answer = parsed as Partial<ExecutionResponse> & { intent?: unknown; error?: unknown };
  if (
    typeof answer !== 'object' ||
    answer === null ||
    typeof answer.serializedTransaction !== 'string'
  )
    throw new UsageError(
      typeof answer?.error === 'string'
        ? `the answer is an error, not a transaction: ${answer.error}`
        : 'the answer has no serializedTransaction (a transaction-mode answer is needed)',
    );
  if (typeof answer.chainId !== 'number') throw new UsageError('the answer has no numeric chainId');
  if (intent === undefined && typeof answer.intent === 'string') intent = answer.intent;
  return { answer: answer as ExecutionResponse, intent };
}
