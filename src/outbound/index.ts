/** Outbound calls for teams: the bounded HTTP client, its errors, and the result cache. */
export {
  ExternalHttp,
  fetchJson,
  UpstreamError,
  type UpstreamErrorKind,
} from './http/external-http';
export { ExternalHttpModule } from './http/external-http.module';
export { UpstreamBounds } from './http/upstream-bounds';
export type { Lane } from './http/host-policy';
export { UpstreamRefusal, type RefusalReason } from './http/upstream-refusal.exception';
export { ResultCache, type Cached } from './cache/result-cache';
export { normalizeKeyText } from './cache/cache-key';
