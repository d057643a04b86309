export * from './action.types';
export * from './action.decorator';
export * from './action-param.decorator';
export * from './action-args.decorator';
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
