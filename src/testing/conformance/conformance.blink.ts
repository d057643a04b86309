import type { ActionGetResponse, ActionPostResponse } from '@solana/actions-spec';
import { blinkName, blinkPath, caip2, SESSION_FIELD } from '../../blinks/blink-catalogue';
import { blinkParameters } from '../../blinks/blink-parameters';
import { ACTION_VERSION } from '../../blinks/blink-headers';
import { BLINKS_CONFIG, type BlinksConfig } from '../../blinks/blinks.config';
import { declaredChains } from '../../evm/chains/chain-registry';
import type { ConformanceCheck } from './conformance.types';
import { type Answer, CONFORMANCE_USER, header, quote, send } from './conformance.request';
import { findings } from './conformance.http-rules';
import { checkBlinkSignIn, sampleSession } from './conformance.blink-sign-in';

/** The parameter types the Actions spec (2.4) shows. */
const SPEC_TYPES = new Set([
  ...['text', 'email', 'url', 'number', 'date', 'datetime-local', 'textarea'],
  ...['select', 'radio', 'checkbox'],
]);

/** Headers every blink answer carries, refusals included: Dialect's client reads the first two. */
function headerProblems(answer: Answer, chains: string, what: string): string[] {
  const problems: string[] = [];
  if (header(answer, 'x-action-version') !== ACTION_VERSION) {
    problems.push(`${what} has X-Action-Version ${header(answer, 'x-action-version')}`);
  }
  if (header(answer, 'x-blockchain-ids') !== chains) {
    problems.push(
      `${what} has X-Blockchain-Ids ${header(answer, 'x-blockchain-ids')}, not ${chains}`,
    );
  }
  if (header(answer, 'access-control-allow-origin') !== '*') {
    problems.push(`${what} does not allow any origin`);
  }
  return problems;
}

/** The document: the spec's shape, its one linked action's fields those of the declaration. */
function documentProblems(
  blink: ActionGetResponse,
  target: Parameters<ConformanceCheck>[0],
): string[] {
  const problems: string[] = [];
  if (blink.type !== 'action') problems.push(`its type is ${String(blink.type)}, not action`);
  if (!/^https?:\/\//.test(blink.icon ?? ''))
    problems.push(`its icon ${blink.icon} is no absolute URL`);
  for (const field of ['title', 'description', 'label'] as const) {
    if (typeof blink[field] !== 'string' || blink[field] === '')
      problems.push(`it has no ${field}`);
  }
  const mapped = blinkParameters(target.params);
  const paid = target.declaration.price !== undefined;
  if ('problem' in mapped || paid) {
    const why =
      'problem' in mapped
        ? `a parameter the spec cannot show (${mapped.problem})`
        : 'it is paid, which a blink cannot do';
    if (blink.disabled !== true || typeof blink.error?.message !== 'string') {
      problems.push(`${why}, but it is not disabled with an error`);
    }
    return problems;
  }
  const linked = blink.links?.actions ?? [];
  if (linked.length !== 1) return [...problems, `it links ${linked.length} actions, not 1`];
  const [action] = linked;
  // A verified action's blink opens with its sign-in; the action's fields come once signed in.
  if (target.declaration.user === 'verified') {
    const href = `${blinkPath(blinkName(target.path))}/sign-in`;
    if (action.type !== 'message' || action.href !== href) {
      problems.push(`it needs a verified user, but opens with ${action.type} ${action.href}`);
    }
    return problems;
  }
  const mode = target.dataMode ? 'post' : 'transaction';
  if (action.type !== mode) problems.push(`its linked action is ${action.type}, not ${mode}`);
  if (!action.href.startsWith(blinkPath(blinkName(target.path)))) {
    problems.push(`its href ${action.href} is not the blink's`);
  }
  const names = (action.parameters ?? []).map((p) => p.name);
  const declared = target.params.filter((p) => p.fixed !== true).map((p) => p.name);
  if (names.join() !== declared.join()) {
    problems.push(`its fields ${names.join(', ')} are not the declared ${declared.join(', ')}`);
  }
  for (const p of action.parameters ?? []) {
    if (!SPEC_TYPES.has(p.type ?? 'text')) problems.push(`field ${p.name} has type ${p.type}`);
  }
  return problems;
}

/** A sample's values as a blink client sends them: text, in `data`. */
const asData = (params: object): Record<string, string> =>
  Object.fromEntries(
    Object.entries(params)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, String(value)]),
  );

/**
 * The action's blink (src/blinks): its document, each sample on the declared chain answered
 * through it in the spec's shape, and a malformed account refused `{message}`, every answer with
 * the spec's headers. A verified action's, signed in first (conformance.blink-sign-in.ts).
 */
export const checkBlink: ConformanceCheck = async (target) => {
  // BLINKS=off: there is no blink to check (docs/blinks.md).
  if (!target.app.get<BlinksConfig>(BLINKS_CONFIG).enabled) return findings('blink', []);
  const path = blinkPath(blinkName(target.path));
  const chains = declaredChains(target.declaration).map(caip2).join(',');
  const got = await send(target.app, 'GET', path);
  if (got.status !== 200) return findings('blink', [`GET ${path} answered ${quote(got)}`]);
  const blink = got.body as ActionGetResponse;
  const problems = [
    ...headerProblems(got, chains, `GET ${path}`),
    ...documentProblems(blink, target),
  ];
  const post = (body: unknown): Promise<Answer> =>
    send(target.app, 'POST', path, { rawBody: JSON.stringify(body) });
  const refused = await post({ account: 'not an address' });
  if (refused.status !== 400 && !(blink.disabled === true && refused.status === 422)) {
    problems.push(`a malformed account was answered ${quote(refused)}`);
  } else if (typeof (refused.body as { message?: unknown }).message !== 'string') {
    problems.push(`a refusal is not {message}: ${quote(refused)}`);
  }
  problems.push(...headerProblems(refused, chains, `POST ${path} refused`));
  if (blink.disabled === true) return findings('blink', problems);
  const verified = target.declaration.user === 'verified';
  const fields = target.params.filter((p) => p.fixed !== true).map((p) => p.name);
  const signedIn = verified ? await checkBlinkSignIn(target.app, path, fields) : { problems: [] };
  problems.push(...signedIn.problems);
  for (const sample of target.samples.filter((s) => s.chainId === undefined)) {
    const account = sample.userAddress ?? CONFORMANCE_USER;
    const session = verified
      ? await sampleSession(
          target.app,
          blinkName(target.path),
          target.declaration.chains.source,
          account,
          signedIn.session,
        )
      : undefined;
    const data = { ...asData(sample.params), ...(session && { [SESSION_FIELD]: session }) };
    const answer = await post({ account, data });
    const body = answer.body as ActionPostResponse | undefined;
    const expected = target.dataMode ? 'post' : 'transaction';
    if (answer.status !== 200 || body?.type !== expected) {
      problems.push(`sample ${JSON.stringify(sample.params)} was answered ${quote(answer)}`);
    } else if (body.type === 'transaction' && !body.transaction) {
      problems.push(`sample ${JSON.stringify(sample.params)} has no transaction`);
    }
  }
  return findings('blink', problems);
};
