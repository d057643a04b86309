/** Test helpers for teams: the platform's metadata rules as a checker (see README, Mini-apps). */
export { assertPlatformMetadata, checkPlatformMetadata } from './platform-metadata';
export { PLATFORM_LIMITS } from './platform-rules';
export { describeActionConformance, type ConformanceOptions } from './conformance';
export { declaredActions, type DeclaredAction } from './declared-actions';
