import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { numberToHex } from 'viem';
import { ChainFollower } from '../../src/follower/chain-follower';
import type { BlockSubscriber, FollowedBlock } from '../../src/follower/followed-block';
import { ActionMetrics } from '../../src/telemetry/metrics/action-metrics';
import { createTestApp } from '../support/app.factory';
import { CountingServer } from '../support/counting.server';
import {
  block,
  fakeChainFile,
  healthyChain,
  jsonRpcNode,
  type RpcCall,
} from '../support/rpc-node.server';

/** The block whose parent hash is never the hash the node gives for the block below it. */
const BROKEN = 1_000;

/**
 * A stub node whose block BROKEN does not chain to block BROKEN - 1, whatever is asked: before,
 * the follower rewound and read again without end (118 calls a second). Now one rewind, then the
 * block is taken as it comes (counted), and the later blocks are handed on.
 */
describe('The follower on a node whose links never agree', () => {
  let node: CountingServer;
  let app: NestFastifyApplication;
  let head = BROKEN - 3;
  const calls: RpcCall[] = [];
  const handed: bigint[] = [];

  const answer = ([tag]: unknown[]): Record<string, unknown> | null => {
    const number = tag === 'latest' ? head : Number(BigInt(tag as string));
    if (number > head) return null;
    const raw = block(number);
    if (number === BROKEN) raw.parentHash = `0x${'ee'.repeat(32)}`;
    return raw;
  };

  beforeAll(async () => {
    node = await CountingServer.start(
      jsonRpcNode(
        {
          ...healthyChain(),
          eth_blockNumber: () => numberToHex(head),
          eth_getBlockByNumber: answer,
        },
        calls,
      ),
    );
    app = await createTestApp({
      env: { CHAIN_CONFIG_FILE: fakeChainFile(node.base), OUTCOME_POLL_MS: '600000' },
    });
    const subscriber: BlockSubscriber = {
      watching: () => Promise.resolve(true),
      block: (followed: FollowedBlock) => Promise.resolve(void handed.push(followed.number)),
      head: () => Promise.resolve(),
      rewound: () => Promise.resolve(),
      skipped: () => Promise.resolve(),
    };
    app.get(ChainFollower).subscribe(subscriber);
  });

  afterAll(async () => {
    await app?.close();
    await node?.close();
  });

  async function brokenLinks(): Promise<number> {
    const metric = app
      .get(ActionMetrics)
      .registry.getSingleMetric('dynamic_action_follower_broken_links_total');
    const values = metric ? (await metric.get()).values : [];
    return values.reduce((sum, v) => sum + v.value, 0);
  }

  it('hands on the blocks after the broken link within 3 passes, each pass bounded', async () => {
    const follower = app.get(ChainFollower);
    await follower.pass();
    const from = head + 1;
    head = BROKEN + 5;
    const perPass: number[] = [];
    for (let pass = 0; pass < 3 && !handed.includes(BigInt(head)); pass++) {
      calls.length = 0;
      await follower.pass();
      perPass.push(calls.length);
    }
    expect(handed).toEqual(expect.arrayContaining([1_001n, 1_002n, 1_003n, 1_004n, 1_005n]));
    // The head, each new block, one header walked down and two blocks read again: bounded.
    expect(perPass).toEqual([1 + (head - from + 1) + 1 + 2]);
    expect(await brokenLinks()).toBe(1);

    // The passes after it: one call a block, no rewind.
    head += 2;
    calls.length = 0;
    await follower.pass();
    expect(calls.map((c) => c.method)).toEqual([
      'eth_blockNumber',
      'eth_getBlockByNumber',
      'eth_getBlockByNumber',
    ]);
  });
});
