import { isDeepStrictEqual } from 'node:util';
import { toDynamicAction } from '../../kit/action.registry';
import { APP_CONFIG, type AppConfig } from '../../config/app.config';
import { checkPlatformMetadata } from '../../publishing/platform-metadata';
import { PROXY_HEADERS } from '../../publishing/platform-rules';
import type { ConformanceCheck, ConformanceFinding, ConformanceRule } from './conformance.types';
import { type Answer, header, quote, send } from './conformance.request';
import { metadataProblems } from './conformance.shapes';
import { baseCall } from './conformance.target';

/** Headers a browser page must be allowed to read: the request id and the rate-limit ones. */
export const EXPOSED_HEADERS = [
  'x-request-id',
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
];

export const findings = (rule: ConformanceRule, problems: string[]): ConformanceFinding[] =>
  problems.map((problem) => ({ rule, problem }));

const listed = (answer: Answer, name: string): string[] =>
  (header(answer, name) ?? '').split(',').map((entry) => entry.trim().toLowerCase());

/** The origin a browser page of the platform sends: one the configuration allows. */
const originOf = (target: Parameters<ConformanceCheck>[0]): string =>
  target.app.get<AppConfig>(APP_CONFIG).allowedOrigins[0] ?? 'https://conformance.example';

function corsProblems(answer: Answer, origin: string, what: string): string[] {
  const problems: string[] = [];
  const allowOrigin = header(answer, 'access-control-allow-origin');
  if (allowOrigin !== '*' && allowOrigin !== origin) {
    problems.push(`${what} allows origin ${String(allowOrigin)}, not ${origin}`);
  }
  if (!listed(answer, 'access-control-allow-methods').includes('post')) {
    problems.push(`${what} does not allow POST`);
  }
  const allowed = listed(answer, 'access-control-allow-headers');
  const missing = PROXY_HEADERS.filter((name) => !allowed.includes(name));
  if (missing.length > 0) problems.push(`${what} does not allow headers ${missing.join(', ')}`);
  return problems;
}

export const checkMetadata: ConformanceCheck = async (target) => {
  const answer = await send(target.app, 'GET', target.path);
  // The platform cannot pay: a paid action has no platform document (docs/agents.md).
  if (target.declaration.price) {
    const published = answer.status === 200;
    return findings('metadata', published ? ['a paid action has a platform document'] : []);
  }
  if (answer.status !== 200) return findings('metadata', [`GET answered ${quote(answer)}`]);
  const problems = checkPlatformMetadata(answer.body).map((p) => `the platform refuses it: ${p}`);
  const { actions } = answer.body as { actions?: unknown };
  const expected = JSON.parse(JSON.stringify(toDynamicAction(target.declaration))) as unknown;
  if (!Array.isArray(actions) || actions.length !== 1) {
    problems.push('the document does not hold exactly this one action');
  } else if (!isDeepStrictEqual(actions[0], expected)) {
    problems.push(
      `the published action ${JSON.stringify(actions[0])} differs from the declaration ${JSON.stringify(expected)}`,
    );
  }
  return findings('metadata', problems);
};

export const checkPreflight: ConformanceCheck = async (target) => {
  const origin = originOf(target);
  const answer = await send(target.app, 'OPTIONS', target.path, {
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': PROXY_HEADERS.join(','),
    },
  });
  const problems: string[] = [];
  if (answer.status !== 200) problems.push(`OPTIONS answered ${answer.status}, not 200`);
  if (answer.text !== '') problems.push('OPTIONS answered with a body');
  problems.push(...corsProblems(answer, origin, 'the preflight answer'));
  return findings('preflight', problems);
};

export const checkCors: ConformanceCheck = async (target) => {
  const origin = originOf(target);
  const call = baseCall(target);
  const answer = await send(target.app, 'POST', target.path, {
    ...call,
    headers: { ...call.headers, origin },
  });
  const problems = corsProblems(answer, origin, `the POST answer (${answer.status})`);
  const exposed = listed(answer, 'access-control-expose-headers');
  const hidden = EXPOSED_HEADERS.filter((name) => !exposed.includes(name));
  if (hidden.length > 0) problems.push(`the POST answer does not expose ${hidden.join(', ')}`);
  return findings('cors', problems);
};

export const checkRequestId: ConformanceCheck = async (target) => {
  const problems: string[] = [];
  const call = baseCall(target);
  const sentId = `conformance-${Date.now().toString(36)}`;
  const sentAt = Date.now();
  const echoed = await send(target.app, 'POST', target.path, {
    ...call,
    headers: { 'x-request-id': sentId },
  });
  const answeredAt = Date.now();
  if (header(echoed, 'x-request-id') !== sentId) {
    problems.push(`x-request-id ${sentId} came back as ${String(header(echoed, 'x-request-id'))}`);
  }
  const first = header(await send(target.app, 'POST', target.path, call), 'x-request-id');
  const second = header(await send(target.app, 'POST', target.path, call), 'x-request-id');
  if (!first || !second) problems.push('an answer to a request without x-request-id carries none');
  else if (first === second) problems.push(`two requests got the same id ${first}`);
  if (target.dataMode) {
    // Success and error envelopes both carry the timing metadata.
    const refused = await send(target.app, 'POST', target.path, { rawBody: '{' });
    const refusedAt = Date.now();
    for (const [answer, at] of [
      [echoed, answeredAt],
      [refused, refusedAt],
    ] as const) {
      const found = metadataProblems(answer, sentAt, at);
      problems.push(...found.map((p) => `in the ${answer.status} envelope: ${p}`));
    }
  }
  return findings('request-id', problems);
};
