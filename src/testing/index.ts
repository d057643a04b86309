/** Test helpers for teams: the platform's metadata rules as a checker (docs/mini-apps-and-platform.md). */
export { assertPlatformMetadata, checkPlatformMetadata } from '../publishing/platform-metadata';
export { PLATFORM_LIMITS } from '../publishing/platform-rules';
export {
  buildLimitedApp,
  checkActionConformance,
  checkConformanceRule,
  CONFORMANCE_RULES,
  type ConformanceFinding,
  type ConformanceOptions,
  type ConformanceRule,
  describeActionConformance,
} from './conformance';
export { declaredActions, type DeclaredAction } from './conformance/declared-actions';
export { sessionHeaders } from './conformance/conformance.token';
// The local chain of a team's e2e spec: start it, fund a user, write a chain file, send answers.
export {
  deserializeTransaction,
  type DexFixture,
  fundUser,
  type LocalChain,
  sendAnswer,
  signAndSend,
  startTestChain,
  type TestChain,
  type TestChainOptions,
  type WalletRun,
  writeChainFile,
  writeNodeDownChainFile,
} from './local-chain';
