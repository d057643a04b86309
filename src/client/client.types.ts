import type { IntentStatus } from '../outcomes/outcome.types';
import type {
  DynamicAction,
  DynamicActionDataResponse,
  ExecutionResponse,
  ParamValue,
  TransactionErrorBody,
} from '../contract/action.types';

/** The part of a fetch answer the client reads; the global `Response` satisfies it. */
export interface FetchResponseLike {
  status: number;
  text(): Promise<string>;
  /** Read for a transaction answer's `X-Action-Intent` (see intentOf); optional for older fakes. */
  headers?: { get(name: string): string | null };
}

/** What the client hands to fetch; a subset of `RequestInit`. */
export interface FetchInit {
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/** A fetch implementation: the global one, or a wrapper (tests, instrumented clients). */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponseLike>;

/** Where and as whom executeDynamic calls an action: the service, the user, the chains, a session. */
export interface ExecuteDynamicOptions {
  /** Where the action's backend lives; the action's `path` is appended to it. */
  baseUrl: string;
  /** Wallet address of the user running the action. */
  userAddress?: string;
  /**
   * The session signIn gave: its token goes as `Authorization: Bearer` on the call, and the
   * signed-in address is the user (`userAddress`, when sent, must be the same: else 403).
   */
  session?: { token: string };
  /** Chain the user runs the action from: an id or a name the platform knows (`'fuji'`), sent as is. */
  sourceChain?: number | string;
  /** Destination chain of a cross-chain action, sent as is like `sourceChain`. */
  destinationChain?: number | string;
  /** Defaults to the global `fetch`. */
  fetch?: FetchLike;
  /** Extra headers; the contract's own headers win over them. */
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

/** The values a user chose, by parameter name; `undefined`/`null` are not sent. */
export type ActionValues = Readonly<Record<string, ParamValue | null | undefined>>;

/** An action declared `responseType: 'data'`: executeDynamic answers it with the data envelope. */
export type DataModeAction = DynamicAction & { responseType: 'data' };

/**
 * Anything a call can answer. A transaction-mode call may also get a data-mode envelope: answers
 * from outside any action (unknown path) and client failures (statusCode 0) take that shape.
 */
export type DynamicActionResult<T = unknown> =
  DynamicActionDataResponse<T> | ExecutionResponse | TransactionErrorBody;

/** Where and how reportTransaction and transactionOutcome call the service. */
export interface TransactionReportOptions {
  /** The same base URL as executeDynamic's. */
  baseUrl: string;
  /** Defaults to the global `fetch`. */
  fetch?: FetchLike;
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

/** What the service says of an intent (`data` of the envelope), docs/transaction-outcomes.md. */
export interface TransactionIntentView {
  intent: string;
  /** The path of the action that answered. */
  action: string;
  chainId: number;
  status: IntentStatus;
  hash?: string;
  /** Decimal text. */
  blockNumber?: string;
  /** Milliseconds since the epoch. */
  updatedAt: number;
}
