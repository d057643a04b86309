import { Inject, Injectable } from '@nestjs/common';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { NFT_STORAGE_CONFIG, type NftStorageConfig } from '../nft-storage.config';

/** One answer's hold on a stream slot. Released once, by whichever comes first. */
export interface StreamSlot {
  /** Keeps the slot until `body` closes (read to its end, failed or destroyed). */
  hold(body: Readable): void;
  /** Gives the slot back now: the answer streams nothing (404, an error). */
  release(): void;
}

/**
 * The `GET /nft/<id>` streams this replica has open, at most NFT_FILES_MAX_STREAMS, and at most
 * one per connection. Each open stream holds a read buffer and the socket's write buffer however
 * slowly its client reads, so the count is what bounds the memory slow readers take. Per
 * connection, because Node queues the answers of pipelined requests behind the first while
 * their handlers run at once: each would open its file and fill a buffer nobody can send yet.
 */
@Injectable()
export class NftStreams {
  private open = 0;
  /** Per connection, the turn of its last request: the next one there waits for it to end. */
  private readonly turns = new WeakMap<Socket, Promise<void>>();
  private readonly max: number;

  constructor(@Inject(NFT_STORAGE_CONFIG) config: NftStorageConfig) {
    this.max = config.filesMaxStreams;
  }

  /** Streams open now. */
  get inFlight(): number {
    return this.open;
  }

  /**
   * Waits until the answers ahead on this connection are done with their streams, then takes a
   * slot; undefined when NFT_FILES_MAX_STREAMS are open, or the connection went away meanwhile.
   * The slot also goes when the connection closes, whatever the answer was doing.
   */
  async take(socket: Socket): Promise<StreamSlot | undefined> {
    const ahead = this.turns.get(socket);
    let endTurn!: () => void;
    this.turns.set(socket, new Promise<void>((resolve) => (endTurn = resolve)));
    if (ahead) await ahead;
    if (socket.destroyed || this.open >= this.max) {
      endTurn();
      return undefined;
    }
    this.open += 1;
    let body: Readable | undefined;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.open -= 1;
      socket.off('close', release);
      // A client gone before the end: its file is closed now, not when a queued answer would
      // have been sent (Node never sends it, and may never close it).
      if (body && !body.destroyed) body.destroy();
      endTurn();
    };
    socket.once('close', release);
    return {
      hold: (stream: Readable): void => {
        if (released) return void stream.destroy();
        body = stream;
        if (stream.destroyed) release();
        else stream.once('close', release);
      },
      release,
    };
  }
}
