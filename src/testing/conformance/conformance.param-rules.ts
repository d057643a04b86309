import type { ActionParameter } from '../../contract/action.types';
import { KNOWN_CHAINS } from '../../evm/chains/known-chains';
import type { ActionUnderTest, ConformanceCheck } from './conformance.types';
import {
  type Answer,
  type Call,
  CONFORMANCE_USER,
  quote,
  sampleCall,
  send,
} from './conformance.request';
import {
  envelopeProblems,
  errorShapeProblems,
  errorText,
  executionProblems,
} from './conformance.shapes';
import { baseCall } from './conformance.target';
import { type BadValue, badValue, validFiles } from './conformance.values';
import { findings } from './conformance.http-rules';
import { paymentRequiredProblems } from './conformance.payment';

/** A 400 in the action's error shape whose `error` names `name` (problems, or none). */
function refusalProblems(
  target: ActionUnderTest,
  answer: Answer,
  what: string,
  name: RegExp,
): string[] {
  const problems: string[] = [];
  if (answer.status !== 400) return [`${what} answered ${quote(answer)}, not 400`];
  problems.push(...errorShapeProblems(answer, target.dataMode).map((p) => `${what}: ${p}`));
  if (!name.test(errorText(answer))) {
    problems.push(`${what}: the error "${errorText(answer)}" does not name ${name.source}`);
  }
  return problems;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const named = (name: string): RegExp => new RegExp(escape(name));

export const checkValidSamples: ConformanceCheck = async (target) => {
  if (target.samples.length === 0) {
    return findings('valid-samples', ['no valid sample: declare `samples` or pass `valid`']);
  }
  const problems: string[] = [];
  for (const [index, sample] of target.samples.entries()) {
    const what = `sample ${index + 1} ${JSON.stringify(sample.params)}`;
    const call = sampleCall(sample, validFiles(target.params));
    // A verified action's sample runs as its user, signed in.
    if (target.declaration.user === 'verified') {
      call.verifiedAs = sample.userAddress ?? CONFORMANCE_USER;
      call.verifiedOn = target.declaration.chains.source;
    }
    const answer = await send(target.app, 'POST', target.path, call);
    // A paid action answers a valid sample sent without payment with its terms.
    if (target.declaration.price) {
      problems.push(...paymentRequiredProblems(target, answer, what));
      continue;
    }
    if (answer.status !== 200) {
      problems.push(`${what} answered ${quote(answer)}`);
      continue;
    }
    const shape = target.dataMode ? envelopeProblems(answer, true) : executionProblems(answer);
    problems.push(...shape.map((p) => `${what}: ${p}`));
    const chainId = sample.chainId ?? target.declaration.chains.source;
    const answered = (answer.body as { chainId?: unknown }).chainId;
    if (!target.dataMode && answered !== chainId) {
      problems.push(`${what}: answered chain ${String(answered)}, not ${chainId}`);
    }
  }
  return findings('valid-samples', problems);
};

/** The base call with one parameter replaced by a bad value, or left out. */
export function withParam(target: ActionUnderTest, param: ActionParameter, bad?: BadValue): Call {
  const call = baseCall(target);
  const params = { ...call.params };
  const files = { ...call.files };
  delete params[param.name];
  delete files[param.name];
  if (bad && 'file' in bad) return { ...call, params, files: { ...files, [param.name]: bad.file } };
  if (bad) {
    params[param.name] = bad.value;
    // A structure cannot travel in a form: send it as JSON (the upload is then missing too).
    if (typeof bad.value === 'object' && bad.value !== null) return { ...call, params, files: {} };
  }
  return { ...call, params, files };
}

export const checkInvalidParams: ConformanceCheck = async (target) => {
  const problems: string[] = [];
  for (const param of target.params) {
    const bad = badValue(param);
    const shown = 'file' in bad ? `file ${bad.file.filename}` : JSON.stringify(bad.value);
    const answer = await send(target.app, 'POST', target.path, withParam(target, param, bad));
    problems.push(...refusalProblems(target, answer, `${param.name}=${shown}`, named(param.name)));
  }
  return findings('invalid-params', problems);
};

export const checkMissingParams: ConformanceCheck = async (target) => {
  const problems: string[] = [];
  const required = target.params.filter((p) => p.required && p.value === undefined && !p.fixed);
  for (const param of required) {
    const answer = await send(target.app, 'POST', target.path, withParam(target, param));
    const what = `without ${param.name}`;
    problems.push(...refusalProblems(target, answer, what, named(param.name)));
  }
  return findings('missing-params', problems);
};

export const checkErrorShape: ConformanceCheck = async (target) => {
  const answer = await send(target.app, 'POST', target.path, {
    ...baseCall(target),
    rawBody: '{"params": ',
  });
  const problems = refusalProblems(target, answer, 'a body that is not JSON', /./);
  return findings('error-shape', problems);
};

export const checkUserAddress: ConformanceCheck = async (target) => {
  if (!target.declaration.requiresUser) return [];
  const call = baseCall(target);
  const problems: string[] = [];
  const user = /user.?address/i;
  const without = await send(target.app, 'POST', target.path, { ...call, userAddress: undefined });
  problems.push(...refusalProblems(target, without, 'without a user address', user));
  const malformed = await send(target.app, 'POST', target.path, { ...call, userAddress: '0xnope' });
  problems.push(...refusalProblems(target, malformed, 'with user address 0xnope', user));
  return findings('user-address', problems);
};

export const checkChain: ConformanceCheck = async (target) => {
  const { source, destination } = target.declaration.chains;
  const other = KNOWN_CHAINS.find(({ id }) => id !== source && id !== destination);
  if (!other) return [];
  const answer = await send(target.app, 'POST', target.path, {
    ...baseCall(target),
    chainId: other.id,
  });
  const what = `chain ${other.id}, which the action does not declare`;
  const problems = refusalProblems(target, answer, what, new RegExp(`\\b${other.id}\\b`));
  const body = answer.body as { code?: unknown; data?: { code?: unknown } } | undefined;
  const code = target.dataMode ? body?.data?.code : body?.code;
  if (answer.status === 400 && code !== 'UNSUPPORTED_CHAIN') {
    problems.push(`${what}: code ${String(code)}, not UNSUPPORTED_CHAIN`);
  }
  return findings('chain', problems);
};
