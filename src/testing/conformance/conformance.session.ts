import type { ConformanceCheck, ConformanceFinding } from './conformance.types';
import { baseCall } from './conformance.target';
import { CONFORMANCE_USER, header, quote, send } from './conformance.request';

/** Another user than CONFORMANCE_USER: what a forged claim names. */
const OTHER_USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

const codeOf = (body: unknown, dataMode: boolean): unknown => {
  const answer = body as { code?: unknown; data?: { code?: unknown } } | undefined;
  return dataMode ? answer?.data?.code : answer?.code;
};

/**
 * An action declared `user: 'verified'`: without a session it answers 401 `UNVERIFIED_USER` with
 * a WWW-Authenticate naming the sign-in route; with a session of one user and a claim of another,
 * 403 `USER_MISMATCH`.
 */
export const checkVerifiedUser: ConformanceCheck = async (target) => {
  if (target.declaration.user !== 'verified') return [];
  const problems: string[] = [];
  const call = { ...baseCall(target), verifiedAs: undefined };
  const without = await send(target.app, 'POST', target.path, call);
  if (without.status !== 401) problems.push(`without a session: ${quote(without)}, not 401`);
  else {
    if (codeOf(without.body, target.dataMode) !== 'UNVERIFIED_USER')
      problems.push(
        `without a session: code ${String(codeOf(without.body, target.dataMode))}, not UNVERIFIED_USER`,
      );
    if (!/^Bearer .*\/api\/auth\/siwe/.test(header(without, 'www-authenticate') ?? ''))
      problems.push('without a session: no WWW-Authenticate naming /api/auth/siwe');
  }
  const other = await send(target.app, 'POST', target.path, {
    ...call,
    userAddress: OTHER_USER,
    verifiedAs: CONFORMANCE_USER,
  });
  if (other.status !== 403 || codeOf(other.body, target.dataMode) !== 'USER_MISMATCH') {
    problems.push(
      `a session of ${CONFORMANCE_USER} claiming ${OTHER_USER}: ${quote(other)}, not 403 USER_MISMATCH`,
    );
  }
  return problems.map((problem): ConformanceFinding => ({ rule: 'verified-user', problem }));
};
