import type { Type } from '@nestjs/common';
import { ModulesContainer, NestFactory, Reflector } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from '../../app.module';
import { APP_OPTIONS, createAdapter, setupApp } from '../../server/app.setup';
import { loadConfig } from '../../config/app.config';
import { ENV, type Env } from '../../config/env';
import { ACTION_KEY } from '../../kit/action.decorator';
import type { ActionDeclaration } from '../../contract/action.types';
import type { ActionUnderTest, ConformanceCheck } from './conformance.types';
import { type Answer, CONFORMANCE_USER, header, quote, send } from './conformance.request';
import { errorShapeProblems } from './conformance.shapes';
import { findings } from './conformance.http-rules';

/** The module whose controller declares the action on `path`. */
function actionModule(app: NestFastifyApplication, path: string): Type {
  const reflector = app.get(Reflector);
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const declaration =
        wrapper.metatype &&
        reflector.get<ActionDeclaration | undefined>(ACTION_KEY, wrapper.metatype);
      if (declaration?.path === path) return module.metatype;
    }
  }
  throw new Error(`no module declares a controller for ${path}`);
}

/**
 * The same action module in an app built as main.ts builds it, from the tested app's own
 * environment, but with limits of one request and counters in memory (a shared Redis keeps
 * the tested app's counts), and its logs silenced.
 */
export async function buildLimitedApp(
  app: NestFastifyApplication,
  path: string,
): Promise<NestFastifyApplication> {
  const env: Env = {
    ...app.get<Env>(ENV),
    RATE_LIMIT_IP_MAX: '1',
    RATE_LIMIT_USER_MAX: '1',
    RATE_LIMIT_SCOPE: 'action',
    LOG_LEVEL: 'silent',
    REDIS_URL: undefined,
  };
  const config = loadConfig(env);
  const limited = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot({ config, env, actions: [actionModule(app, path)] }),
    createAdapter(config),
    { ...APP_OPTIONS, logger: false },
  );
  setupApp(limited);
  await limited.init();
  await limited.getHttpAdapter().getInstance().ready();
  return limited;
}

const isWholeNumber = (text: string | undefined): boolean =>
  text !== undefined && /^\d+$/.test(text);

function limitedAnswerProblems(target: ActionUnderTest, answer: Answer): string[] {
  const problems = errorShapeProblems(answer, target.dataMode);
  const retryAfter = header(answer, 'retry-after');
  if (!isWholeNumber(retryAfter) || Number(retryAfter) < 1) {
    problems.push(`Retry-After is ${String(retryAfter)}, not a number of seconds`);
  }
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-reset']) {
    if (!isWholeNumber(header(answer, name))) problems.push(`${name} is missing or not a number`);
  }
  if (header(answer, 'x-ratelimit-remaining') !== '0') {
    problems.push(`x-ratelimit-remaining is ${String(header(answer, 'x-ratelimit-remaining'))}`);
  }
  const { code } = (answer.body ?? {}) as { code?: unknown };
  if (!target.dataMode && code !== 'RATE_LIMITED') {
    problems.push(`code is ${String(code)}, not RATE_LIMITED`);
  }
  return problems;
}

/**
 * The 429 answer: requests beyond the limit (the declaration's own, or 1) are refused in the
 * action's error shape with Retry-After and X-RateLimit-* headers. Requests carry no
 * parameters: the limit counts before validation, so no upstream is ever called.
 */
export const checkRateLimit: ConformanceCheck = async (target) => {
  const build = target.options.limitedApp ?? (() => buildLimitedApp(target.app, target.path));
  const limited = await build();
  try {
    const { rateLimit } = target.declaration;
    const most = Math.max(1, rateLimit?.ip?.limit ?? 1, rateLimit?.user?.limit ?? 1);
    const attempts = Math.min(most + 1, 100);
    let answer: Answer | undefined;
    for (let i = 0; i < attempts && answer?.status !== 429; i += 1) {
      answer = await send(limited, 'POST', target.path, { userAddress: CONFORMANCE_USER });
    }
    if (!answer || answer.status !== 429) {
      const last = answer ? quote(answer) : 'nothing';
      return findings('rate-limit', [
        `${attempts} requests over a limit of ${most}: the last answered ${last}`,
      ]);
    }
    return findings(
      'rate-limit',
      limitedAnswerProblems(target, answer).map((p) => `the 429 answer: ${p}`),
    );
  } finally {
    await limited.close();
  }
};
