import { EventEmitter, once } from 'node:events';
import type { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { loadNftStorageConfig } from '../nft-storage.config';
import { NftStreams } from './nft-streams';

/** As much of a socket as NftStreams uses: 'close' and `destroyed`. */
function fakeSocket(): Socket & { close: () => void } {
  const socket = Object.assign(new EventEmitter(), { destroyed: false }) as unknown as Socket & {
    close: () => void;
  };
  socket.close = (): void => {
    (socket as { destroyed: boolean }).destroyed = true;
    socket.emit('close');
  };
  return socket;
}

const streamsOf = (max: number): NftStreams =>
  new NftStreams(loadNftStorageConfig({ NFT_FILES_MAX_STREAMS: String(max) }));

describe('NftStreams', () => {
  it('refuses past the cap, and counts a slot once however it is given back', async () => {
    const streams = streamsOf(2);
    const first = await streams.take(fakeSocket());
    const second = await streams.take(fakeSocket());
    expect(await streams.take(fakeSocket())).toBeUndefined();
    expect(streams.inFlight).toBe(2);
    first!.release();
    first!.release();
    expect(streams.inFlight).toBe(1);
    const body = new PassThrough();
    second!.hold(body);
    body.destroy();
    await once(body, 'close');
    second!.release();
    expect(streams.inFlight).toBe(0);
  });

  it('frees the slot and closes the file when the connection goes away mid-answer', async () => {
    const streams = streamsOf(1);
    const socket = fakeSocket();
    const body = new PassThrough();
    (await streams.take(socket))!.hold(body);
    socket.close();
    expect([streams.inFlight, body.destroyed]).toEqual([0, true]);
    expect(socket.listenerCount('close')).toBe(0);
  });

  it('lets a connection take its next slot only once the one ahead is given back', async () => {
    const streams = streamsOf(5);
    const socket = fakeSocket();
    const first = (await streams.take(socket))!;
    let second: unknown;
    const waiting = streams.take(socket).then((slot) => (second = slot));
    await new Promise((resolve) => setImmediate(resolve));
    expect([second, streams.inFlight]).toEqual([undefined, 1]);
    first.release();
    await waiting;
    expect(second).toBeDefined();
    expect(streams.inFlight).toBe(1);
  });

  it('takes nothing for a request whose connection closed while it waited', async () => {
    const streams = streamsOf(5);
    const socket = fakeSocket();
    await streams.take(socket);
    const waiting = streams.take(socket);
    socket.close();
    expect(await waiting).toBeUndefined();
    expect(streams.inFlight).toBe(0);
  });
});
