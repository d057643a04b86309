import type { Address } from 'viem';
import type { ChainAction } from './chain-action.types';
import type { MiniAppDeclaration } from './mini-app.types';

/** Solidity integers: `uint8`…`uint256` and `int8`…`int256` (widths in steps of 8). */
export type IntegerParamType = `uint${number}` | `int${number}`;
/** `bytes` (any whole number of bytes) and `bytes1`…`bytes32`. */
export type BytesParamType = 'bytes' | `bytes${number}`;

/**
 * Every parameter type the platform renders. The template types let any width through the
 * compiler; a width Solidity does not have (`uint7`, `bytes33`) stops the boot.
 */
export type ParamType =
  | 'text'
  | 'string'
  | 'textarea'
  | 'email'
  | 'url'
  | BytesParamType
  | 'number'
  | 'datetime'
  | IntegerParamType
  | 'address'
  | 'boolean'
  | 'bool'
  | 'select'
  | 'radio'
  | 'file'
  | 'image';

export type ResponseType = 'data';
/** A JSON Schema (2020-12), as written in a declaration. */
export type JsonSchemaObject = Readonly<Record<string, unknown>>;
/** Integers beyond 2^53 are declared as decimal text; dates as ISO 8601 text or epoch milliseconds. */
export type ParamValue = string | number | boolean;

/** One choice of a `select` or `radio` parameter: what the user reads, and the value sent. */
export interface ParamOption {
  label: string;
  /** The platform accepts text, numbers and booleans; values must differ as text. */
  value: string | number | boolean;
  description?: string;
}

/** What a team writes on a DTO property; the property name becomes the parameter's `name`. */
export interface ParamSpec {
  type: ParamType;
  label: string;
  required?: boolean;
  options?: readonly ParamOption[];
  value?: ParamValue;
  /**
   * The service always receives `value`; a request carrying another one is a 400. An `address`
   * may default to `'sender'`: the acting user's address, read per request.
   */
  fixed?: boolean;
  /** A secret (a code, a note): read from the body only and never written to a log. */
  sensitive?: boolean;
  /** `false`: the platform sends the value in the body only, so it is never read from the query. */
  queryParam?: boolean;
  placeholder?: string;
  description?: string;
  /** `number`: a number; `uintN`/`intN`: a whole number (text beyond 2^53); `datetime`: a date. */
  min?: number | string;
  max?: number | string;
  step?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** `file`/`image`: comma-separated MIME types (`image/png`, `image/*`) and extensions (`.pdf`). */
  accept?: string;
  /** `file`/`image`: largest file, in bytes. */
  maxSize?: number;
  /** `file`/`image`: several files (sent as `name[0]`, `name[1]`, …). */
  multiple?: boolean;
  /** `image`: largest width and height, in pixels. */
  maxWidth?: number;
  maxHeight?: number;
  /** `image`: width to height, as `"16:9"` or `"1:1"`. */
  aspectRatio?: string;
}

/** A parameter as the contract publishes it. */
export interface ActionParameter extends ParamSpec {
  name: string;
}

/** The chains of an action: where it runs (`source`) and, cross-chain, where it lands. */
export interface ChainContext {
  source: number;
  destination?: number;
}

/** Per-action rate-limit override (docs/requests-and-responses.md, rate limits). */
export interface ActionRateLimit {
  ip?: { limit: number; ttlSeconds: number };
  user?: { limit: number; ttlSeconds: number };
}

/** Parameter DTO classes are plain classes whose properties carry `@ActionParam`. */
export type ParamsClass<T = object> = new () => T;

/** One request to an action, as the platform's proxy would send it. */
export interface ActionSample<P extends object = object> {
  /** Parameter values as a client sends them (text for integers beyond 2^53). */
  params: { [K in keyof P]?: ParamValue };
  /** The acting user's address (required by `requiresUser` actions). */
  userAddress?: string;
  /** The chain to act on; the declaration's source chain when absent. */
  chainId?: number;
}

/**
 * What a price function reads: the environment the service booted with (its configuration) and,
 * when it prices a call, that call's converted parameters and context. Listing the price (OpenAPI,
 * an MCP tool's description) asks without a call: `params` and `context` are then absent.
 */
export interface PriceRequest<P extends object = object> {
  env: Readonly<Record<string, string | undefined>>;
  params?: P;
  context?: RequestContext;
}

/**
 * A price computed per request. Written as a method's type so that a declaration priced from its
 * own params class still reads as an `ActionDeclaration` (a method's parameter is bivariant).
 */
export type PriceFunction<P extends object = object> = {
  price(request: PriceRequest<P>): string;
}['price'];

/**
 * An action's price per call, paid over x402 (docs/agents.md, "Pricing an action"): a payment
 * authorization of `amount` `token` to `payTo`, on the action's source chain, settled only when
 * the action answers with success.
 */
export interface ActionPrice<P extends object = object> {
  /**
   * Decimal text in the token's units (`'0.01'`), or a function of the request returning it. A
   * function asked without a call (`params` absent) returns the price to list.
   */
  amount: string | PriceFunction<P>;
  /**
   * The symbol of the token paid in, as the chain file names it (`USDC`): an ERC-20 with EIP-3009
   * `transferWithAuthorization`, which x402's `exact` scheme settles with.
   */
  token: string;
  /**
   * Who is paid: an EIP-55 address, or a function of the environment; absent: `X402_PAY_TO`.
   * When it gives none, the action is not served.
   */
  payTo?: string | ((env: Readonly<Record<string, string | undefined>>) => string | undefined);
}

/** One declaration per action: route, validation and published metadata all come from here. */
export interface ActionDeclaration<P extends object = object> {
  /** The button's text in the mini-app, published in the metadata. */
  label: string;
  /** A sentence the platform shows under the button; published in the metadata. */
  description?: string;
  /**
   * The action's own page on /docs (the OpenAPI operation's description, after the generated
   * notes): Markdown, as long as it needs (what it does, its answer's fields, its errors). Not
   * published in the platform's metadata.
   */
  docs?: string;
  /**
   * The chain the action runs on (`source`) and, for a cross-chain action, where it lands; requests
   * naming another are refused with 400 `UNSUPPORTED_CHAIN`.
   */
  chains: ChainContext;
  /**
   * The route the action answers POST on (`/api/<name>`), unique across actions; also its id in
   * metadata, OpenAPI and the typed client.
   */
  path: string;
  /**
   * The class whose `@ActionParam` properties declare, validate and convert the parameters; none
   * for an action without inputs.
   */
  params?: ParamsClass<P>;
  /** `'data'` selects data mode; absent selects transaction mode. */
  responseType?: ResponseType;
  /**
   * A data action's `data`, as a JSON Schema: its MCP tool's output schema (docs/agents.md), which
   * the conformance kit checks each sample's answer against. Absent: the tool promises any JSON.
   */
  dataSchema?: JsonSchemaObject;
  /** The action needs the acting user's address (400 when none is sent). */
  requiresUser?: boolean;
  /**
   * `'verified'`: the user must prove the address with a session token (Sign-In with Ethereum,
   * docs/verified-users.md); without one the action answers 401 `UNVERIFIED_USER`. The handler's
   * `context.userAddress` is then the signed-in address.
   */
  user?: 'verified';
  /**
   * The action calls outside the service (an HTTP API, an RPC node): with that service down, its
   * declared answer is a 5xx. The fuzz suite and the conformance checks read it from here.
   */
  callsOutside?: boolean;
  /**
   * This action's own rate limits, over the service's RATE_LIMIT_* defaults, for an action that is
   * costlier (or cheaper) to answer.
   */
  rateLimit?: ActionRateLimit;
  /**
   * Requests a user would send, answered with success by a correctly configured service. The
   * conformance kit, the debugger page, the OpenAPI examples and `npm run check` all use them.
   */
  samples?: readonly ActionSample<P>[];
  /**
   * A price per call, paid over x402 (data actions only): a call without payment is answered 402
   * with the payment's terms. The platform and blinks cannot pay: a paid action is left out of
   * its mini-app's documents and its blink is published `disabled`.
   */
  price?: ActionPrice<P>;
  /** The mini-app the action belongs to (exactly one; see defineMiniApp). */
  miniApp: MiniAppDeclaration;
  /**
   * A transaction action's own webhook: each outcome of its answers is also POSTed, signed, to
   * the team's receiver, with the answer's `fields` (docs/webhooks.md, "An action's own
   * webhook"). The service-wide WEBHOOK_URL still receives every outcome.
   */
  webhook?: ActionWebhook;
}

/** Where an action's own webhook goes, and what its deliveries carry beyond the outcome. */
export interface ActionWebhook {
  /**
   * The receiver, read once at boot from the action's own configuration, for instance
   * `(env) => loadDonateConfig(env).webhook`: a URL and its secret, or undefined when this
   * deployment sets none (no deliveries then).
   */
  target: (env: Readonly<Record<string, string | undefined>>) => ActionWebhookTarget | undefined;
  /**
   * Names of the answer's `params.args` (the call's arguments and `display.args`) each delivery
   * carries in `fields`, as the answer showed them: `['amount', 'message']`. A name the answer
   * lacks is left out.
   */
  fields?: readonly string[];
}

/** An action webhook's receiver: checked at boot as WEBHOOK_URL and WEBHOOK_SECRET are. */
export interface ActionWebhookTarget {
  /** http(s), without credentials. */
  url: string;
  /** `whsec_` and the base64 of 24 random bytes or more (Standard Webhooks). */
  secret: string;
}

/** The contract's `DynamicAction`, as published in metadata. */
export interface DynamicAction {
  type: 'dynamic';
  label: string;
  description?: string;
  chains: ChainContext;
  path: string;
  params?: ActionParameter[];
  responseType?: ResponseType;
}

/** A mini-app's metadata document, what the platform registers by its `url` (1 to 4 actions). */
export interface MiniAppMetadata {
  url: string;
  icon: string;
  title: string;
  description: string;
  baseUrl: string;
  /** Dynamic actions first, then the chain actions the mini-app holds. */
  actions: (DynamicAction | ChainAction)[];
}

/** What a data-mode handler returns; the envelope interceptor adds the rest. */
export interface ActionResult<T = unknown> {
  /** The answer's `data`, JSON-safe (bigints become decimal text). */
  data?: T;
  /** The envelope's `message`, shown to the user; a default is written when absent. */
  message?: string;
  /** Extra keys merged into the envelope's `metadata` (for instance `cached`). */
  metadata?: Record<string, unknown>;
}

export interface ResponseMetadata {
  timestamp: number;
  requestId: string;
  executionTime: number;
  [key: string]: unknown;
}

/**
 * The data-mode envelope: `{success, data, message, statusCode, metadata}` on success, `error`
 * and `message` (and `data.invalidParams`) on failure; also every failure a client reports itself.
 */
export interface DynamicActionDataResponse<T = unknown> {
  success: boolean;
  data?: T;
  message?: string;
  error?: string;
  statusCode?: number;
  metadata?: Partial<ResponseMetadata>;
}

/** The platform's optional `crossChain` block of a transaction that continues on another chain. */
export interface CrossChainInfo {
  destinationChainId: number;
  /** A number, or decimal text where a gas limit may exceed 2^53 (the SDK accepts both). */
  destinationGasLimit?: string | number;
  destinationRecipient?: string;
  estimatedBridgeFee?: string;
  /** What runs on the destination chain, as the action describes it. */
  destinationOperation?: unknown;
}

/**
 * A transaction-mode answer: the unsigned transaction the user's wallet signs and sends, with the
 * ABI and arguments a wallet or the platform shows before signing. TransactionBuilder.build makes
 * it.
 */
export interface ExecutionResponse {
  /** The unsigned transaction, RLP hex or wagmi JSON per TX_SERIALIZATION. */
  serializedTransaction: string;
  /** The chain the wallet must be on to sign it. */
  chainId: number;
  /** The called function's ABI fragment, so a wallet can decode the call for the user. */
  abi?: readonly unknown[];
  /**
   * The function and its arguments by name, for display; TransactionBuilder fills it from the call.
   */
  params?: { functionName: string; args: Record<string, unknown> };
  /** Filled by the kit for an action that declares `chains.destination`. */
  crossChain?: CrossChainInfo;
}

/** A transaction-mode refusal: `{error, code?}`, with a `message` and `data` when the action gives them. */
export interface TransactionErrorBody {
  error: string;
  code: string;
  /** User-readable text, when the action gave one besides `error`. */
  message?: string;
  /** Context the action gave (for instance `{invalidParams}`), JSON-safe. */
  data?: unknown;
  details?: string;
}

/** Who runs the action and from where, read from headers, query and body. */
export interface RequestContext {
  /**
   * The request's id, echoed in `metadata.requestId` and on every log line: a client's
   * `x-request-id` when it is sane, else a new UUID.
   */
  requestId: string;
  /**
   * The acting user's wallet, when the request names one (`x-wallet-address` or the SDK context).
   */
  userAddress?: Address;
  /**
   * The chain the request names, already checked against the declaration; absent means the declared
   * source.
   */
  sourceChain?: number;
  /** The destination chain the request names, for a cross-chain action. */
  destinationChain?: number;
}

/** The context of an action declared `requiresUser: true`: the guard answered 400 without one. */
export interface UserContext extends RequestContext {
  userAddress: Address;
}
