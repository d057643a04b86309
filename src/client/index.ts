/**
 * The browser-safe client SDK: types, guards and `executeDynamic`. It must not pull in Nest,
 * Fastify or validators, so mini-apps can bundle it; see client-imports.spec.ts.
 */
export { executeDynamic, intentOf } from './execute-dynamic';
export { reportTransaction, transactionOutcome } from './report-transaction';
export {
  signIn,
  siweMessageText,
  type Session,
  type SignInOptions,
  type SignInAccount,
  type SignInResult,
  type SignInWallet,
} from './sign-in';
export { isDataResponse, isTransactionError, isTransactionResponse } from './response-kinds';
export type {
  ActionValues,
  DataModeAction,
  DynamicActionResult,
  ExecuteDynamicOptions,
  FetchInit,
  FetchLike,
  FetchResponseLike,
  TransactionIntentView,
  TransactionReportOptions,
} from './client.types';
export type {
  ActionParameter,
  ChainContext,
  DynamicAction,
  DynamicActionDataResponse,
  ExecutionResponse,
  MiniAppMetadata,
  ParamOption,
  ParamValue,
  TransactionErrorBody,
} from '../contract/action.types';
