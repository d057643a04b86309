import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type {
  ActionDeclaration,
  ActionParameter,
  ActionSample,
  DynamicAction,
} from '../../contract/action.types';

/** The contract rules the kit checks, one Jest `it` each. */
export const CONFORMANCE_RULES = [
  'metadata',
  'preflight',
  'cors',
  'valid-samples',
  'sample-simulation',
  'invalid-params',
  'missing-params',
  'error-shape',
  'request-id',
  'user-address',
  'verified-user',
  'chain',
  'rate-limit',
  'blink',
  'mcp',
] as const;

/** One rule of the conformance kit, by name: what `only` and `skip` take. */
export type ConformanceRule = (typeof CONFORMANCE_RULES)[number];

/** One way an action breaks the contract; an empty list of findings means it conforms. */
export interface ConformanceFinding {
  rule: ConformanceRule;
  problem: string;
}

/** How describeActionConformance and checkActionConformance check an action: which rules, with what. */
export interface ConformanceOptions {
  /** Requests answered with success; by default the declaration's `samples`. */
  valid?: readonly ActionSample[];
  /**
   * Builds an app serving the same action with an IP limit of 1 request, for the rate-limit
   * rule. By default the kit builds one itself from the action's module and the app's environment.
   */
  limitedApp?: () => Promise<NestFastifyApplication>;
}

/** The action under test, as the checks need it. */
export interface ActionUnderTest {
  app: NestFastifyApplication;
  path: string;
  action: DynamicAction;
  declaration: ActionDeclaration;
  params: ActionParameter[];
  dataMode: boolean;
  samples: readonly ActionSample[];
  options: ConformanceOptions;
}

/** A rule's check: resolves to its findings, never throws for a breach of the contract. */
export type ConformanceCheck = (target: ActionUnderTest) => Promise<ConformanceFinding[]>;
