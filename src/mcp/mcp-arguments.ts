import type { ActionParameter } from '../contract/action.types';
import { isUploadType } from '../kit/params';
import { CHAIN_ARGUMENT, USER_ARGUMENT } from './mcp-schemas';
import type { ActionTool } from './mcp-tools';

/** A tool call's arguments as the action's own route takes them: a body and context headers. */
export interface RouteRequest {
  contentType: string;
  payload: Buffer | string;
  /** x-user-address and x-source-chain, as the HTTP route reads them. */
  headers: Record<string, string>;
}

/** Arguments the tool cannot pass on: refused before the route runs, in words for the agent. */
export class ArgumentRefusal extends Error {}

type Bag = Record<string, unknown>;
const isBag = (value: unknown): value is Bag =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Base64 (standard or URL-safe, padding optional); Buffer.from would skip what is not. */
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

function fileOf(
  param: ActionParameter,
  value: unknown,
  at: string,
): { name: string; bytes: Buffer } {
  const file = isBag(value) ? value : undefined;
  const data = typeof value === 'string' ? value : file?.data;
  if (typeof data !== 'string') {
    throw new ArgumentRefusal(`${at} must be {"data": "<base64>", "name"?: "<file name>"}`);
  }
  const compact = data.replace(/\s+/g, '');
  if (!BASE64.test(compact)) throw new ArgumentRefusal(`${at}.data must be base64`);
  const name = typeof file?.name === 'string' && file.name !== '' ? file.name : param.name;
  return { name: name.slice(0, 255), bytes: Buffer.from(compact, 'base64') };
}

/** A form field's text: the platform's multipart form sends every value so. */
const fieldText = (value: unknown): string =>
  typeof value === 'string' ? value : JSON.stringify(value);

/**
 * The multipart form an upload's route reads, as the platform's SDK sends one: text fields,
 * and each file under its parameter's name (`name[i]` for several). Built by the platform's own
 * FormData and Request, never by hand.
 */
async function multipart(
  params: readonly ActionParameter[],
  values: Bag,
): Promise<Pick<RouteRequest, 'contentType' | 'payload'>> {
  const form = new FormData();
  for (const param of params) {
    if (!Object.hasOwn(values, param.name)) continue;
    const value = values[param.name];
    if (!isUploadType(param.type)) {
      form.append(param.name, fieldText(value));
      continue;
    }
    const files = param.multiple && Array.isArray(value) ? value : [value];
    files.forEach((item, i) => {
      const at = param.multiple ? `${param.name}[${i}]` : param.name;
      const { name, bytes } = fileOf(param, item, at);
      form.append(at, new Blob([new Uint8Array(bytes)]), name);
    });
  }
  const request = new Request('http://mcp.invalid/', { method: 'POST', body: form });
  return {
    contentType: request.headers.get('content-type') ?? 'multipart/form-data',
    payload: Buffer.from(await request.arrayBuffer()),
  };
}

/**
 * Maps a tool call's arguments to the action's route: `user` and `chain` to the headers a
 * platform call would carry (claims, judged by the route as any header is), the parameters to
 * `{params}` (a JSON body), or to a multipart form when the action takes files. Only the tool's
 * own names are passed on; another is refused, as a blink refuses one.
 */
export async function routeRequest(action: ActionTool, args: unknown): Promise<RouteRequest> {
  const values = args === undefined ? {} : args;
  if (!isBag(values)) throw new ArgumentRefusal('The arguments must be an object');
  const open = action.params.filter((param) => param.fixed !== true);
  const names = new Set([...open.map((param) => param.name), USER_ARGUMENT, CHAIN_ARGUMENT]);
  const unknown = Object.keys(values).find((name) => !names.has(name));
  if (unknown !== undefined) {
    throw new ArgumentRefusal(`${unknown.slice(0, 40)} is not an argument of this tool`);
  }
  const headers: Record<string, string> = {};
  const { [USER_ARGUMENT]: user, [CHAIN_ARGUMENT]: chain } = values;
  if (user !== undefined) headers['x-user-address'] = fieldText(user);
  if (chain !== undefined) headers['x-source-chain'] = fieldText(chain);
  const params = Object.fromEntries(
    open.filter((param) => Object.hasOwn(values, param.name)).map((p) => [p.name, values[p.name]]),
  );
  if (open.some((param) => isUploadType(param.type))) {
    return { ...(await multipart(open, params)), headers };
  }
  return { contentType: 'application/json', payload: JSON.stringify({ params }), headers };
}
