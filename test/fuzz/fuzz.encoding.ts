import { formBody } from '../support/multipart.helper';
import { Upload } from './upload.arbitraries';

export type Delivery = 'params' | 'flat' | 'query' | 'mixed' | 'multipart' | 'multipart-query';

/** What a generated case sends: its values, how they travel, and its headers. */
export interface Sendable {
  values: Record<string, unknown>;
  delivery: Delivery;
  headers: Record<string, string>;
  extra: Record<string, unknown>;
}

export interface Encoded {
  url: string;
  payload?: string | Buffer;
  headers: Record<string, string>;
}

const query = (pairs: [string, unknown][]): string =>
  pairs.length === 0
    ? ''
    : `?${new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, String(v)])).toString()}`;

/**
 * A multipart body as the platform sends one: files under the parameter's name (several as
 * `name[i]`), text fields, the context as `_sdk_context`, the label as `action`; with
 * `multipart-query`, the text values in the query string instead.
 */
async function multipart(path: string, c: Sendable): Promise<Encoded> {
  const entries = Object.entries(c.values).filter(([, v]) => v !== undefined);
  const files = entries.filter(([, v]) => v instanceof Upload) as [string, Upload][];
  const texts = entries.filter(([, v]) => !(v instanceof Upload));
  const parts = files.flatMap(([name, upload]) =>
    upload.files.map(
      (file, i) => [upload.files.length > 1 ? `${name}[${i}]` : name, file] as const,
    ),
  );
  const inQuery = c.delivery === 'multipart-query';
  const fields = inQuery ? [] : texts.map(([k, v]) => [k, String(v)] as const);
  const { body, contentType } = await formBody([
    ...parts,
    ...fields,
    ['_sdk_context', JSON.stringify({ sourceChain: 43113 })],
    ['action', 'fuzz'],
  ]);
  return {
    url: path + (inQuery ? query(texts) : ''),
    payload: body,
    headers: { ...c.headers, 'content-type': contentType },
  };
}

export async function encode(path: string, c: Sendable): Promise<Encoded> {
  const entries = Object.entries(c.values);
  switch (c.delivery) {
    case 'multipart':
    case 'multipart-query':
      return multipart(path, c);
    case 'query':
      return { url: path + query(entries), headers: c.headers };
    case 'mixed': {
      const half = Math.ceil(entries.length / 2);
      const body = JSON.stringify({
        params: Object.fromEntries(entries.slice(0, half)),
        ...c.extra,
      });
      return {
        url: path + query(entries.slice(half)),
        payload: body,
        headers: { ...c.headers, 'content-type': 'application/json' },
      };
    }
    case 'flat':
      return {
        url: path,
        payload: JSON.stringify({ ...c.extra, ...c.values }),
        headers: { ...c.headers, 'content-type': 'application/json' },
      };
    case 'params':
      return {
        url: path,
        payload: JSON.stringify({ params: c.values, ...c.extra }),
        headers: { ...c.headers, 'content-type': 'application/json' },
      };
  }
}
