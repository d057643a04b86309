/**
 * The kit's public entry: everything an action author imports, and nothing more (a short list,
 * capped by import-root.spec.ts). Chains and transactions beyond the builder are in
 * src/evm; outbound calls beyond ExternalHttp and the result cache are in src/outbound.
 */
// Declaration: one object drives the route, validation, metadata, OpenAPI and conformance.
export { ActionController, defineAction, RunAction, type ContextOf } from './action.decorator';
export { defineMiniApp } from './mini-app';
// The platform's blockchain and transfer actions, built by its client: listed in a mini-app.
export { defineChainAction } from './chain-actions/define-chain-action';
export type { MiniAppDeclaration } from '../contract/mini-app.types';
// Parameters and context, injected into the one-line handler.
export { ActionParam } from './action-param.decorator';
export { ActionContext, ActionParams } from './inject-params.decorator';
// The contract's types an action returns or receives.
export type {
  ActionDeclaration,
  ActionResult,
  ExecutionResponse,
  RequestContext,
  UserContext,
} from '../contract/action.types';
export type { UploadedFile, UploadedImage } from './uploads/uploaded-file';
// Errors: the contract's error envelope, and an outside service's failure.
export { ActionException } from '../contract/action.exception';
export { UpstreamError, UpstreamRefusal } from '../outbound';
// Outbound HTTP and the result cache.
export { ExternalHttp, ExternalHttpModule, ResultCache } from '../outbound';
// Chains and transactions (the rest: src/evm).
export { ChainRegistry, TransactionBuilder, TransactionModule } from '../evm';
// Reads and candidate transactions checked in one batch, then one picked (builder.buildBest);
// the types it hands `pick` are in src/evm.
export type { CandidatePlan } from '../evm';
// Files an action serves, and logging an outside failure without flooding the log.
export { fileAnswer, ServesImmutableFiles } from './immutable-file';
export { limitLog } from '../telemetry/logging/log-limiter';
export { logText } from '../telemetry/logging/log-text';
// A team's own service checks the signed webhooks of transaction outcomes (docs/webhooks.md).
export { verifyWebhook } from './webhook-signature';
