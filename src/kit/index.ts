export * from './action.types';
export * from './action.decorator';
export * from './mini-app.types';
export { defineMiniApp, DEFAULT_MINI_APP_ICON } from './mini-app';
export * from './action-param.decorator';
export * from './inject-params.decorator';
export * from './action.exception';
export type { UploadedFile, UploadedImage } from './uploads/uploaded-file';
export { isDataResponse, isExecutionResponse } from './response-guards';
export { ResultCache, type Cached } from './cache/result-cache';
export {
  ExternalHttp,
  fetchJson,
  UpstreamError,
  type UpstreamErrorKind,
} from './http/external-http';
export { ExternalHttpModule } from './http/external-http.module';
export { fileAnswer, ServesImmutableFiles } from './http/immutable-file';
export { UpstreamBounds } from './http/upstream-bounds';
export { UpstreamRefusal, type RefusalReason } from './http/upstream-refusal.exception';
export { normalizeKeyText } from './cache/cache-key';
export { limitLog, LogLimiter } from './logging/log-limiter';
export { logStack, logText } from './logging/log-text';
// One import root for action authors: transactions and chains are part of the kit.
export * from './transaction';
export * from '../chains';
export { jsonSafe, type JsonSafe } from './json-safe';
