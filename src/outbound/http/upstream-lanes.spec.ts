import { loadExternalConfig } from '../../config/external.config';
import type { Lane } from './host-policy';
import { UpstreamBounds } from './upstream-bounds';
import { UpstreamRefusal } from './upstream-refusal.exception';

const HOST = 'http://node.test/rpc';
const LANE: Lane = { name: 'wallet_check', maxConcurrency: 2, maxQueue: 1 };

/** A call that holds its slot until its signal aborts, as a hung fetch does. */
const hang = (started: string[], name: string) => (signal: AbortSignal) =>
  new Promise<never>((_resolve, reject) => {
    started.push(name);
    signal.addEventListener('abort', () => reject(signal.reason as Error));
  });

const settled = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    (value) => value,
    (error: unknown) => error,
  );

describe('UpstreamBounds: lanes', () => {
  it('a lane has slots and a queue of its own on a host: it takes none of the host’s, nor the host its', async () => {
    const b = new UpstreamBounds(
      loadExternalConfig({ EXTERNAL_MAX_CONCURRENCY: '1', EXTERNAL_MAX_QUEUE: '0' }),
    );
    const started: string[] = [];
    const [hostStop, laneStop] = [new AbortController(), new AbortController()];
    const host = { timeoutMs: 60_000, signal: hostStop.signal };
    // The host's one slot held by a call outside the lane: the lane still runs two, queues one.
    const held = settled(b.call(HOST, host, hang(started, 'host')));
    const laneOptions = { timeoutMs: 60_000, signal: laneStop.signal, lane: LANE };
    const lane = [1, 2, 3, 4].map((i) =>
      settled(b.call(HOST, laneOptions, hang(started, `lane ${i}`))),
    );
    expect(await lane[3]).toMatchObject({ reason: 'busy' });
    expect(started).toEqual(['host', 'lane 1', 'lane 2']);
    // Outside the lane, only the host's own slot counts: refused while it is held, answered once
    // it is free, the lane still full.
    const answer = (): Promise<string> =>
      b.call(HOST, { timeoutMs: 60_000 }, () => Promise.resolve('ok'));
    expect(await settled(answer())).toBeInstanceOf(UpstreamRefusal);
    hostStop.abort(new Error('host call over'));
    await held;
    await expect(answer()).resolves.toBe('ok');
    laneStop.abort(new Error('lane calls over'));
    await Promise.all(lane);
  });
});
