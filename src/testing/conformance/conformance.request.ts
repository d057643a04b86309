import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ActionSample } from '../../contract/action.types';
import { sessionToken } from './conformance.token';

/** A file part of a multipart request. */
export interface SampleFile {
  bytes: Buffer;
  filename: string;
  type: string;
}

/** One POST as the platform's proxy would send it. */
export interface Call {
  params?: Record<string, unknown>;
  /** Upload parameters: the request goes multipart, as the platform sends files. */
  files?: Record<string, SampleFile>;
  userAddress?: string;
  chainId?: number | string;
  headers?: Record<string, string>;
  /** Sent as is, with a JSON content type, instead of `{params}`. */
  rawBody?: string;
  /** Sent with a session token of the app for this address (an action declared `user: 'verified'`). */
  verifiedAs?: string;
  /**
   * The chain that session was signed in on when the call names none (`chainId`): the action's
   * source chain, which the request then runs on (a session of another chain is refused, 403).
   */
  verifiedOn?: number;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The parsed JSON body; `undefined` when the body is not JSON. */
  body: unknown;
  text: string;
}

/** A user the kit acts as when a sample names none. */
export const CONFORMANCE_USER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

async function multipart(call: Call): Promise<{ payload: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(call.params ?? {})) {
    // Form fields are text: numbers and booleans as a query would carry them.
    if (value !== undefined)
      form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  for (const [name, file] of Object.entries(call.files ?? {})) {
    form.append(name, new Blob([file.bytes], { type: file.type }), file.filename);
  }
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? 'multipart/form-data',
  };
}

export async function send(
  app: NestFastifyApplication,
  method: 'POST' | 'GET' | 'OPTIONS',
  path: string,
  call: Call = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...call.headers };
  if (call.userAddress !== undefined) headers['x-user-address'] = call.userAddress;
  if (call.chainId !== undefined) headers['x-chain-id'] = String(call.chainId);
  if (call.verifiedAs !== undefined) {
    const chainId = Number(call.chainId ?? 0) || (call.verifiedOn ?? 0);
    headers.authorization = `Bearer ${await sessionToken(app, call.verifiedAs, chainId)}`;
  }
  let payload: string | Buffer | undefined;
  if (method === 'POST') {
    if (call.rawBody !== undefined) {
      payload = call.rawBody;
      headers['content-type'] = 'application/json';
    } else if (call.files && Object.keys(call.files).length > 0) {
      const encoded = await multipart(call);
      payload = encoded.payload;
      headers['content-type'] = encoded.contentType;
    } else {
      payload = JSON.stringify({ params: call.params ?? {} });
      headers['content-type'] = 'application/json';
    }
  }
  const response = await app.inject({ method, url: path, headers, payload });
  return {
    status: response.statusCode,
    headers: response.headers,
    body: parse(response.body),
    text: response.body,
  };
}

/** A sample as a call, with the files the kit generates for its upload parameters. */
export function sampleCall(sample: ActionSample, files: Record<string, SampleFile>): Call {
  return {
    params: { ...sample.params },
    files,
    userAddress: sample.userAddress,
    chainId: sample.chainId,
  };
}

export const header = (answer: Answer, name: string): string | undefined => {
  const value = answer.headers[name.toLowerCase()];
  return value === undefined ? undefined : String(value);
};

/** What a finding quotes of an answer: status and the start of the body. */
export const quote = (answer: Answer): string =>
  `${answer.status} ${answer.text.length > 300 ? `${answer.text.slice(0, 300)}…` : answer.text}`;
