import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SPOOL_PREFIX, spoolRemovalsSettled } from '../../src/kit/uploads/upload-spool';
import { png } from '../../src/testing/sample-files';
import { createTestApp } from '../support/app.factory';
import { type LogLine, testLogs } from '../support/log-capture.helper';
import { UploadFixtureModule } from '../fixtures/upload.fixture';
import { LargeUploadFixtureModule, whileHandling } from '../fixtures/large-upload.fixture';
import { formBody, RawUpload, requestHead } from '../support/multipart.helper';

/** The module object itself (a namespace import's properties cannot be spied on). */
const os = jest.requireActual<typeof import('node:os')>('node:os');
const LARGE = '/api/upload-large';
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
/** A 200 KB PNG: its header is a real image's, the rest of its bytes are noise. */
const image = Buffer.concat([png(64, 64), randomBytes(200_000)]);

/** The system's temporary directory, before the tests point it away. */
const systemTmp = os.tmpdir();
/** Everything the tests write is in here. */
const work = mkdtempSync(join(systemTmp, 'upload-spool-e2e-'));
/** A regular file: nothing can be made under it, not even by root (ENOTDIR). */
const aFile = join(work, 'a-file');

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

async function start(spoolDir: string): Promise<NestFastifyApplication> {
  const app = await createTestApp({
    env: { UPLOAD_SPOOL_DIR: spoolDir, UPLOAD_MAX_BYTES: '1048576' },
    actions: [UploadFixtureModule, LargeUploadFixtureModule],
  });
  await app.listen(0, '127.0.0.1');
  return app;
}

async function upload(
  app: NestFastifyApplication,
  bytes: Buffer,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { body, contentType } = await formBody([['archive', { bytes, filename: 'nft.png' }]]);
  const answer = await app.inject({
    method: 'POST',
    url: LARGE,
    headers: { 'content-type': contentType },
    payload: body,
  });
  return { status: answer.statusCode, body: answer.json() };
}

const spoolLines = (): LogLine[] =>
  testLogs.lines().filter((line) => line.context === 'UploadSpool');

/** This process's spool folders in the system's temporary directory. */
const ownInSystemTmp = (): string[] =>
  readdirSync(systemTmp).filter((name) => name.startsWith(`${SPOOL_PREFIX}${process.pid}-`));

/**
 * A read-only root filesystem with one writable mount (Kubernetes' emptyDir, compose's tmpfs).
 * Root writes through any mode bit, so the temporary directory is made unwritable otherwise:
 * os.tmpdir() names a path under a regular file (Jest's `process.env` is a copy, so TMPDIR
 * cannot be changed from here), and nothing of the spool may appear in the real one either.
 */
describe('Upload spool (UPLOAD_SPOOL_DIR) on a read-only root', () => {
  beforeAll(() => {
    writeFileSync(aFile, '');
    jest.spyOn(os, 'tmpdir').mockReturnValue(join(aFile, 'tmp'));
  });
  afterAll(() => {
    jest.restoreAllMocks();
    rmSync(work, { recursive: true, force: true });
  });

  describe('one server, its spool writable then not', () => {
    const spoolDir = join(work, 'spool');
    let app: NestFastifyApplication;
    beforeAll(async () => {
      mkdirSync(spoolDir);
      app = await start(spoolDir);
    });
    afterAll(() => app.close());
    afterEach(() => delete whileHandling.look);

    it('takes a 200 KB image through the spool directory alone, and leaves it empty', async () => {
      expect(os.tmpdir()).toBe(join(aFile, 'tmp'));
      whileHandling.look = () => [...readdirSync(spoolDir), ...ownInSystemTmp()];
      const { status, body } = await upload(app, image);
      expect(status).toBe(200);
      expect(body.data).toMatchObject({
        size: image.length,
        mimeType: 'image/png',
        read: sha256(image),
        stream: sha256(image),
        seen: [expect.stringMatching(new RegExp(`^${SPOOL_PREFIX}${process.pid}-`))],
      });
      await spoolRemovalsSettled();
      expect(readdirSync(spoolDir)).toEqual([]);
      expect(ownInSystemTmp()).toEqual([]);
    });

    it('answers 503 STORAGE_UNAVAILABLE once the spool cannot be written, logged at error once', async () => {
      rmSync(spoolDir, { recursive: true });
      writeFileSync(spoolDir, '');
      try {
        testLogs.clear();
        const first = await upload(app, image);
        expect({ status: first.status, body: first.body }).toMatchObject({
          status: 503,
          body: { success: false, error: 'Upload storage is unavailable' },
        });
        expect((await upload(app, image)).status).toBe(503);
        const answered = testLogs.lines().filter((line) => line.status === 503);
        expect(answered.map((line) => line.errorCode)).toEqual([
          'STORAGE_UNAVAILABLE',
          'STORAGE_UNAVAILABLE',
        ]);
        const errors = spoolLines().filter((line) => line.level === 'error');
        expect(errors).toHaveLength(1);
        expect(errors[0].msg).toMatch(/cannot be written \(ENOTDIR\)/);
        // A small file never reaches the spool: still served.
        expect((await upload(app, png(4, 4))).status).toBe(200);
      } finally {
        rmSync(spoolDir);
        mkdirSync(spoolDir);
      }
    });
  });

  it('boots on a missing spool, says so at error, and refuses only large files (503)', async () => {
    testLogs.clear();
    const app = await start(join(work, 'missing'));
    try {
      const errors = spoolLines().filter((line) => line.level === 'error');
      expect(errors.map((line) => line.msg)).toEqual([
        expect.stringMatching(/cannot be written \(ENOENT\)/),
      ]);
      expect((await app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
      const refused = await upload(app, image);
      expect(refused.status).toBe(503);
      expect((await upload(app, png(4, 4))).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('removes at boot the folders ended processes left, and keeps those of running ones', async () => {
    const spoolDir = join(work, 'leftovers');
    mkdirSync(spoolDir);
    // A process that made its folder and a file in it, then died without removing them.
    const killed = spawnSync(process.execPath, [
      '-e',
      `const dir = require('path').join(process.argv[1], process.argv[2] + process.pid + '-00ff');
       require('fs').mkdirSync(dir); require('fs').writeFileSync(dir + '/0', Buffer.alloc(100000));`,
      spoolDir,
      SPOOL_PREFIX,
    ]);
    expect(killed.status).toBe(0);
    // A folder of an earlier release (no pid in its name), and this process's own, unused.
    mkdirSync(join(spoolDir, `${SPOOL_PREFIX}Xy12Ab`));
    mkdirSync(join(spoolDir, `${SPOOL_PREFIX}${process.pid}-0000`));
    // Another running process's (Jest's parent), and what is not a spool folder at all.
    const running = `${SPOOL_PREFIX}${process.ppid}-abcd`;
    mkdirSync(join(spoolDir, running));
    mkdirSync(join(spoolDir, 'something-else'));
    const app = await start(spoolDir);
    await app.close();
    expect(readdirSync(spoolDir).sort()).toEqual([running, 'something-else'].sort());
  });

  it('a restart after an upload cut short by the shutdown finds the spool empty', async () => {
    const spoolDir = join(work, 'restart');
    mkdirSync(spoolDir);
    const app = await start(spoolDir);
    const { port } = app.getHttpServer().address() as { port: number };
    const { body, contentType } = await formBody([
      ['archive', { bytes: image, filename: 'nft.png' }],
    ]);
    const client = new RawUpload(port);
    await client.write(
      requestHead(LARGE, { 'content-type': contentType, 'content-length': String(body.length) }),
    );
    await client.write(body.subarray(0, 150_000));
    await until(() => readdirSync(spoolDir).length > 0);
    const closing = app.close();
    client.destroy();
    await closing;
    const again = await start(spoolDir);
    try {
      expect(readdirSync(spoolDir)).toEqual([]);
    } finally {
      await again.close();
    }
  });
});
