import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { checkConformanceRule, RULE_CHECKS } from './conformance/conformance.check';
import { CONFORMANCE_RULES, type ConformanceOptions } from './conformance/conformance.types';

export {
  checkActionConformance,
  checkConformanceRule,
  RULE_CHECKS,
} from './conformance/conformance.check';
export { buildLimitedApp } from './conformance/conformance.rate-limit';
export {
  CONFORMANCE_RULES,
  type ConformanceFinding,
  type ConformanceOptions,
  type ConformanceRule,
} from './conformance/conformance.types';

/**
 * Every contract rule one action could break, one Jest `it` each: call it from the action's
 * e2e spec, after the `beforeAll` that builds the app (hence the getter). A failing rule lists
 * its findings, each saying what was sent and what came back. Options may be a getter too, for
 * samples only known once the `beforeAll` has run (a deployed contract, a funded user).
 */
export function describeActionConformance(
  app: () => NestFastifyApplication,
  path: string,
  options: ConformanceOptions | (() => ConformanceOptions) = {},
): void {
  const resolve = (): ConformanceOptions => (typeof options === 'function' ? options() : options);
  describe(`${path} meets the dynamic action contract`, () => {
    for (const rule of CONFORMANCE_RULES) {
      it(RULE_CHECKS[rule].title, async () => {
        const findings = await checkConformanceRule(rule, app(), path, resolve());
        expect(findings.map(({ problem }) => problem)).toEqual([]);
      });
    }
  });
}
