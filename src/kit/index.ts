export * from '../contract/action.types';
export * from './action.decorator';
export * from '../contract/mini-app.types';
export { defineMiniApp, DEFAULT_MINI_APP_ICON } from './mini-app';
export * from './action-param.decorator';
export * from './inject-params.decorator';
export * from '../contract/action.exception';
export type { UploadedFile, UploadedImage } from './uploads/uploaded-file';
export { isDataResponse, isExecutionResponse } from '../contract/response-guards';
export { ResultCache, type Cached } from '../outbound/cache/result-cache';
export {
  ExternalHttp,
  fetchJson,
  UpstreamError,
  type UpstreamErrorKind,
} from '../outbound/http/external-http';
export { ExternalHttpModule } from '../outbound/http/external-http.module';
export { fileAnswer, ServesImmutableFiles } from './immutable-file';
export { UpstreamBounds } from '../outbound/http/upstream-bounds';
export { UpstreamRefusal, type RefusalReason } from '../outbound/http/upstream-refusal.exception';
export { normalizeKeyText } from '../outbound/cache/cache-key';
export { limitLog, LogLimiter } from '../telemetry/logging/log-limiter';
export { logStack, logText } from '../telemetry/logging/log-text';
// One import root for action authors: transactions and chains are part of the kit.
export * from '../evm/transaction';
export * from '../evm/chains';
export { jsonSafe, type JsonSafe } from '../contract/json-safe';
