import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MintNftModule } from '../../src/actions/mint-nft/mint-nft.module';
import { loadNftStorageConfig } from '../../src/actions/mint-nft/nft-storage.config';
import { contentIdOf } from '../../src/actions/mint-nft/storage/content-id';
import { LocalDirectoryStore } from '../../src/actions/mint-nft/storage/local-directory.store';
import { createTestApp } from '../support/app.factory';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const MB = 1024 * 1024;
/** Far bigger than what loopback socket buffers take: a client that stops reading stalls it. */
const BIG = Buffer.alloc(24 * MB, 7);
const SMALL = Buffer.from('{"name":"small"}');

/** Opens a connection that asks for `path`, takes the first bytes of the answer, then stops reading. */
function stalledReader(port: number, path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`),
    );
    socket.once('error', reject);
    socket.once('data', () => {
      socket.pause();
      resolve(socket);
    });
    // Under load the send timeout may cut the answer before its first byte: cut all the same.
    socket.once('close', () => resolve(socket));
  });
}

describe('GET /nft/<id>', () => {
  let app: NestFastifyApplication;
  let base: string;
  let port: number;
  let bigId: string;
  let smallId: string;

  beforeAll(async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'nft-files-')), 'store');
    const store = new LocalDirectoryStore(loadNftStorageConfig({ NFT_STORAGE_DIR: dir }));
    bigId = contentIdOf(BIG, 'image/png');
    smallId = contentIdOf(SMALL, 'application/json');
    await store.put(bigId, BIG, 'image/png');
    await store.put(smallId, SMALL, 'application/json');
    app = await createTestApp({
      env: {
        NFT_STORAGE_DIR: dir,
        NFT_SEND_TIMEOUT_MS: '300',
        NFT_FILES_RATE_LIMIT: '40',
        NFT_FILES_RATE_WINDOW_S: '600',
      },
      actions: [MintNftModule],
    });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
    port = Number(new URL(base).port);
  }, 30_000);

  afterAll(() => app?.close());

  it('answers a strong ETag, and 304 without a body to a client that has the file', async () => {
    const first = await fetch(`${base}/nft/${smallId}`);
    const etag = first.headers.get('etag');
    expect(etag).toBe(`"${smallId.slice(0, 64)}"`);
    expect(await first.text()).toBe(SMALL.toString());
    for (const ifNoneMatch of [etag!, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await fetch(`${base}/nft/${smallId}`, {
        headers: { 'if-none-match': ifNoneMatch },
      });
      expect([again.status, await again.text(), again.headers.get('etag')]).toEqual([
        304,
        '',
        etag,
      ]);
    }
    const changed = await fetch(`${base}/nft/${smallId}`, {
      headers: { 'if-none-match': '"other"' },
    });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();
  });

  it('holds about a chunk per stalled reader, not the file, and cuts each after the send timeout', async () => {
    const readers = 12;
    const served: Socket[] = [];
    const server = app.getHttpServer();
    const track = (socket: Socket): number => served.push(socket);
    server.on('connection', track);
    gc();
    const before = process.memoryUsage().arrayBuffers;
    const sockets = await Promise.all(
      Array.from({ length: readers }, () => stalledReader(port, `/nft/${bigId}`)),
    );
    gc();
    const held = process.memoryUsage().arrayBuffers - before;
    // Buffering each answer would hold readers × 24 MB (288 MB); streaming holds a few chunks.
    expect(held).toBeLessThan(BIG.length);
    // The send timeout cuts the connections the clients stopped reading: the server closes
    // its side, and a client that reads again gets less than the file.
    server.off('connection', track);
    expect(served).toHaveLength(readers);
    // Some may be closed already: under load the send timeout can pass during the gc() above.
    await Promise.all(
      served.map((socket) =>
        socket.destroyed
          ? Promise.resolve()
          : new Promise<void>((resolve) => socket.once('close', resolve)),
      ),
    );
    const received = await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<number>((resolve) => {
            let bytes = 0;
            // Cut before its first byte (see stalledReader): closed already.
            if (socket.destroyed) return resolve(0);
            socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
            socket.once('close', () => resolve(bytes));
            socket.once('error', () => undefined);
            socket.resume();
          }),
      ),
    );
    for (const bytes of received) expect(bytes).toBeLessThan(BIG.length);
  }, 30_000);

  it('limits requests per client IP with 429 in the envelope', async () => {
    let answer: Response | undefined;
    for (let n = 0; n < 41 && answer?.status !== 429; n += 1) {
      answer = await fetch(`${base}/nft/${'0'.repeat(64)}.png`);
      if (answer.status !== 429) await answer.arrayBuffer();
    }
    expect(answer!.status).toBe(429);
    expect(answer!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await answer!.json()).toMatchObject({ success: false, statusCode: 429 });
  });
});
