import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp } from '../support/app.factory';
import { UploadFixtureModule } from '../fixtures/upload.fixture';
import { RawClient } from '../support/raw-http.helper';
import { png } from '../../src/testing/sample-files';
import { formBody } from '../support/multipart.helper';

const BODY_LIMIT_BYTES = 1024;
const UPLOAD_MAX_BYTES = 65_536;

/**
 * curl and other clients send `Expect: 100-continue` before any body over 1 MiB: an upload is
 * judged against UPLOAD_MAX_BYTES there, not against the JSON body limit.
 */
describe('Expect: 100-continue on an upload', () => {
  let app: NestFastifyApplication;
  let port: number;

  beforeAll(async () => {
    app = await createTestApp({
      env: {
        BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES),
        UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES),
      },
      actions: [UploadFixtureModule],
    });
    await app.listen(0, '127.0.0.1');
    ({ port } = app.getHttpServer().address() as { port: number });
  });
  afterAll(() => app.close());

  const head = (contentType: string, length: number): string =>
    `POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\n` +
    `Content-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`;

  it('continues an upload over BODY_LIMIT_BYTES but within UPLOAD_MAX_BYTES, then serves it', async () => {
    const { body, contentType } = await formBody([
      ['avatar', { bytes: png(64, 48), filename: 'a.png', type: 'image/png' }],
      ['gallery[0]', { bytes: png(32, 32, 1), filename: 'b.png', type: 'image/png' }],
      ['gallery[1]', { bytes: png(32, 32, 2), filename: 'c.png', type: 'image/png' }],
    ]);
    expect(body.length).toBeGreaterThan(BODY_LIMIT_BYTES);
    const client = await RawClient.open(port);
    client.write(head(contentType, body.length));
    await client.waitFor('HTTP/1.1 100 Continue\r\n\r\n');
    client.socket.write(body);
    const answer = await client.waitFor('"success":true');
    expect(answer).toMatch(/HTTP\/1\.1 200 OK/);
    client.destroy();
  });

  it('refuses an upload declared over UPLOAD_MAX_BYTES with 413 before 100 Continue', async () => {
    const client = await RawClient.open(port);
    client.write(head('multipart/form-data; boundary=x', UPLOAD_MAX_BYTES + 1));
    const raw = await client.closed;
    expect(raw).not.toMatch(/100 Continue/);
    expect(raw).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('still refuses a JSON body declared over BODY_LIMIT_BYTES before 100 Continue', async () => {
    const client = await RawClient.open(port);
    client.write(head('application/json', BODY_LIMIT_BYTES + 1));
    const raw = await client.closed;
    expect(raw).not.toMatch(/100 Continue/);
    expect(raw).toMatch(/^HTTP\/1\.1 413 /);
  });
});
