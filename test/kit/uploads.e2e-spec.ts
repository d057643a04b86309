import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { uploadsInFlight, uploadsSettled } from '../../src/kit/uploads/multipart-reader';
import { SPOOL_PREFIX, spoolRemovalsSettled } from '../../src/kit/uploads/upload-spool';
import { createTestApp, postJson } from '../support/app.factory';
import { ADDRESS } from '../fixtures/kit.fixture';
import { handled, UploadFixtureModule } from '../fixtures/upload.fixture';
import { gif, jpeg, pdf, png, webp } from '../../src/testing/sample-files';
import {
  chunked,
  formBody,
  type FormValue,
  RawUpload,
  requestHead,
} from '../support/multipart.helper';

const PATH = '/api/upload';
const MAX_BYTES = 65_536;
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const file = (bytes: Buffer, filename: string, type?: string): FormValue => ({
  bytes,
  filename,
  type,
});

interface Answer {
  status: number;
  body: {
    success: boolean;
    error?: string;
    data?: Record<string, unknown> & { invalidParams?: string[] };
  };
}

describe('Uploads (multipart/form-data, as the platform sends them)', () => {
  let app: NestFastifyApplication;
  let port: number;

  beforeAll(async () => {
    app = await createTestApp({
      env: { UPLOAD_MAX_BYTES: String(MAX_BYTES), UPLOAD_MAX_FILES: '4', BODY_LIMIT_BYTES: '4096' },
      actions: [UploadFixtureModule],
    });
    await app.listen(0, '127.0.0.1');
    ({ port } = app.getHttpServer().address() as { port: number });
  });
  afterAll(() => app.close());

  async function upload(
    entries: (readonly [string, FormValue])[],
    { query = '', headers = {} }: { query?: string; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const { body, contentType } = await formBody(entries);
    const response = await app.inject({
      method: 'POST',
      url: `${PATH}${query}`,
      headers: { 'content-type': contentType, ...headers },
      payload: body,
    });
    return { status: response.statusCode, body: response.json() };
  }

  async function expectRefused(
    entries: (readonly [string, FormValue])[],
    status: number,
    error: string,
  ): Promise<void> {
    const before = handled.count;
    const answer = await upload(entries);
    expect({ status: answer.status, error: answer.body.error }).toEqual({ status, error });
    expect(answer.body.success).toBe(false);
    expect(handled.count).toBe(before);
  }

  it("reads the platform's shape: files by name and name[i], text fields, _sdk_context, action", async () => {
    const avatar = png(64, 48);
    const [first, second] = [png(8, 8, 1), gif(3, 3)];
    const { status, body } = await upload(
      [
        ['avatar', file(avatar, 'me.png', 'image/png')],
        ['gallery[0]', file(first, 'a.png', 'image/png')],
        ['gallery[1]', file(second, 'b.gif', 'image/gif')],
        ['document', file(pdf(), 'terms.pdf', 'application/pdf')],
        ['caption', 'Hello there'],
        [
          '_sdk_context',
          JSON.stringify({ userAddress: ADDRESS.toLowerCase(), sourceChain: 43113 }),
        ],
        ['action', 'Upload'],
      ],
      { query: `?amount=${2n ** 200n}` },
    );
    expect(status).toBe(200);
    expect(body.data).toEqual({
      avatar: {
        filename: 'me.png',
        mimeType: 'image/png',
        extension: 'png',
        size: avatar.length,
        width: 64,
        height: 48,
        bytes: 'Buffer',
        sha256: sha256(avatar),
      },
      gallery: [
        expect.objectContaining({ filename: 'a.png', width: 8, height: 8, sha256: sha256(first) }),
        expect.objectContaining({ filename: 'b.gif', mimeType: 'image/gif', width: 3 }),
      ],
      document: expect.objectContaining({ mimeType: 'application/pdf', extension: 'pdf' }),
      caption: 'Hello there',
      amount: (2n ** 200n).toString(),
      userAddress: ADDRESS,
      sourceChain: 43113,
    });
  });

  it('takes one file of a multiple parameter under its bare name as a list of one', async () => {
    const { status, body } = await upload([['gallery', file(webp(10, 10), 'w.webp')]]);
    expect(status).toBe(200);
    expect(body.data?.gallery).toEqual([expect.objectContaining({ mimeType: 'image/webp' })]);
  });

  it('accepts a JPEG by its magic number for image/jpeg', async () => {
    const { status } = await upload([['avatar', file(jpeg(40, 30), 'x.bin')]]);
    expect(status).toBe(200);
  });

  describe('refuses, naming the parameter', () => {
    it('a PNG renamed .pdf: its real type is read from the bytes', async () => {
      await expectRefused(
        [['document', file(png(4, 4), 'terms.pdf', 'application/pdf')]],
        400,
        'document must be of type application/pdf, .txt (got image/png)',
      );
    });

    it('a text file sent as image/png', async () => {
      await expectRefused(
        [['avatar', file(Buffer.from('not a picture'), 'me.png', 'image/png')]],
        400,
        'avatar must be of type image/png, image/jpeg (got text/plain)',
      );
      await expectRefused(
        [['gallery[0]', file(Buffer.from('not a picture'), 'me.png', 'image/png')]],
        400,
        'gallery must be an image',
      );
    });

    it('an image too wide, and one of the wrong aspect ratio', async () => {
      await expectRefused(
        [['avatar', file(png(80, 60), 'big.png')]],
        400,
        'avatar must be at most 64 pixels wide',
      );
      await expectRefused(
        [['avatar', file(png(48, 64), 'tall.png')]],
        400,
        'avatar must be at most 48 pixels high',
      );
      await expectRefused(
        [['avatar', file(png(40, 40), 'square.png')]],
        400,
        'avatar must have an aspect ratio of 4:3',
      );
    });

    it('two files for a parameter that takes one', async () => {
      await expectRefused(
        [
          ['avatar[0]', file(png(4, 3), 'a.png')],
          ['avatar[1]', file(png(4, 3), 'b.png')],
        ],
        400,
        'avatar takes one file',
      );
    });

    it('a file under a name that is not an upload parameter', async () => {
      await expectRefused(
        [['caption', file(pdf(), 'x.pdf')]],
        400,
        'caption is not a file parameter',
      );
    });

    it('a context that is not JSON', async () => {
      await expectRefused([['_sdk_context', '{oops']], 400, '_sdk_context must be a JSON object');
    });

    it('text where a file is expected, in JSON', async () => {
      const { status, body } = await postJson<Answer['body']>(app, PATH, {
        params: { document: 'x' },
      });
      expect([status, body.error]).toEqual([400, 'document must be a file']);
    });
  });

  describe('caps, with 413', () => {
    it('a file over its maxSize', async () => {
      await expectRefused(
        [['document', file(Buffer.alloc(2049, 'a'), 'big.txt')]],
        413,
        'document must be at most 2048 bytes',
      );
    });

    it('a text field longer than BODY_LIMIT_BYTES', async () => {
      await expectRefused(
        [['caption', 'c'.repeat(5000)]],
        413,
        'caption is longer than 4096 bytes',
      );
    });

    it('more files than UPLOAD_MAX_FILES', async () => {
      const five = [0, 1, 2, 3, 4].map(
        (i) => [`gallery[${i}]`, file(png(2, 2, i), `${i}.png`)] as const,
      );
      await expectRefused(five, 413, 'Too many files (at most 4)');
    });

    it('a request declaring more than UPLOAD_MAX_BYTES, before reading any of it', async () => {
      const client = new RawUpload(port);
      await client.write(
        requestHead(PATH, {
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(MAX_BYTES + 1),
        }),
      );
      const answer = await client.answered;
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({
        error: `Upload larger than ${MAX_BYTES} bytes`,
      });
      await client.closed;
    });

    it('a streamed request as soon as it crosses UPLOAD_MAX_BYTES, without reading the rest', async () => {
      const before = handled.count;
      // A text field far larger than the cap (each field may hold BODY_LIMIT_BYTES), no length sent.
      const { body, contentType } = await formBody([['caption', 'x'.repeat(MAX_BYTES * 4)]]);
      const client = new RawUpload(port);
      await client.write(
        requestHead(PATH, { 'content-type': contentType, 'transfer-encoding': 'chunked' }),
      );
      // A little over the cap, then nothing more: the answer must come without the rest.
      await client.write(chunked(body.subarray(0, MAX_BYTES + 4096)));
      const answer = await client.answered;
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({
        error: `Upload larger than ${MAX_BYTES} bytes`,
      });
      expect(answer.head).toMatch(/connection: close/i);
      await client.closed;
      expect(handled.count).toBe(before);
    });
  });

  it('an upload aborted half-way leaves no temporary file and no read running', async () => {
    // This process's folders only: other suites' servers write (and sweep) the same directory.
    const ours = (): string[] =>
      readdirSync(tmpdir()).filter((name) => name.startsWith(`${SPOOL_PREFIX}${process.pid}-`));
    const before = { files: ours(), handled: handled.count };
    const { body, contentType } = await formBody([
      ['document', file(pdf(), 'a.pdf')],
      ['gallery[0]', file(png(30, 30), 'g.png')],
    ]);
    const client = new RawUpload(port);
    await client.write(
      requestHead(PATH, { 'content-type': contentType, 'content-length': String(body.length) }),
    );
    await client.write(body.subarray(0, body.length / 2));
    while (uploadsInFlight() === 0) await new Promise((resolve) => setImmediate(resolve));
    client.destroy();
    await uploadsSettled();
    expect(uploadsInFlight()).toBe(0);
    await spoolRemovalsSettled();
    expect(ours()).toEqual(before.files);
    expect(handled.count).toBe(before.handled);
    expect((await upload([['caption', 'still serving']])).status).toBe(200);
  });
});

describe('Uploads: origin and rate limits refuse before the body is read', () => {
  let app: NestFastifyApplication;
  let port: number;

  beforeAll(async () => {
    app = await createTestApp({
      env: {
        RATE_LIMIT_IP_MAX: '2',
        RATE_LIMIT_USER_MAX: '1',
        ALLOWED_ORIGINS: 'https://app.example',
      },
      actions: [UploadFixtureModule],
    });
    await app.listen(0, '127.0.0.1');
    ({ port } = app.getHttpServer().address() as { port: number });
  });
  afterAll(() => app.close());

  /** Sends the head and a tenth of a 1 MB upload, and waits for the answer without sending more. */
  async function partialUpload(headers: Record<string, string>): Promise<number> {
    const before = handled.count;
    const { body, contentType } = await formBody([
      ['gallery[0]', file(Buffer.alloc(1_000_000, 1), 'big.bin')],
    ]);
    const client = new RawUpload(port);
    await client.write(
      requestHead(PATH, {
        'content-type': contentType,
        'content-length': String(body.length),
        ...headers,
      }),
    );
    await client.write(body.subarray(0, 100_000));
    const answer = await client.answered;
    expect(answer.head).toMatch(/connection: close/i);
    await client.closed;
    expect(handled.count).toBe(before);
    return answer.status;
  }

  it('403 for an origin not allowed', async () => {
    expect(await partialUpload({ origin: 'https://evil.example' })).toBe(403);
  });

  /** A whole upload through inject, counted like any other request. */
  async function spend(remoteAddress: string, headers: Record<string, string> = {}): Promise<void> {
    const { body, contentType } = await formBody([['caption', 'first']]);
    const response = await app.inject({
      method: 'POST',
      url: PATH,
      headers: { 'content-type': contentType, ...headers },
      payload: body,
      remoteAddress,
    });
    expect(response.statusCode).toBe(200);
  }

  // The user limit (1) is spent from another IP; the IP limit (2) of 127.0.0.1 after it.
  it('429 once the user limit is spent, the user read from the headers', async () => {
    await spend('10.0.0.7', { 'x-wallet-address': ADDRESS });
    expect(await partialUpload({ 'x-wallet-address': ADDRESS.toLowerCase() })).toBe(429);
  });

  it('429 once the IP limit is spent', async () => {
    await spend('127.0.0.1');
    expect(await partialUpload({})).toBe(429);
  });
});
