import { type Address, getAddress, isAddress } from 'viem';
import type {
  ActionDeclaration,
  ActionPrice,
  PriceRequest,
  RequestContext,
} from '../contract/action.types';

type EnvVars = Readonly<Record<string, string | undefined>>;

/** x402's scheme for a payment of a fixed amount (EIP-3009 authorizations on EVM chains). */
export const X402_SCHEME = 'exact';

/** The CAIP-2 id of an EVM chain, as x402 names networks: `eip155:43113`. */
export const x402Network = (chainId: number): `eip155:${number}` => `eip155:${chainId}`;

/**
 * Who a paid action pays: its own `payTo` (an address, or read from the environment), else
 * X402_PAY_TO; undefined when neither gives one (the action is then not served).
 */
export function payeeOf(price: ActionPrice, env: EnvVars): Address | undefined {
  const declared = typeof price.payTo === 'function' ? price.payTo(env) : price.payTo;
  const payee = declared ?? env.X402_PAY_TO;
  return payee !== undefined && isAddress(payee, { strict: false }) ? getAddress(payee) : undefined;
}

/**
 * The amount, decimal text in the token's units, of one call: the declaration's, or what its
 * function answers for this call. Asked without a call (`params` absent): the price to list.
 */
export function amountOf(
  price: ActionPrice,
  env: EnvVars,
  call?: { params: object; context: RequestContext },
): string {
  if (typeof price.amount === 'string') return price.amount;
  const request: PriceRequest = call ? { env, ...call } : { env };
  return price.amount(request);
}

/** A paid action's terms as published (OpenAPI, a tool's description): the listed amount. */
export interface PriceListing {
  /** Decimal text in the token's units, as listed (a function's answer without a call). */
  amount: string;
  token: string;
  payTo: Address;
  /** `eip155:<source chain>`: where the payment is signed and settled. */
  network: string;
  scheme: typeof X402_SCHEME;
  /** The amount depends on the request (its price is a function). */
  varies: boolean;
}

/** The listing of a declaration's price; undefined for a free action or one not served. */
export function listPrice(declaration: ActionDeclaration, env: EnvVars): PriceListing | undefined {
  const { price } = declaration;
  if (!price) return undefined;
  const payTo = payeeOf(price, env);
  if (!payTo) return undefined;
  return {
    amount: amountOf(price, env),
    token: price.token,
    payTo,
    network: x402Network(declaration.chains.source),
    scheme: X402_SCHEME,
    varies: typeof price.amount === 'function',
  };
}

/**
 * One sentence an agent reads before calling a paid action (an MCP tool's description, the
 * OpenAPI operation's): what a call costs and how it is paid. Undefined for a free action.
 */
export function describePrice(declaration: ActionDeclaration, env: EnvVars): string | undefined {
  const listing = listPrice(declaration, env);
  if (!listing) return undefined;
  const perCall = listing.varies
    ? ' (as listed: a call may cost another amount, which its 402 answer states)'
    : '';
  return (
    `Paid: ${listing.amount} ${listing.token} per call${perCall} over x402 (scheme ` +
    `${listing.scheme}, network ${listing.network}, to ${listing.payTo}); a call without ` +
    'payment is answered 402 with the PAYMENT-REQUIRED header, and nothing is charged unless ' +
    'the action answers with success.'
  );
}
