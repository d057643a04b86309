import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorOf } from '../blinks/blink-answers';
import type { Dispatched } from '../blinks/blink-dispatch';
import type { ActionDeclaration } from '../contract/action.types';

/** What a failed call tells an agent besides the words: the route's status, code and wait. */
export interface RefusalMeta {
  status: number;
  code?: string;
  /** Seconds to wait before another call (a rate limit's Retry-After). */
  retryAfter?: number;
}

/** A refusal as MCP has it: a tool error whose text is the action's own message. */
export function toolError(text: string, meta?: RefusalMeta): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text }],
    ...(meta !== undefined && { _meta: { ...meta } }),
  };
}

/** Structured content and, as the MCP spec asks, the same JSON as text for older clients. */
function structured(content: Record<string, unknown>): CallToolResult {
  return {
    structuredContent: content,
    content: [{ type: 'text', text: JSON.stringify(content) }],
  };
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** The route's refusal: its message (as a blink shows it), its status, code and Retry-After. */
export function refusal(dispatched: Dispatched): CallToolResult {
  const { body } = dispatched;
  const code = text(body.code) ?? text((body.data as { code?: unknown } | undefined)?.code);
  const wait = Number(dispatched.headers['retry-after']);
  // The words a blink shows for the same refusal: the action's message, else its error.
  const { message } = errorOf(dispatched).body as { message: string };
  return toolError(message, {
    status: dispatched.status,
    ...(code !== undefined && { code }),
    ...(Number.isFinite(wait) && wait >= 0 && { retryAfter: wait }),
  });
}

/** A data-mode envelope (an action's, or the intent read route's) as `{data, message}`. */
export function dataResult(dispatched: Dispatched): CallToolResult {
  if (dispatched.status >= 300) return refusal(dispatched);
  const { data, message } = dispatched.body;
  return structured({ data: data ?? null, message: text(message) ?? '' });
}

/**
 * A transaction answer as the route gave it (the checked, simulated ExecutionResponse), with
 * its intent (X-Action-Intent, which the route recorded) and its words: the summary the builder
 * wrote for the wallet, else the action's label.
 */
export function transactionResult(
  declaration: ActionDeclaration,
  dispatched: Dispatched,
): CallToolResult {
  if (dispatched.status >= 300) return refusal(dispatched);
  const { body, headers } = dispatched;
  const intent = headers['x-action-intent'];
  const args = (body.params as { args?: { summary?: unknown } } | undefined)?.args;
  return structured({
    ...body,
    ...(typeof intent === 'string' && { intent }),
    message: text(args?.summary) ?? declaration.label,
  });
}
