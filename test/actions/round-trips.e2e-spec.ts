import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type Address, decodeFunctionData, getAddress, type HDAccount, toHex } from 'viem';
import { BestSwapModule } from '../../src/actions/best-swap/best-swap.module';
import {
  SWAP_EXACT_ETH_FOR_TOKENS,
  SWAP_EXACT_TOKENS_FOR_TOKENS,
} from '../../src/actions/best-swap/uniswap-v2.abi';
import { MintNftModule } from '../../src/actions/mint-nft/mint-nft.module';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import {
  deserializeTransaction,
  signAndSend,
  startTestChain,
  type TestChain,
} from '../../src/testing';
import { png } from '../../src/testing/sample-files';
import { createTestApp } from '../support/app.factory';
import { formBody } from '../support/multipart.helper';
import { runAction } from '../support/platform';
import { RpcRecorder } from '../support/rpc.recorder';

/**
 * Round trips to the node per answer, counted by a JSON-RPC proxy (RpcRecorder, 127.0.0.1,
 * listen(0)) in front of the local Hardhat chain: one HTTP request is one batch.
 *
 * Measured on the code before issue 37 (steady state, same wallet, nothing mined between):
 *   send-token (USDC): 1 batch, 5 calls (eth_call ×2, getBalance, gasPrice, getTransactionCount);
 *   mint-nft: 1 batch, 4 calls (eth_call, getBalance, gasPrice, getTransactionCount);
 *   best-swap USDC→WAVAX (2 pools, approved): 2 batches, 9 calls (2 reserves, then 7 checks);
 *   best-swap AVAX→USDC (2 pools, coin in): 2 batches, 7 calls (2 reserves, then 5 checks);
 *   the tip: no call (the platform's client builds the transfer; this service is never asked).
 * Since: the same calls for send-token and mint-nft in 1 batch (eth_blockNumber, the pin's check,
 * in place of eth_gasPrice, needed only for a coin transfer's gas). best-swap is 1 batch of 10:
 * the reserves, then every route's swap dry-run (one more eth_call per route, and for coin in its
 * gas estimate), where the old code ran the chosen route's alone.
 */
const FUJI = 43113;
/** The figures above, as bounds: a change that adds a call fails here. */
const MOST_CALLS = { sendToken: 5, mint: 4, swapTokenIn: 10, swapCoinIn: 10 };

describe('round trips to the node per transaction answer', () => {
  let testChain: TestChain;
  let recorder: RpcRecorder;
  let app: NestFastifyApplication;
  let user: HDAccount;
  const wallet = (): Record<string, string> => ({ 'x-wallet-address': user.address });

  beforeAll(async () => {
    testChain = await startTestChain({ chainId: FUJI });
    recorder = await RpcRecorder.start(testChain.chain.rpcUrl);
    user = testChain.users[0];
    const env = {
      ...testChain.env,
      RPC_URL_43113: recorder.url,
      // The follower polls the same node: kept out of the counts.
      OUTCOME_POLL_MS: '600000',
      TIP_RECIPIENT: testChain.users[2].address,
      NFT_STORAGE_DIR: join(mkdtempSync(join(tmpdir(), 'round-trips-')), 'store'),
    };
    app = await createTestApp({ env, actions: [SendTokenModule, MintNftModule, BestSwapModule] });
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await recorder?.close();
    await testChain?.stop();
  });

  /** Asks twice (the first may warm caches or answer an approval, signed here); counts the second. */
  async function steady<T>(
    ask: () => Promise<T>,
    first?: (answer: T) => Promise<void>,
  ): Promise<T> {
    const warm = await ask();
    await first?.(warm);
    recorder.reset();
    return ask();
  }

  const counts = (): { batches: number; calls: number } => ({
    batches: recorder.requests.length,
    calls: recorder.calls.length,
  });

  it('send-token: 1 batch, at most 5 calls', async () => {
    const answer = await steady(() =>
      runAction(
        app,
        '/api/send-token',
        { token: 'USDC', recipient: testChain.users[1].address, amount: '1' },
        wallet(),
      ),
    );
    expect(answer.status).toBe(200);
    const tx = deserializeTransaction(answer.body.serializedTransaction as string);
    expect(getAddress(tx.to!)).toBe(getAddress(testChain.fixture.usdc));
    expect(answer.body.params).toMatchObject({ functionName: 'transfer' });
    expect(counts()).toEqual({ batches: 1, calls: expect.any(Number) });
    expect(counts().calls).toBeLessThanOrEqual(MOST_CALLS.sendToken);
  });

  it('after a block, the check is sent again at the new head: 2 batches once, then 1', async () => {
    const ask = (): ReturnType<typeof runAction> =>
      runAction(
        app,
        '/api/send-token',
        { token: 'USDC', recipient: testChain.users[1].address, amount: '1' },
        wallet(),
      );
    await ask();
    const other = testChain.chain.wallet(testChain.users[1]);
    await other.sendTransaction({ to: testChain.users[2].address, value: 1n });
    const head = toHex(await testChain.chain.publicClient.getBlockNumber());
    recorder.reset();
    expect((await ask()).status).toBe(200);
    // The first batch, at the block last seen, learns the head moved; the second reads at it.
    expect(recorder.requests).toHaveLength(2);
    const second = recorder.requests[1].filter((c) => c.method === 'eth_getBalance');
    expect(second.map((c) => c.params?.at(-1))).toEqual([head]);
    recorder.reset();
    expect((await ask()).status).toBe(200);
    expect(recorder.requests).toHaveLength(1);
  });

  it('mint-nft: 1 batch, at most 4 calls', async () => {
    const mint = async (): Promise<{ status: number; body: Record<string, unknown> }> => {
      const { body, contentType } = await formBody([
        ['image', { bytes: png(64, 64), filename: 'a.png', type: 'image/png' }],
        ['name', 'Counted'],
        ['description', 'One round trip'],
      ]);
      const response = await app.inject({
        method: 'POST',
        url: '/api/mint-nft',
        payload: body,
        headers: { 'content-type': contentType, ...wallet() },
      });
      return { status: response.statusCode, body: response.json() };
    };
    const answer = await steady(mint);
    expect(answer.status).toBe(200);
    const tx = deserializeTransaction(answer.body.serializedTransaction as string);
    expect(getAddress(tx.to!)).toBe(getAddress(testChain.nftCollection));
    expect(answer.body.params).toMatchObject({ functionName: expect.stringMatching(/mint/i) });
    expect(counts()).toEqual({ batches: 1, calls: expect.any(Number) });
    expect(counts().calls).toBeLessThanOrEqual(MOST_CALLS.mint);
  });

  it('the tip: no call to the node (the client builds the transfer from the published entry)', async () => {
    recorder.reset();
    const document = (await app.inject({ method: 'GET', url: '/api/mini-apps/wallet' })).json<{
      actions: { type: string; label: string; to?: string }[];
    }>();
    const tip = document.actions.find((a) => a.label === 'Tip the project');
    expect(tip).toMatchObject({ type: 'transfer', to: testChain.users[2].address });
    expect(counts()).toEqual({ batches: 0, calls: 0 });
  });

  it.each([
    ['USDC', 'WAVAX', MOST_CALLS.swapTokenIn],
    ['AVAX', 'USDC', MOST_CALLS.swapCoinIn],
  ])('best-swap %s→%s: 1 batch, at most %i calls', async (tokenIn, tokenOut, most) => {
    const params = { tokenIn, tokenOut, amountIn: '10', slippage: '1' };
    const ask = (): ReturnType<typeof runAction> =>
      runAction(app, '/api/best-swap', params, wallet());
    const answer = await steady(ask, async (first) => {
      const shown = first.body.params as { functionName: string };
      if (shown.functionName !== 'approve') return;
      const sent = await signAndSend(
        testChain.chain,
        user,
        first.body.serializedTransaction as string,
      );
      expect(sent.receipt.status).toBe('success');
      // The approval moved the head: one answer (not counted) sees it, the next is steady.
      await ask();
    });
    expect(answer.status).toBe(200);
    const args = (
      answer.body.params as { args: { pool: { router: Address }; expectedAmountOut: string } }
    ).args;
    const tx = deserializeTransaction(answer.body.serializedTransaction as string);
    expect(getAddress(tx.to!)).toBe(getAddress(args.pool.router));
    const abi = tokenIn === 'AVAX' ? SWAP_EXACT_ETH_FOR_TOKENS : SWAP_EXACT_TOKENS_FOR_TOKENS;
    const { args: sent } = decodeFunctionData({ abi: [abi], data: tx.data! });
    const minimum = tokenIn === 'AVAX' ? sent[0] : sent[1];
    expect(minimum).toBe((BigInt(args.expectedAmountOut) * 99n) / 100n);
    expect(counts()).toEqual({ batches: 1, calls: expect.any(Number) });
    expect(counts().calls).toBeLessThanOrEqual(most);
    // Pinned: every state read of the batch names one block, the head the node reports with it.
    const pinned = recorder.calls
      .filter((c) => ['eth_call', 'eth_getBalance', 'eth_estimateGas'].includes(c.method))
      .map((c) => c.params?.at(-1));
    expect(new Set(pinned)).toEqual(
      new Set([toHex(await testChain.chain.publicClient.getBlockNumber())]),
    );
  });
});
