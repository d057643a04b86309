import type { ActionParameter } from '../../src/contract/action.types';
import { checkPlatformMetadata } from '../../src/publishing/platform-metadata';
import { CHAIN_ACTION_TYPES } from '../../src/kit/chain-actions/chain-action.rules';
import { type ActionUnderCheck, checkAction, type Sample } from './actions';
import { chainActionRows } from './chain-actions';
import { jsonOf, NoAnswer, timedRequest } from './http';
import type { CheckOptions } from './options';
import type { Row } from './rows';
import { actionUrl, httpsProblem, publishedUrlProblems } from './urls';

type Json = Record<string, unknown>;

const record = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A GET whose answer must be a 200 JSON object; the row says what came back. */
async function getJson(
  options: CheckOptions,
  what: string,
  path: string,
  judge: (body: Json) => string[] = () => [],
): Promise<{ row: Row; body?: Json }> {
  const row = { what, target: `GET ${path}` };
  try {
    const answer = await timedRequest(`${options.baseUrl}${path}`, {}, options.maxMs);
    const body = jsonOf(answer);
    if (answer.status !== 200 || typeof body !== 'object' || body === null) {
      const detail = `answered ${answer.status}${body === undefined ? ', not JSON' : ''}`;
      return { row: { ...row, result: 'FAIL', detail, ms: answer.ms } };
    }
    const problems = judge(body as Json);
    const detail = problems.length > 0 ? problems.join('; ') : '200';
    const result = problems.length > 0 ? 'FAIL' : 'PASS';
    return { row: { ...row, result, detail, ms: answer.ms }, body: body as Json };
  } catch (error) {
    const ms = error instanceof NoAnswer ? error.ms : undefined;
    return { row: { ...row, result: 'FAIL', detail: (error as Error).message, ms } };
  }
}

function urlsRow(target: string, base: URL, urls: [name: string, value: unknown][]): Row {
  const problems = urls.flatMap(([name, value]) => publishedUrlProblems(value, base, name));
  return problems.length > 0
    ? { what: 'published URLs', target, result: 'FAIL', detail: problems.join('; ') }
    : {
        what: 'published URLs',
        target,
        result: 'PASS',
        detail: `${urls.length} on ${base.origin}${base.protocol === 'https:' ? '' : ' (local http)'}`,
      };
}

/**
 * What OpenAPI says of each action's POST operation, by path: its `x-action-samples`, and whether
 * it names a security scheme (the action declares `user: 'verified'`).
 */
function operationsByPath(document: Json): {
  samples: Map<string, Sample[]>;
  verified: Set<string>;
} {
  const samples = new Map<string, Sample[]>();
  const verified = new Set<string>();
  for (const [path, item] of Object.entries(record(document.paths))) {
    const post = record(record(item).post);
    if (Array.isArray(post['x-action-samples']))
      samples.set(path, post['x-action-samples'] as Sample[]);
    if (Array.isArray(post.security) && post.security.length > 0) verified.add(path);
  }
  return { samples, verified };
}

/** The icon a document names answers as an image (when it is the deployment's own). */
async function iconRow(icon: unknown, base: URL, options: CheckOptions): Promise<Row | undefined> {
  if (typeof icon !== 'string' || publishedUrlProblems(icon, base, 'icon').length > 0)
    return undefined;
  const url = new URL(icon);
  const row = { what: 'icon', target: `GET ${url.pathname}` };
  try {
    const answer = await timedRequest(url.href, {}, options.maxMs);
    const type = answer.headers.get('content-type') ?? '';
    return answer.status === 200 && type.startsWith('image/')
      ? { ...row, result: 'PASS', detail: `200 ${type}`, ms: answer.ms }
      : { ...row, result: 'FAIL', detail: `answered ${answer.status} ${type}`, ms: answer.ms };
  } catch (error) {
    return { ...row, result: 'FAIL', detail: (error as Error).message };
  }
}

/**
 * Every check against one deployment, in order: the base URL, the index, the API document's
 * samples, then per mini-app its document (platform rules, URLs, icon) and per action the CORS
 * preflight and each declared sample, then the MCP endpoint: its tools, each action's samples
 * through its tool.
 */
export async function runCheck(options: CheckOptions): Promise<Row[]> {
  const base = new URL(options.baseUrl);
  const https = httpsProblem(base, 'the base URL');
  const rows: Row[] = [
    https
      ? { what: 'https', target: base.origin, result: 'FAIL', detail: https }
      : {
          what: 'https',
          target: base.origin,
          result: 'PASS',
          detail: base.protocol === 'https:' ? 'https' : 'local http',
        },
  ];
  const index = await getJson(options, 'index', '/api/metadata', (body) =>
    list(body.miniApps).length > 0 ? [] : ['lists no mini-apps'],
  );
  rows.push(index.row);
  if (!index.body) return rows;
  const miniApps = list(index.body.miniApps).map(record);
  rows.push(
    urlsRow('GET /api/metadata', base, [
      ['baseUrl', index.body.baseUrl],
      ...miniApps.flatMap((app): [string, unknown][] => [
        [`${String(app.id)} metadataUrl`, app.metadataUrl],
        [`${String(app.id)} icon`, app.icon],
      ]),
    ]),
  );
  const openApi = await getJson(options, 'API document', '/api/openapi.json');
  rows.push(openApi.row);
  const { samples, verified } = openApi.body
    ? operationsByPath(openApi.body)
    : { samples: new Map<string, Sample[]>(), verified: new Set<string>() };
  const checked = new Set<string>();
  const targets: ActionUnderCheck[] = [];
  const wanted = options.actions;
  for (const app of miniApps) {
    const path = `/api/mini-apps/${encodeURIComponent(String(app.id))}`;
    const document = await getJson(options, 'mini-app document', path, checkPlatformMetadata);
    const doc = document.body;
    const actions = list(doc?.actions).map(record);
    // With --action, a mini-app is checked only when it holds one of the wanted actions.
    if (wanted && !actions.some((a) => wanted.includes(String(a.path)))) continue;
    rows.push(document.row);
    if (!doc) continue;
    // Chain actions (blockchain, transfer) have no path: their own rows say what they send.
    const urls = actions.flatMap((action, i): [string, unknown][] =>
      CHAIN_ACTION_TYPES.includes(String(action.type))
        ? []
        : [
            [
              `actions[${i}]`,
              typeof action.path === 'string' ? actionUrl(action.path, doc.baseUrl) : undefined,
            ],
          ],
    );
    rows.push(
      urlsRow(path, base, [
        ['url', doc.url],
        ['icon', doc.icon],
        ['baseUrl', doc.baseUrl],
        ...urls,
      ]),
    );
    rows.push(...chainActionRows(path, actions));
    const icon = await iconRow(doc.icon, base, options);
    if (icon) rows.push(icon);
    for (const action of actions) {
      if (typeof action.path !== 'string') continue;
      if (wanted && !wanted.includes(action.path)) continue;
      // The deployment itself is what is checked, wherever a wrong URL would send the platform.
      const pathname = new URL(actionUrl(action.path, doc.baseUrl), base).pathname;
      if (checked.has(pathname)) continue;
      checked.add(pathname);
      const target: ActionUnderCheck = {
        url: `${base.origin}${pathname}`,
        mode: action.responseType === 'data' ? 'data' : 'transaction',
        samples: openApi.body ? (samples.get(pathname) ?? undefined) : undefined,
        params: list(action.params) as ActionParameter[],
        verified: verified.has(pathname),
      };
      targets.push(target);
      rows.push(...(await checkAction(target, options)));
    }
  }
  // The same actions as an agent calls them: their MCP tools. The SDK's client loads only now
  // (a second of CPU a usage error need not pay).
  if (targets.length > 0) {
    const { mcpRows } = await import('./mcp');
    rows.push(...(await mcpRows(options, targets)));
  }
  const published = [...checked];
  for (const path of wanted ?? []) {
    if (published.some((p) => p === path || p.endsWith(path))) continue;
    rows.push({ what: 'action', target: path, result: 'FAIL', detail: 'no mini-app publishes it' });
  }
  return rows;
}
