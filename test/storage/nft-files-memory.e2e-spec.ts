import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MintNftModule } from '../../src/actions/mint-nft/mint-nft.module';
import { loadNftStorageConfig } from '../../src/actions/mint-nft/nft-storage.config';
import { contentIdOf } from '../../src/actions/mint-nft/storage/content-id';
import { LocalDirectoryStore } from '../../src/actions/mint-nft/storage/local-directory.store';
import { NftStorage } from '../../src/actions/mint-nft/storage/nft-storage.service';
import { NftStreams } from '../../src/actions/mint-nft/storage/nft-streams';
import { createTestApp } from '../support/app.factory';
import { parseAnswer, RawClient } from '../support/raw-http.helper';

const MB = 1024 * 1024;
/** Far bigger than what loopback socket buffers take: a client that stops reading stalls it. */
const BIG = Buffer.alloc(24 * MB, 7);
const MAX_STREAMS = 3;
/** A tick for the server's own 'close' listeners, which run after those a test adds first. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * NFT_FILES_MAX_STREAMS and one stream per connection: what bounds the memory slow readers of
 * `GET /nft/<id>` take (the figure itself: test/bench/nft-slow-readers.ts, on the production build).
 */
describe('GET /nft/<id> streams in flight', () => {
  let app: NestFastifyApplication;
  let streams: NftStreams;
  let port: number;
  let base: string;
  let path: string;
  /** The server's side of each connection, in the order they were accepted. */
  const served: Socket[] = [];

  beforeAll(async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'nft-streams-')), 'store');
    const store = new LocalDirectoryStore(loadNftStorageConfig({ NFT_STORAGE_DIR: dir }));
    const id = contentIdOf(BIG, 'image/png');
    await store.put(id, BIG, 'image/png');
    path = `/nft/${id}`;
    app = await createTestApp({
      env: {
        NFT_STORAGE_DIR: dir,
        NFT_FILES_MAX_STREAMS: String(MAX_STREAMS),
        // The readers here stall on purpose: the send timeout must not end them first.
        NFT_SEND_TIMEOUT_MS: '600000',
        NFT_FILES_RATE_LIMIT: '1000',
      },
      actions: [MintNftModule],
    });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
    port = Number(new URL(base).port);
    streams = app.get(NftStreams);
    app.getHttpServer().on('connection', (socket: Socket) => served.push(socket));
  }, 30_000);

  afterEach(() => {
    jest.restoreAllMocks();
    // What a failed test left open: the next starts with every slot free.
    for (const socket of served) socket.destroy();
  });
  afterAll(() => app?.close());

  /** A connection that asks for the file, takes the answer's head, then stops reading. */
  async function stalledReader(): Promise<RawClient> {
    const client = await RawClient.open(port);
    client.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await client.waitFor('\r\n\r\n');
    client.socket.pause();
    return client;
  }

  /** Resolves once the next connection the server accepts is closed. */
  function nextClose(): Promise<void> {
    return new Promise((resolve) =>
      app
        .getHttpServer()
        .once('connection', (socket: Socket) => socket.once('close', () => resolve())),
    );
  }

  /** Closes the clients and resolves once the server has seen their connections close. */
  async function goAway(clients: RawClient[]): Promise<void> {
    const ends = clients.map((client) => {
      const port = client.socket.localPort;
      const socket = served.find((s) => s.remotePort === port)!;
      // Not events.once: it rejects on the reset the server's side sees before 'close'.
      return socket.destroyed
        ? Promise.resolve()
        : new Promise<void>((resolve) => socket.once('close', () => resolve()));
    });
    for (const client of clients) client.destroy();
    await Promise.all(ends);
    await settle();
  }

  it('answers 503 with Retry-After past NFT_FILES_MAX_STREAMS, and frees a slot when a reader goes away', async () => {
    const readers = await Promise.all(Array.from({ length: MAX_STREAMS }, stalledReader));
    expect(readers.map((reader) => reader.received.slice(0, 15))).toEqual(
      Array(MAX_STREAMS).fill('HTTP/1.1 200 OK'),
    );
    expect(streams.inFlight).toBe(MAX_STREAMS);

    const refused = await fetch(`${base}${path}`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('cache-control') ?? '').not.toMatch(/immutable/);
    expect(await refused.json()).toMatchObject({
      success: false,
      error: 'Too many files being sent',
      statusCode: 503,
      message: 'Too many files are being sent, please try again shortly',
    });
    // A refusal holds no slot.
    expect(streams.inFlight).toBe(MAX_STREAMS);

    await goAway(readers.slice(0, 1));
    expect(streams.inFlight).toBe(MAX_STREAMS - 1);
    // Read to its end by a client that then closes: its slot is back once the server sees it.
    const closing = nextClose();
    const whole = await RawClient.open(port);
    whole.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    const answer = parseAnswer(await whole.closed);
    expect([answer.status, answer.body.length]).toEqual([200, BIG.length]);
    await closing;
    await settle();
    expect(streams.inFlight).toBe(MAX_STREAMS - 1);

    await goAway(readers.slice(1));
    expect(streams.inFlight).toBe(0);
  }, 30_000);

  it('opens the files of pipelined requests one at a time, each once the answer ahead is read', async () => {
    const storage = app.get(NftStorage);
    const openFile = storage.open.bind(storage);
    const takeSlot = streams.take.bind(streams);
    /** streams.inFlight as each file was opened: its own slot only, never one ahead still held. */
    const opened: number[] = [];
    jest.spyOn(storage, 'open').mockImplementation((id) => {
      opened.push(streams.inFlight);
      return openFile(id);
    });
    let asked!: () => void;
    const allAsked = new Promise<void>((resolve) => (asked = resolve));
    let takes = 0;
    jest.spyOn(streams, 'take').mockImplementation((socket) => {
      if ((takes += 1) === 3) asked();
      return takeSlot(socket);
    });

    // Three requests in one write; the third asks the server to close after its answer.
    const get = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`;
    const socket = connect(port, '127.0.0.1');
    let bytes = 0;
    socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
    await once(socket, 'connect');
    socket.write(`${get}\r\n${get}\r\n${get}Connection: close\r\n\r\n`);
    await once(socket, 'data');
    socket.pause();
    // All three asked for their turn; stalled on the first answer, one file is open.
    await allAsked;
    await settle();
    expect(opened).toEqual([1]);
    expect(streams.inFlight).toBe(1);

    socket.resume();
    await once(socket, 'close');
    // Each file opened once the one ahead was read to its end and had given its slot back.
    expect(opened).toEqual([1, 1, 1]);
    expect(bytes).toBeGreaterThan(3 * BIG.length);
    expect(bytes).toBeLessThan(3 * BIG.length + 3000);
    expect(streams.inFlight).toBe(0);
  }, 30_000);
});
