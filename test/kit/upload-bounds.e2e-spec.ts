import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { UploadAdmission } from '../../src/kit/uploads/upload-admission';
import { SPOOL_PREFIX } from '../../src/kit/uploads/upload-spool';
import { createTestApp } from '../support/app.factory';
import { handled, UploadFixtureModule } from '../fixtures/upload.fixture';
import { LargeUploadFixtureModule, whileHandling } from '../fixtures/large-upload.fixture';
import { chunked, formBody, RawUpload, requestHead } from '../support/multipart.helper';

const LARGE = '/api/upload-large';
const SMALL = '/api/upload';
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Waits on the server's state (a condition no event announces), one turn of the loop at a time. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await tick();
}

/** The request directories of uploads (nothing else makes directories of this name). */
const spools = (): string[] =>
  readdirSync(tmpdir()).filter((n) => n.startsWith(SPOOL_PREFIX) && !leftovers.has(n));
/** Directories a killed run left behind, not this run's business. */
let leftovers = new Set<string>();
beforeAll(() => {
  leftovers = new Set(readdirSync(tmpdir()));
});

async function start(env: Record<string, string>): Promise<{
  app: NestFastifyApplication;
  port: number;
  admission: UploadAdmission;
}> {
  const app = await createTestApp({
    env,
    actions: [UploadFixtureModule, LargeUploadFixtureModule],
  });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return { app, port, admission: app.get(UploadAdmission) };
}

async function archiveForm(bytes: Buffer): Promise<{ body: Buffer; contentType: string }> {
  return formBody([['archive', { bytes, filename: 'data.bin' }]]);
}

describe('Uploads: large files go to a temporary directory, removed after the request', () => {
  let app: NestFastifyApplication;
  let port: number;
  let admission: UploadAdmission;
  beforeAll(async () => ({ app, port, admission } = await start({ UPLOAD_MAX_BYTES: '1048576' })));
  afterAll(() => app.close());
  afterEach(() => delete whileHandling.look);

  it('a file past 64 KiB is on disk while the handler runs, readable three ways, gone after', async () => {
    const bytes = randomBytes(300_000);
    whileHandling.look = spools;
    const { body, contentType } = await archiveForm(bytes);
    const response = await app.inject({
      method: 'POST',
      url: LARGE,
      headers: { 'content-type': contentType },
      payload: body,
    });
    expect(response.statusCode).toBe(200);
    const { data } = response.json<{ data: Record<string, unknown> }>();
    const hash = sha256(bytes);
    expect(data).toMatchObject({ size: bytes.length, read: hash, stream: hash, bytes: hash });
    expect(data.seen).toHaveLength(1);
    await until(() => spools().length === 0 && admission.inflightBytes === 0);
  });

  it('a small file stays in memory: no directory is made', async () => {
    whileHandling.look = spools;
    const { body, contentType } = await archiveForm(Buffer.from('short text'));
    const response = await app.inject({
      method: 'POST',
      url: LARGE,
      headers: { 'content-type': contentType },
      payload: body,
    });
    expect(response.json()).toMatchObject({ data: { mimeType: 'text/plain', seen: [] } });
  });

  it('an upload aborted once on disk leaves no directory and no bytes reserved', async () => {
    const { body, contentType } = await archiveForm(randomBytes(600_000));
    const client = new RawUpload(port);
    await client.write(
      requestHead(LARGE, { 'content-type': contentType, 'content-length': String(body.length) }),
    );
    await client.write(body.subarray(0, 400_000));
    await until(() => spools().length === 1);
    expect(admission.inflightBytes).toBe(body.length);
    client.destroy();
    await until(() => spools().length === 0 && admission.inflightBytes === 0);
    expect(admission.running('127.0.0.1')).toBe(0);
  });
});

describe('Uploads: what the head says is checked before the body is read', () => {
  let app: NestFastifyApplication;
  let port: number;
  beforeAll(async () => ({ app, port } = await start({})));
  afterAll(() => app.close());

  it.each([
    ['a chain the action does not serve', { 'x-source-chain': '1' }, /Chain 1 is not supported/],
    ['a malformed user address', { 'x-wallet-address': '0x12' }, /userAddress/],
  ])('%s is a 400 with the body unsent', async (_, headers, error) => {
    const before = handled.count;
    const { body, contentType } = await archiveForm(randomBytes(100_000));
    const client = new RawUpload(port);
    await client.write(
      requestHead(SMALL, {
        'content-type': contentType,
        'content-length': String(body.length),
        ...headers,
      }),
    );
    const answer = await client.answered;
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({
      success: false,
      error: expect.stringMatching(error),
    });
    expect(answer.head).toMatch(/connection: close/i);
    client.destroy();
    expect(handled.count).toBe(before);
  });
});

describe('Uploads: files an image parameter refuses, said clearly', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => ({ app } = await start({})));
  afterAll(() => app.close());

  async function gallery(bytes: Buffer, filename: string): Promise<Record<string, unknown>> {
    const { body, contentType } = await formBody([['gallery[0]', { bytes, filename }]]);
    const response = await app.inject({
      method: 'POST',
      url: SMALL,
      headers: { 'content-type': contentType },
      payload: body,
    });
    expect(response.statusCode).toBe(400);
    return response.json();
  }

  it('an SVG is no image where accept does not name it (here: no accept at all)', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>');
    expect(await gallery(svg, 'logo.svg')).toMatchObject({
      error: 'gallery must be a raster image (SVG only where accept names image/svg+xml)',
      data: { invalidParams: ['gallery'] },
    });
  });

  it('a zero-byte file is an empty file, not text', async () => {
    expect(await gallery(Buffer.alloc(0), 'photo.png')).toMatchObject({
      error: 'gallery is an empty file',
    });
  });
});

describe('Uploads: bounds shared by every upload', () => {
  let app: NestFastifyApplication;
  let port: number;
  let admission: UploadAdmission;
  beforeAll(
    async () =>
      ({ app, port, admission } = await start({
        UPLOAD_MAX_BYTES: '262144',
        UPLOAD_MAX_INFLIGHT_BYTES: '524288',
        UPLOAD_MAX_PER_CLIENT: '2',
        TRUST_PROXY: '127.0.0.1',
      })),
  );
  afterAll(() => app.close());

  /** A stalled upload from `client`: its head and a first part of its body, then silence. */
  async function stall(client: string, path: string, declared = true): Promise<RawUpload> {
    // /api/upload takes images under gallery[i]: a first part under another name is a 400.
    const field = path === SMALL ? 'gallery[0]' : 'archive';
    const { body, contentType } = await formBody([
      [field, { bytes: randomBytes(200_000), filename: 'data.bin' }],
    ]);
    const upload = new RawUpload(port);
    const head = {
      'content-type': contentType,
      'x-forwarded-for': client,
      ...(declared
        ? { 'content-length': String(body.length) }
        : { 'transfer-encoding': 'chunked' }),
    };
    await upload.write(requestHead(path, head));
    await upload.write(declared ? body.subarray(0, 1000) : chunked(body.subarray(0, 1000)));
    return upload;
  }

  it('a declared body that does not fit in what is left in flight is a 503, answered at once', async () => {
    const stalled = [await stall('10.0.0.1', LARGE), await stall('10.0.0.2', SMALL)];
    await until(() => admission.running('10.0.0.2') === 1);
    const refused = await stall('10.0.0.3', LARGE);
    const answer = await refused.answered;
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toMatchObject({
      success: false,
      error: 'Too many uploads in flight',
    });
    for (const upload of [...stalled, refused]) upload.destroy();
    await until(() => admission.inflightBytes === 0);
  });

  it('a streamed body is counted as it arrives and refused when it crosses the bound', async () => {
    const first = await stall('10.0.0.4', LARGE);
    const second = await stall('10.0.0.5', LARGE);
    await until(() => admission.running('10.0.0.5') === 1);
    const streamed = await stall('10.0.0.6', LARGE, false);
    await until(() => admission.running('10.0.0.6') === 1);
    await streamed.write(chunked(randomBytes(150_000)));
    expect((await streamed.answered).status).toBe(503);
    for (const upload of [first, second, streamed]) upload.destroy();
    await until(() => admission.inflightBytes === 0);
  });

  it('one client runs at most UPLOAD_MAX_PER_CLIENT uploads across all actions (429)', async () => {
    const stalled = [await stall('10.0.0.9', LARGE), await stall('10.0.0.9', SMALL, false)];
    await until(() => admission.running('10.0.0.9') === 2);
    const { body, contentType } = await formBody([['caption', 'hello']]);
    const send = (): Promise<{ statusCode: number; json: () => unknown }> =>
      app.inject({
        method: 'POST',
        url: SMALL,
        headers: { 'content-type': contentType, 'x-forwarded-for': '10.0.0.9' },
        payload: body,
      });
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      success: false,
      error: 'Too many uploads at once',
    });
    stalled[0].destroy();
    await until(() => admission.running('10.0.0.9') === 1);
    expect((await send()).statusCode).toBe(200);
    stalled[1].destroy();
    await until(() => admission.inflightBytes === 0);
  });
});
