import type { IncomingMessage } from 'node:http';
import { EdgeReplies } from './edge-reply';

const CORS = {
  methods: 'GET, POST',
  allowedHeaders: 'Content-Type',
  exposedHeaders: 'x-request-id',
};
const request = (headers: Record<string, string>): IncomingMessage =>
  ({ headers }) as unknown as IncomingMessage;

describe('EdgeReplies', () => {
  const replies = (allowedOrigins: string[] = []): EdgeReplies =>
    new EdgeReplies({ ...CORS, allowedOrigins }, (req) => `id-of-${req.headers.host}`);

  it('answers in the data envelope, its requestId in x-request-id', () => {
    const answer = replies().answer(408, undefined, 'req-1');
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toEqual({
      success: false,
      error: 'Request timeout',
      message: 'The request took too long to arrive',
      statusCode: 408,
      metadata: { timestamp: expect.any(Number), requestId: 'req-1' },
    });
    expect(answer.headers).toMatchObject({
      'x-request-id': 'req-1',
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST',
      'content-length': String(Buffer.byteLength(answer.body)),
    });
  });

  it('takes the request id from the request when there is one, else a fresh UUID', () => {
    expect(replies().answer(413, request({ host: 'h' })).headers['x-request-id']).toBe('id-of-h');
    expect(replies().answer(400).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('with ALLOWED_ORIGINS, reflects only a listed Origin', () => {
    const listed = replies(['https://app.example.com']);
    const origin = (headers: Record<string, string>) =>
      listed.answer(413, request(headers)).headers['access-control-allow-origin'];
    expect(origin({ origin: 'https://app.example.com' })).toBe('https://app.example.com');
    expect(origin({ origin: 'https://evil.example.com' })).toBeUndefined();
    expect(origin({})).toBeUndefined();
    expect(listed.answer(400).headers.vary).toBe('Origin');
  });

  it('writes raw HTTP/1.1 text that closes the connection', () => {
    const r = replies();
    const text = r.raw(r.answer(431, undefined, 'x'));
    expect(text).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(text).toMatch(/\r\nconnection: close\r\n/);
    const [head, body] = text.split('\r\n\r\n');
    expect(head).toMatch(new RegExp(`content-length: ${Buffer.byteLength(body)}`));
    expect(JSON.parse(body)).toMatchObject({ statusCode: 431 });
  });

  it('never shows internal texts for a server error', () => {
    const body = JSON.parse(replies().answer(500).body) as Record<string, unknown>;
    expect(body).toMatchObject({ error: 'Internal server error', statusCode: 500 });
  });
});
