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
/** Integers beyond 2^53 are declared as decimal text; dates as ISO 8601 text or epoch milliseconds. */
export type ParamValue = string | number | boolean;

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

/** One declaration per action: route, validation and published metadata all come from here. */
export interface ActionDeclaration<P extends object = object> {
  label: string;
  description?: string;
  /**
   * The action's own page on /docs (the OpenAPI operation's description, after the generated
   * notes): Markdown, as long as it needs (what it does, its answer's fields, its errors). Not
   * published in the platform's metadata.
   */
  docs?: string;
  chains: ChainContext;
  path: string;
  params?: ParamsClass<P>;
  /** `'data'` selects data mode; absent selects transaction mode. */
  responseType?: ResponseType;
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
  rateLimit?: ActionRateLimit;
  /**
   * Requests a user would send, answered with success by a correctly configured service. The
   * conformance kit, the debugger page, the OpenAPI examples and `npm run check` all use them.
   */
  samples?: readonly ActionSample<P>[];
  /** The mini-app the action belongs to (exactly one; see defineMiniApp). */
  miniApp: MiniAppDeclaration;
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
  data?: T;
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

export interface ExecutionResponse {
  serializedTransaction: string;
  chainId: number;
  abi?: readonly unknown[];
  params?: { functionName: string; args: Record<string, unknown> };
  /** Filled by the kit for an action that declares `chains.destination`. */
  crossChain?: CrossChainInfo;
}

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
  requestId: string;
  userAddress?: Address;
  sourceChain?: number;
  destinationChain?: number;
}

/** The context of an action declared `requiresUser: true`: the guard answered 400 without one. */
export interface UserContext extends RequestContext {
  userAddress: Address;
}
