import { request } from 'node:http';

/**
 * An answer read from a real socket: status, headers as Node parsed them and the body as text, so a
 * test sees exactly what a client would.
 */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One plain HTTP request to 127.0.0.1 over a real socket (node:http, which no tracing patches). */
export function httpRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A GET (or `method`, for HEAD and OPTIONS) to 127.0.0.1:`port` over a real socket. */
export const httpGet = (port: number, path: string, method = 'GET'): Promise<HttpAnswer> =>
  httpRequest(port, method, path);

/** A JSON POST, as a mini-app client sends it. */
export const httpPost = (
  port: number,
  path: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> =>
  httpRequest(
    port,
    'POST',
    path,
    { 'content-type': 'application/json', ...headers },
    JSON.stringify(payload),
  );
