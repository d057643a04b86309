import { HttpStatus } from '@nestjs/common';
import type { ActionPostRequest, NextActionPostRequest } from '@solana/actions-spec';
import type { Address } from 'viem';
import { ActionException } from '../contract/action.exception';
import { readAddress } from '../contract/address';
import type { ActionParameter } from '../contract/action.types';

type Bag = Record<string, unknown>;
const isBag = (value: unknown): value is Bag =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A refusal of the blink request itself, in the spec's words: `{message}` with a 400. */
export const badRequest = (message: string): ActionException =>
  new ActionException(HttpStatus.BAD_REQUEST, message, { message, code: 'VALIDATION_ERROR' });

/** `{account}`, the user's 0x address: the body must be a JSON object naming one. */
export function readAccount(body: unknown): { account: Address; body: Bag } {
  if (!isBag(body)) throw badRequest('The body must be a JSON object: {"account": "0x…"}');
  const { account } = body as Partial<ActionPostRequest>;
  const address = typeof account === 'string' ? readAddress(account) : undefined;
  if (!address) throw badRequest('account must be the user’s 0x address (40 hex digits)');
  return { account: address, body };
}

/** `{account, signature}` of a chained POST: the signature is the mined transaction's hash. */
export function readSignature(body: unknown): { account: Address; signature: `0x${string}` } {
  const { account, body: bag } = readAccount(body);
  const { signature } = bag as Partial<NextActionPostRequest>;
  if (typeof signature !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(signature)) {
    throw badRequest('signature must be the transaction’s hash (0x and 64 hex digits)');
  }
  return { account, signature: signature as `0x${string}` };
}

/** One value as the kit reads it: text, or true for a checked box (boolean parameters). */
function readValue(param: ActionParameter, value: unknown): string | boolean | undefined {
  const boolean = param.type === 'boolean' || param.type === 'bool';
  if (Array.isArray(value)) {
    // A checkbox sends the values checked: at most its one box here; anything else is refused.
    if (!boolean || value.length > 1 || value.some((v) => typeof v !== 'string')) {
      throw badRequest(`${param.name} takes one value, not a list`);
    }
    return value[0] === 'true';
  }
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw badRequest(`${param.name} must be sent as text`);
  return boolean ? value === 'true' : value;
}

/**
 * The parameters a blink POST carries, by the spec: the linked action's href query (its
 * templates filled by the client) and the body's `data`, `data` first. Only declared,
 * non-fixed names are read; an unknown name in `data` is refused, never passed on. Text is
 * passed as sent: the action's own validation judges it (a `{name}` left in a value is text).
 */
export function readInputs(
  params: readonly ActionParameter[],
  query: unknown,
  body: Bag,
): Record<string, string | boolean> {
  const data = body.data;
  if (data !== undefined && !isBag(data)) {
    throw badRequest('data must be an object of parameter values');
  }
  const open = params.filter((p) => p.fixed !== true);
  const names = new Set(open.map((p) => p.name));
  const unknown = Object.keys(data ?? {}).find((name) => !names.has(name));
  if (unknown !== undefined) {
    throw badRequest(`data.${unknown.slice(0, 40)} is not a parameter of this action`);
  }
  const fromQuery = isBag(query) ? query : {};
  const inputs: Record<string, string | boolean> = {};
  for (const param of open) {
    const sent =
      data !== undefined && Object.hasOwn(data, param.name)
        ? data[param.name]
        : Object.hasOwn(fromQuery, param.name)
          ? fromQuery[param.name]
          : undefined;
    const value = readValue(param, sent);
    if (value !== undefined) inputs[param.name] = value;
  }
  return inputs;
}

/** The inputs again as an href's query, for a chained action that runs with the same values. */
export const inputsQuery = (inputs: Record<string, string | boolean>): string =>
  new URLSearchParams(
    Object.entries(inputs).map(([name, value]): [string, string] => [name, String(value)]),
  ).toString();
