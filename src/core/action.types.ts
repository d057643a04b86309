import type { Address } from 'viem';

/** Parameter types of the contract, plus `address` (an EVM address, checksummed on the way in). */
export const PARAM_TYPES = ['string', 'number', 'select', 'radio', 'boolean', 'address'] as const;
export type ParamType = (typeof PARAM_TYPES)[number];

export type ResponseType = 'data';
export type ParamValue = string | number | boolean;

export interface ParamOption {
  label: string;
  value: string | number;
  description?: string;
}

/** What a team writes on a DTO property; the property name becomes the parameter's `name`. */
export interface ParamSpec {
  type: ParamType;
  label: string;
  required?: boolean;
  options?: readonly ParamOption[];
  value?: ParamValue;
  placeholder?: string;
  description?: string;
  min?: number;
  max?: number;
  step?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

/** A parameter as the contract publishes it. */
export interface ActionParameter extends ParamSpec {
  name: string;
}

export interface ChainContext {
  source: number;
  destination?: number;
}

/** Per-action rate-limit override (see the throttling section of the README). */
export interface ActionRateLimit {
  ip?: { limit: number; ttlSeconds: number };
  user?: { limit: number; ttlSeconds: number };
}

/** Parameter DTO classes are plain classes whose properties carry `@ActionParam`. */
export type ParamsClass<T = object> = new () => T;

/** One declaration per action: route, validation and published metadata all come from here. */
export interface ActionDeclaration<P extends object = object> {
  label: string;
  description?: string;
  chains: ChainContext;
  path: string;
  params?: ParamsClass<P>;
  /** `'data'` selects data mode; absent selects transaction mode. */
  responseType?: ResponseType;
  /** The action needs the acting user's address (400 when none is sent). */
  requiresUser?: boolean;
  rateLimit?: ActionRateLimit;
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

export interface MiniAppMetadata {
  title: string;
  description: string;
  icon?: string;
  baseUrl: string;
  actions: DynamicAction[];
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
  /** Decimal text: gas limits and fees may exceed 2^53. */
  destinationGasLimit?: string;
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
  details?: string;
}

/** Who runs the action and from where, read from headers, query and body. */
export interface RequestContext {
  requestId: string;
  userAddress?: Address;
  sourceChain?: number;
  destinationChain?: number;
}
