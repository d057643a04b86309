import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type {
  ConformanceCheck,
  ConformanceFinding,
  ConformanceOptions,
  ConformanceRule,
} from './conformance.types';
import { checkCors, checkMetadata, checkPreflight, checkRequestId } from './conformance.http-rules';
import {
  checkChain,
  checkErrorShape,
  checkInvalidParams,
  checkMissingParams,
  checkUserAddress,
  checkValidSamples,
} from './conformance.param-rules';
import { checkRateLimit } from './conformance.rate-limit';
import { checkBlink } from './conformance.blink';
import { checkMcp } from './conformance.mcp';
import { checkSampleSimulation } from './conformance.simulation';
import { checkVerifiedUser } from './conformance.session';
import { actionUnderTest } from './conformance.target';

/** Each rule, with what a test run says it proves. */
export const RULE_CHECKS: Record<ConformanceRule, { title: string; check: ConformanceCheck }> = {
  metadata: {
    title: 'publishes a one-action document the platform accepts, matching the declaration',
    check: checkMetadata,
  },
  preflight: {
    title: "answers the OPTIONS preflight 200, empty, allowing the proxy's headers",
    check: checkPreflight,
  },
  cors: { title: 'answers POST with the CORS headers', check: checkCors },
  'valid-samples': {
    title: 'answers each valid sample 200 in its mode and shape',
    check: checkValidSamples,
  },
  'sample-simulation': {
    title: 'answers sample transactions that simulate cleanly as their sample user',
    check: checkSampleSimulation,
  },
  'invalid-params': {
    title: 'refuses a bad value of each parameter with a 400 naming it',
    check: checkInvalidParams,
  },
  'missing-params': {
    title: 'refuses each missing required parameter with a 400 naming it',
    check: checkMissingParams,
  },
  'error-shape': {
    title: "answers a body that is not JSON with a 400 in the action's error shape",
    check: checkErrorShape,
  },
  'request-id': {
    title: 'echoes or generates x-request-id, with timing metadata in data answers',
    check: checkRequestId,
  },
  'user-address': {
    title: 'refuses a request without a valid user address when the action requires one',
    check: checkUserAddress,
  },
  'verified-user': {
    title:
      "answers 401 UNVERIFIED_USER without a session and 403 USER_MISMATCH for another user's claim, when it requires a verified user",
    check: checkVerifiedUser,
  },
  chain: { title: 'refuses a chain it does not declare (UNSUPPORTED_CHAIN)', check: checkChain },
  'rate-limit': {
    title: 'answers over its limit 429 in its error shape with Retry-After and X-RateLimit-*',
    check: checkRateLimit,
  },
  blink: {
    title: 'is served as a blink: the Actions spec document, its samples and refusals',
    check: checkBlink,
  },
  mcp: {
    title:
      'is served as an MCP tool: the route’s arguments and requirements, its samples answered in its output schema, its refusals in the route’s words',
    check: checkMcp,
  },
};

/** One rule for the action on `path`: its findings (none when the action keeps it). */
export function checkConformanceRule(
  rule: ConformanceRule,
  app: NestFastifyApplication,
  path: string,
  options: ConformanceOptions = {},
): Promise<ConformanceFinding[]> {
  return RULE_CHECKS[rule].check(actionUnderTest(app, path, options));
}

/** Every rule for the action on `path`, in order; an empty list means it meets the contract. */
export async function checkActionConformance(
  app: NestFastifyApplication,
  path: string,
  options: ConformanceOptions = {},
): Promise<ConformanceFinding[]> {
  const all: ConformanceFinding[] = [];
  for (const rule of Object.keys(RULE_CHECKS) as ConformanceRule[]) {
    all.push(...(await checkConformanceRule(rule, app, path, options)));
  }
  return all;
}
