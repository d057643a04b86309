import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHash } from 'node:crypto';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { png } from '../../src/testing/sample-files';
import { createTestApp } from '../support/app.factory';
import { ADDRESS } from '../fixtures/kit.fixture';
import { UploadFixtureModule } from '../fixtures/upload.fixture';
import { formBody, RawUpload, requestHead } from '../support/multipart.helper';

/**
 * The platform SDK's upload as its proxy may forward it: the multipart body a browser's FormData
 * makes (files by name, `_sdk_context`, `action`), under the headers `buildProxyHeaders` writes,
 * `Content-Type: application/json` included (shared/platform/mini-app-platform.md).
 */
async function sdkUpload(
  app: NestFastifyApplication,
  url: string,
  entries: Parameters<typeof formBody>[0],
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { body } = await formBody([
    ...entries,
    ['_sdk_context', JSON.stringify({ userAddress: ADDRESS, sourceChain: 43113 })],
    ['action', 'Upload'],
  ]);
  return sendRaw(app, url, body, {
    'X-Sherry-Proxy': 'true',
    'X-Sherry-Version': '1.0.0',
    'Content-Type': 'application/json',
    'X-Timestamp': String(Date.now()),
    'X-Chain-ID': '43113',
    'X-Wallet-Address': ADDRESS,
  });
}

/** Over a real socket, as the proxy sends it (inject's body stream is not a socket's). */
async function sendRaw(
  app: NestFastifyApplication,
  url: string,
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { port } = app.getHttpServer().address() as { port: number };
  const client = new RawUpload(port);
  await client.write(
    Buffer.concat([
      Buffer.from(requestHead(url, { ...headers, 'Content-Length': String(body.length) })),
      body,
    ]),
  );
  const answer = await client.answered;
  client.destroy();
  return { status: answer.status, body: JSON.parse(answer.body) as Record<string, unknown> };
}

describe('Uploads labelled application/json (the SDK header builder)', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await createTestApp({ actions: [UploadFixtureModule, CalculatorModule] });
    await app.listen(0, '127.0.0.1');
  });
  afterAll(() => app.close());

  it('reads a multipart body labelled JSON as the upload it is, on an action with uploads', async () => {
    const avatar = png(64, 48);
    const { status, body } = await sdkUpload(app, '/api/upload?caption=hi', [
      ['avatar', { bytes: avatar, filename: 'me.png', type: 'image/png' }],
    ]);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      success: true,
      data: {
        caption: 'hi',
        userAddress: ADDRESS,
        avatar: {
          mimeType: 'image/png',
          width: 64,
          sha256: createHash('sha256').update(avatar).digest('hex'),
        },
      },
    });
  });

  it('keeps every upload bound: a file over its maxSize is still a 413', async () => {
    const { status, body } = await sdkUpload(app, '/api/upload', [
      [
        'gallery[0]',
        { bytes: Buffer.concat([png(8, 8), Buffer.alloc(5000)]), filename: 'big.png' },
      ],
    ]);
    expect({ status, error: body.error }).toEqual({
      status: 413,
      error: 'gallery must be at most 4096 bytes',
    });
  });

  it('answers a JSON-labelled body that is neither JSON nor multipart with a 400 in the envelope', async () => {
    const { status, body } = await sendRaw(app, '/api/upload', Buffer.from('caption=hello'), {
      'content-type': 'application/json',
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, error: 'Request body is not valid JSON' });
  });

  it('answers the same multipart body on an action without uploads with a 400', async () => {
    const { status, body } = await sdkUpload(app, '/api/calculator', [
      ['avatar', { bytes: png(4, 4), filename: 'me.png' }],
    ]);
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, error: 'Request body is not valid JSON' });
  });
});
