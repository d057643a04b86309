import fc from 'fast-check';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ActionParameter, DynamicAction } from '../../src/contract/action.types';
import { isUploadType } from '../../src/kit/params';
import { type Delivery, encode } from './fuzz.encoding';
import { invalidValue, validValue } from './param.arbitraries';
import { Upload } from './upload.arbitraries';

/** Statuses the contract lists. */
const CONTRACT_STATUSES = new Set([200, 400, 403, 404, 413, 429, 500, 503]);
const LEAKS = [/\n\s+at /, /https?:\/\//, /127\.0\.0\.1/, /localhost/, /node_modules/];

export interface FuzzAction {
  action: DynamicAction;
  /** The action calls an upstream (HTTP API, RPC) that the fuzz environment keeps unreachable. */
  upstream?: boolean;
  /** Actions that need the acting user get a valid address unless the case says otherwise. */
  requiresUser?: boolean;
  /**
   * A session token for ADDRESS, for an action declaring `user: 'verified'`: every case is signed
   * in, and a valid claimed address is ADDRESS (another would be the 403 of docs/verified-users.md).
   */
  session?: string;
}

interface Case {
  values: Record<string, unknown>;
  delivery: Delivery;
  /** The one parameter made invalid or left out, if any. */
  broken?: { name: string; missing: boolean };
  headers: Record<string, string>;
  /** Context problem the headers carry (malformed address or chain), if any. */
  badContext?: string;
  extra: Record<string, unknown>;
}

export const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

type HeaderCase = { header: string; value: string; bad: boolean } | undefined;

/** Header aliases with good and malformed addresses and chains (only the first present alias counts). */
const contextHeaders = fc.record({
  address: fc.constantFrom<HeaderCase>(
    undefined,
    { header: 'x-user-address', value: ADDRESS, bad: false },
    { header: 'x-wallet-address', value: ADDRESS.toLowerCase(), bad: false },
    { header: 'x-user-address', value: '0xnope', bad: true },
    { header: 'x-wallet-address', value: '0x52908400098527886e0F7030069857D2E4169EE7', bad: true },
  ),
  chain: fc.constantFrom<HeaderCase>(
    undefined,
    { header: 'x-source-chain', value: '43113', bad: false },
    { header: 'x-chain-id', value: '1.5', bad: true },
    { header: 'x-source-chain', value: 'fuji', bad: false },
    { header: 'x-chain-id', value: ' Avalanche Fuji Testnet ', bad: false },
    { header: 'x-source-chain', value: 'narnia', bad: true },
    // Known to the platform, declared by no shipped action: UNSUPPORTED_CHAIN.
    { header: 'x-chain-id', value: 'ethereum', bad: true },
  ),
});

const extraKeys = fc.dictionary(
  fc.constantFrom('__proto__', 'constructor', 'toString', 'zzz', 'ünï', 'params2'),
  fc.oneof(fc.string(), fc.integer(), fc.object({ maxDepth: 2 })),
  { maxKeys: 3 },
);

/** Scalars and files travel in a multipart body; structures cannot. */
const multipartSafe = (value: unknown): boolean =>
  value instanceof Upload || value === null || typeof value !== 'object';

function caseArb(target: FuzzAction): fc.Arbitrary<Case> {
  const params = target.action.params ?? [];
  // Files only travel in multipart bodies, as the platform sends them.
  const multipart = params.some((p) => isUploadType(p.type));
  const deliveries: Delivery[] = multipart
    ? ['multipart', 'multipart-query']
    : ['params', 'flat', 'query', 'mixed'];
  const values = fc.record(Object.fromEntries(params.map((p) => [p.name, validValue(p)])));
  const breakable = params.filter(
    (p) => p.required || p.type !== 'string' || p.maxLength !== undefined,
  );
  const broken: fc.Arbitrary<
    { param: ActionParameter; missing: boolean; value: unknown } | undefined
  > =
    breakable.length === 0
      ? fc.constant(undefined)
      : fc.option(
          fc.constantFrom(...breakable).chain((param) =>
            fc.oneof(
              ...(param.required && param.value === undefined
                ? [fc.constant({ param, missing: true, value: undefined })]
                : []),
              invalidValue(param)
                .filter((value) => !multipart || multipartSafe(value))
                .map((value) => ({ param, missing: false, value })),
            ),
          ),
          { nil: undefined, freq: 2 },
        );
  return fc
    .record({
      values,
      broken,
      context: contextHeaders,
      delivery: fc.constantFrom(...deliveries),
      extra: extraKeys,
    })
    .map(({ values: v, broken: b, context, delivery, extra }) => {
      const headers: Record<string, string> = {};
      if (context.address) {
        const signedIn = target.session !== undefined && !context.address.bad;
        headers[context.address.header] = signedIn ? ADDRESS : context.address.value;
      } else if (target.requiresUser) headers['x-user-address'] = ADDRESS;
      if (target.session) headers.authorization = `Bearer ${target.session}`;
      if (context.chain) headers[context.chain.header] = context.chain.value;
      const badContext = context.address?.bad
        ? 'userAddress'
        : context.chain?.bad
          ? 'sourceChain'
          : undefined;
      const out = { ...v };
      if (b?.missing) delete out[b.param.name];
      else if (b) out[b.param.name] = b.value;
      // Structured (invalid) values only travel in JSON: a query string would flatten them to text.
      const safeDelivery =
        b && !b.missing && (delivery === 'query' || delivery === 'mixed') ? 'params' : delivery;
      return {
        values: out,
        delivery: safeDelivery,
        broken: b && { name: b.param.name, missing: b.missing },
        headers,
        badContext,
        extra,
      };
    });
}

/** The property every answer must satisfy, checked for one generated case. */
async function check(app: NestFastifyApplication, target: FuzzAction, c: Case): Promise<void> {
  const { url, payload, headers } = await encode(target.action.path, c);
  const response = await app.inject({ method: 'POST', url, payload, headers });
  const fail = (why: string): never => {
    throw new Error(
      `${why}\nrequest: ${url} ${String(payload ?? '').slice(0, 2000)} ${JSON.stringify(headers)}\nresponse: ${response.statusCode} ${response.body}`,
    );
  };
  if (!String(response.headers['content-type']).startsWith('application/json'))
    fail('answer is not JSON');
  const status = response.statusCode;
  const body = response.json<Record<string, unknown>>();
  if (!CONTRACT_STATUSES.has(status)) fail(`status ${status} is not one the contract lists`);
  // An answer may echo what was sent (a URL parameter); anything else matching is a leak.
  const unsent = Object.values(c.values)
    .filter((v): v is string => typeof v === 'string' && v !== '')
    .sort((a, b) => b.length - a.length) // a longer value may contain a shorter one
    .reduce((text, v) => text.split(JSON.stringify(v).slice(1, -1)).join(''), response.body);
  if (LEAKS.some((leak) => leak.test(unsent))) fail('answer leaks a stack or an internal URL');
  const dataMode = target.action.responseType === 'data';
  if (dataMode) {
    if (typeof body.success !== 'boolean' || body.statusCode !== status)
      fail('not a data envelope matching the status');
    if ((status === 200) !== body.success) fail('success does not match the status');
  } else if (status === 200) {
    if (typeof body.serializedTransaction !== 'string' || !Number.isInteger(body.chainId))
      fail('not an ExecutionResponse');
  } else if (typeof body.error !== 'string' || typeof body.code !== 'string' || 'success' in body) {
    fail('not a transaction error body');
  }
  if (status >= 500 && !target.upstream) fail('5xx from an action with no upstream');
  const named = (name: string): boolean =>
    dataMode
      ? ((body.data as { invalidParams?: string[] } | undefined)?.invalidParams ?? []).includes(
          name,
        )
      : String(body.error).includes(name);
  if (c.badContext) {
    if (status !== 400 || !named(c.badContext))
      fail(`malformed ${c.badContext} not refused by name`);
  } else if (c.broken) {
    if (status !== 400 || !named(c.broken.name))
      fail(`invalid ${c.broken.name} not refused by name`);
  } else if (status === 400 && /is required|must be/.test(String(body.error))) {
    fail('valid input refused as invalid');
  }
}

/** Runs the property for one action; `numRuns` from the caller (a few hundred in npm test). */
export async function fuzzAction(
  app: NestFastifyApplication,
  target: FuzzAction,
  numRuns: number,
  onRun?: () => void,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(caseArb(target), async (c) => {
      await check(app, target, c);
      onRun?.();
    }),
    { numRuns },
  );
}
