import type { ActionParameter } from '../../src/contract/action.types';
import { validFiles } from '../../src/testing/conformance/conformance.values';
import { PROXY_HEADERS } from '../../src/publishing/platform-rules';
import { type Answer, jsonOf, NoAnswer, timedRequest } from './http';
import type { CheckOptions } from './options';
import type { Row } from './rows';

/** One request of `x-action-samples` (GET /api/openapi.json), as the declaration holds it. */
export interface Sample {
  params?: Record<string, unknown>;
  userAddress?: string;
  chainId?: number;
}

export interface ActionUnderCheck {
  /** The URL the check calls (on the deployment itself). */
  url: string;
  /** As published: `data` or transaction mode. */
  mode: 'data' | 'transaction';
  samples: readonly Sample[] | undefined;
  /** As published: file and image parameters make the sample a multipart request. */
  params: readonly ActionParameter[];
  /** OpenAPI names a security scheme: the action declares `user: 'verified'`. */
  verified?: boolean;
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

const listOf = (header: string | null): string[] =>
  (header ?? '').split(',').map((item) => item.trim().toLowerCase());

function allowsOrigin(answer: Answer, origin: string): boolean {
  const allowed = answer.headers.get('access-control-allow-origin');
  return allowed === '*' || allowed === origin;
}

/** The preflight a browser sends before the cross-origin POST. */
async function preflight(action: ActionUnderCheck, options: CheckOptions): Promise<Row> {
  const row = { what: 'CORS preflight', target: `OPTIONS ${new URL(action.url).pathname}` };
  try {
    const answer = await timedRequest(
      action.url,
      {
        method: 'OPTIONS',
        headers: {
          origin: options.origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': PROXY_HEADERS.join(','),
        },
      },
      options.maxMs,
    );
    const problems: string[] = [];
    if (answer.status < 200 || answer.status > 299) problems.push(`answered ${answer.status}`);
    if (!allowsOrigin(answer, options.origin)) {
      problems.push(`access-control-allow-origin does not allow ${options.origin}`);
    }
    if (!listOf(answer.headers.get('access-control-allow-methods')).includes('post')) {
      problems.push('access-control-allow-methods lacks POST');
    }
    const headers = listOf(answer.headers.get('access-control-allow-headers'));
    const missing = headers.includes('*') ? [] : PROXY_HEADERS.filter((h) => !headers.includes(h));
    if (missing.length > 0)
      problems.push(`access-control-allow-headers lacks ${missing.join(', ')}`);
    return problems.length > 0
      ? { ...row, result: 'FAIL', detail: problems.join('; '), ms: answer.ms }
      : {
          ...row,
          result: 'PASS',
          detail: `${answer.status}, the proxy's headers allowed`,
          ms: answer.ms,
        };
  } catch (error) {
    return failed(row, error);
  }
}

function failed(row: { what: string; target: string }, error: unknown): Row {
  if (error instanceof NoAnswer)
    return { ...row, result: 'FAIL', detail: error.message, ms: error.ms };
  return { ...row, result: 'FAIL', detail: error instanceof Error ? error.message : String(error) };
}

/** Why a 2xx answer is not what the platform accepts in this mode, if it is not. */
function shapeProblem(body: unknown, mode: ActionUnderCheck['mode']): string | undefined {
  const value = record(body);
  if (mode === 'data') {
    return value.success === true ? undefined : 'the data envelope does not say success: true';
  }
  if (typeof value.serializedTransaction !== 'string' || value.serializedTransaction === '') {
    return 'no serializedTransaction in the answer';
  }
  const chainId = Number(value.chainId);
  return Number.isInteger(chainId) && chainId > 0 ? undefined : 'no chainId in the answer';
}

/** The error text and code of a refusal, in either mode's shape. */
function refusal(body: unknown): { error: string; code: string | undefined } {
  const value = record(body);
  const code = value.code ?? record(value.data).code;
  return {
    error:
      typeof value.error === 'string' ? value.error : JSON.stringify(body ?? null).slice(0, 120),
    code: typeof code === 'string' ? code : undefined,
  };
}

/**
 * A sample's body: JSON, or multipart with the conformance kit's files (a sample holds no file)
 * when the action takes files, as the platform's proxy sends either.
 */
function sampleBody(
  sample: Sample,
  params: readonly ActionParameter[],
  headers: Record<string, string>,
): string | FormData {
  const files = Object.entries(validFiles(params));
  if (files.length === 0) {
    headers['content-type'] = 'application/json';
    return JSON.stringify({ params: sample.params ?? {} });
  }
  const form = new FormData();
  for (const [name, value] of Object.entries(sample.params ?? {})) {
    form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  for (const [name, file] of files) {
    form.append(name, new Blob([file.bytes], { type: file.type }), file.filename);
  }
  return form;
}

/** One declared sample, sent as the platform's proxy sends it. */
async function runSample(
  action: ActionUnderCheck,
  sample: Sample,
  index: number,
  options: CheckOptions,
): Promise<Row> {
  const row = { what: `sample ${index + 1}`, target: `POST ${new URL(action.url).pathname}` };
  const headers: Record<string, string> = { origin: options.origin };
  if (sample.userAddress !== undefined) headers['x-user-address'] = sample.userAddress;
  if (sample.chainId !== undefined) headers['x-chain-id'] = String(sample.chainId);
  let answer: Answer;
  try {
    answer = await timedRequest(
      action.url,
      { method: 'POST', headers, body: sampleBody(sample, action.params, headers) },
      options.maxMs,
    );
  } catch (error) {
    return failed(row, error);
  }
  const { ms } = answer;
  const body = jsonOf(answer);
  // Without a user's session (which only their wallet can sign), what can be checked is that the
  // deployment asks for one, as the platform's client will see it.
  if (action.verified) return sessionAsked(row, answer, body);
  if (answer.status < 200 || answer.status > 299) {
    const { error, code } = refusal(body);
    const detail = `${answer.status}${code ? ` ${code}` : ''}: ${error}`;
    return { ...row, result: 'FAIL', detail, ms };
  }
  const problem =
    shapeProblem(body, action.mode) ??
    (allowsOrigin(answer, options.origin)
      ? undefined
      : 'no access-control-allow-origin for another origin');
  return problem
    ? { ...row, result: 'FAIL', detail: `${answer.status}: ${problem}`, ms }
    : { ...row, result: 'PASS', detail: `${answer.status}, ${action.mode} mode answer`, ms };
}

/** A verified action's sample, sent without a session: 401 UNVERIFIED_USER naming how to sign in. */
function sessionAsked(row: { what: string; target: string }, answer: Answer, body: unknown): Row {
  const { error, code } = refusal(body);
  const challenge = answer.headers.get('www-authenticate') ?? '';
  const asked = answer.status === 401 && code === 'UNVERIFIED_USER' && /^Bearer/i.test(challenge);
  return asked
    ? { ...row, result: 'PASS', detail: '401, asks for a session (user: verified)', ms: answer.ms }
    : {
        ...row,
        result: 'FAIL',
        detail: `${answer.status}${code ? ` ${code}` : ''}: ${error} (a verified action must ask for a session)`,
        ms: answer.ms,
      };
}

/** The preflight, then each declared sample in turn (SKIP when the action declares none). */
export async function checkAction(action: ActionUnderCheck, options: CheckOptions): Promise<Row[]> {
  const rows = [await preflight(action, options)];
  const target = `POST ${new URL(action.url).pathname}`;
  if (action.samples === undefined) {
    rows.push({ what: 'samples', target, result: 'FAIL', detail: 'not in GET /api/openapi.json' });
  } else if (action.samples.length === 0) {
    rows.push({
      what: 'samples',
      target,
      result: 'SKIP',
      detail: 'the action declares no samples',
    });
  }
  for (const [index, sample] of (action.samples ?? []).entries()) {
    rows.push(await runSample(action, sample, index, options));
  }
  return rows;
}
