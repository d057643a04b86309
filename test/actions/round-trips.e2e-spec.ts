import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  type Address,
  decodeFunctionData,
  getAddress,
  type HDAccount,
  type Hex,
  toHex,
} from 'viem';
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
import { readHeadProbe } from '../../src/evm/transaction/head-probe';
import { ERC20_APPROVE } from '../../src/evm/transaction/approval-step';
import { createTestApp } from '../support/app.factory';
import { formBody } from '../support/multipart.helper';
import { runAction } from '../support/platform';
import { isHeadProbe } from '../support/rpc-node.server';
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
 * Since (issue 37): 1 batch for every answer, whatever blocks come between answers. Its state
 * reads ask `latest` between two heads (equal, they prove one block): the head probe first (one
 * eth_call: block.number and the user's balance, in place of eth_getBalance) and eth_blockNumber
 * last; the views go in one deployless multicall when there are two or more; no gas estimate rides
 * in the batch (GAS_CEILING). The chain's first check also opens with eth_blockNumber, until one
 * shows the probe reports the head. Measured: send-token (USDC) 5 calls, mint-nft 4, best-swap
 * USDC→WAVAX 6, AVAX→USDC 7 (the reserves in one eth_call, a dry run per route, the gas price for
 * the coin).
 * Since issue 45: a fresh wallet's approval answer is 1 batch too (it took 2: the batch, then the
 * approval's own dry run). Each spender's `approve` dry run rides in the batch, so best-swap
 * USDC→WAVAX counts 8 calls (one more per pool's router), approval answer or swap.
 */
const FUJI = 43113;
/** The figures above, as bounds: a change that adds a call fails here. */
const MOST_CALLS = { sendToken: 5, mint: 4, swapTokenIn: 8, swapCoinIn: 7 };
/** ERC-20 `approve(address,uint256)`'s selector. */
const APPROVE = '0x095ea7b3';

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

  const sendUsdc = (): ReturnType<typeof runAction> =>
    runAction(
      app,
      '/api/send-token',
      { token: 'USDC', recipient: testChain.users[1].address, amount: '1' },
      wallet(),
    );
  /** A block mined by another wallet's transfer (the local chain mines one per transaction). */
  const mine = async (): Promise<bigint> => {
    const other = testChain.chain.wallet(testChain.users[1]);
    const hash = await other.sendTransaction({ to: testChain.users[2].address, value: 1n });
    return (await testChain.chain.publicClient.waitForTransactionReceipt({ hash })).blockNumber;
  };

  /** The head probe's answer in batch `i`: the block its call read, and the user's balance. */
  function probed(i = 0): { block: bigint; balance: bigint } {
    const at = recorder.requests[i].findIndex((c) => isHeadProbe(c, user.address));
    expect(at).toBeGreaterThanOrEqual(0);
    return readHeadProbe((recorder.answers[i] as { result: Hex }[])[at].result);
  }

  /**
   * Batch `i` read one block: its first call is the head probe, its last eth_blockNumber, both
   * saying the same block, and every state read between asks `latest`. Returns that block.
   */
  function oneBlock(i = 0): bigint {
    const calls = recorder.requests[i];
    const answers = recorder.answers[i] as { result?: string }[];
    expect(isHeadProbe(calls[0], user.address)).toBe(true);
    expect(calls.at(-1)!.method).toBe('eth_blockNumber');
    const head = BigInt(answers.at(-1)!.result!);
    expect(probed(i).block).toBe(head);
    const tags = calls
      .filter((c) => ['eth_call', 'eth_getBalance', 'eth_estimateGas'].includes(c.method))
      .map((c) => c.params?.at(-1));
    expect(new Set(tags)).toEqual(new Set(['latest']));
    return head;
  }

  it("the chain's first check also opens with eth_blockNumber, until the probe is seen to report the head", async () => {
    recorder.reset();
    expect((await sendUsdc()).status).toBe(200);
    const [first] = recorder.requests;
    expect(first[0].method).toBe('eth_blockNumber');
    expect(isHeadProbe(first[1], user.address)).toBe(true);
    const opening = BigInt((recorder.answers[0] as { result: string }[])[0].result);
    expect(probed().block).toBe(opening);
    expect(probed().balance).toBe(
      await testChain.chain.publicClient.getBalance({ address: user.address }),
    );
    recorder.reset();
    expect((await sendUsdc()).status).toBe(200);
    expect(recorder.requests[0].filter((c) => c.method === 'eth_blockNumber')).toHaveLength(1);
    oneBlock();
  });

  it('send-token: 1 batch, at most 5 calls, one block', async () => {
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
    oneBlock();
  });

  it('blocks mined between answers: every answer is still 1 batch, reading the new head', async () => {
    await sendUsdc();
    for (let round = 0; round < 3; round++) {
      const head = await mine();
      recorder.reset();
      expect((await sendUsdc()).status).toBe(200);
      expect(recorder.requests).toHaveLength(1);
      expect(oneBlock()).toBe(head);
    }
  });

  it('a block mined while the node answers the batch: sent again once, pinned to the new head', async () => {
    await sendUsdc();
    recorder.reset();
    let mined = 0n;
    recorder.between = async () => {
      mined = await mine();
    };
    expect((await sendUsdc()).status).toBe(200);
    expect(recorder.requests).toHaveLength(2);
    const closing = BigInt((recorder.answers[0] as { result: string }[]).at(-1)!.result);
    expect(closing).toBe(mined);
    expect(probed(0).block).toBe(mined - 1n);
    // The second batch pins every state read to the later head, and needs no head of its own.
    const again = recorder.requests[1];
    expect(again.map((c) => c.method)).not.toContain('eth_blockNumber');
    const tags = again
      .filter((c) => ['eth_call', 'eth_getBalance'].includes(c.method))
      .map((c) => c.params?.at(-1));
    expect(new Set(tags)).toEqual(new Set([toHex(mined)]));
  });

  it('mint-nft: 1 batch, at most 4 calls, one block', async () => {
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
    oneBlock();
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

  it("best-swap for a fresh wallet: the approval answer in exactly 1 batch, with the approval's dry run", async () => {
    // A funded wallet that never approved a router: every answer to it is the approval.
    const fresh = testChain.users[3];
    const params = { tokenIn: 'USDC', tokenOut: 'WAVAX', amountIn: '10', slippage: '1' };
    const ask = (): ReturnType<typeof runAction> =>
      runAction(app, '/api/best-swap', params, { 'x-wallet-address': fresh.address });
    for (let answer = 0; answer < 2; answer++) {
      recorder.reset();
      const approval = await ask();
      expect(approval.status).toBe(200);
      expect(approval.body.params).toMatchObject({ functionName: 'approve' });
      expect(counts()).toEqual({ batches: 1, calls: expect.any(Number) });
      expect(counts().calls).toBeLessThanOrEqual(MOST_CALLS.swapTokenIn);
      // The batch's calls read one block (the probe first, eth_blockNumber last).
      const [calls] = recorder.requests;
      expect(
        isHeadProbe(
          calls.find((c) => c.method === 'eth_call')!,
          fresh.address,
        ),
      ).toBe(true);
      expect(calls.at(-1)!.method).toBe('eth_blockNumber');
      // The answered approval was dry-run in that batch, from the wallet, as it will be sent.
      const tx = deserializeTransaction(approval.body.serializedTransaction as string);
      expect(getAddress(tx.to!)).toBe(getAddress(testChain.fixture.usdc));
      const approved = decodeFunctionData({ abi: [ERC20_APPROVE], data: tx.data! }).args;
      const dryRuns = calls.filter((c) => {
        const call = c.params?.[0] as { from?: string; to?: string; data?: string } | undefined;
        return c.method === 'eth_call' && call?.data?.startsWith(APPROVE);
      });
      expect(dryRuns.length).toBeGreaterThan(0);
      const ran = dryRuns.map((c) => {
        const call = c.params![0] as { from: string; to: string; data: Hex };
        expect(getAddress(call.from)).toBe(fresh.address);
        expect(getAddress(call.to)).toBe(getAddress(testChain.fixture.usdc));
        return decodeFunctionData({ abi: [ERC20_APPROVE], data: call.data }).args;
      });
      expect(ran).toContainEqual(approved);
    }
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
    expect(oneBlock()).toBe(await testChain.chain.publicClient.getBlockNumber());
    // The reserves of both pools in one eth_call (the multicall has no `to`: its code rides along).
    const calls = recorder.calls.filter(
      (c) => c.method === 'eth_call' && !isHeadProbe(c, user.address),
    );
    expect(calls.filter((c) => !(c.params?.[0] as { to?: string }).to)).toHaveLength(1);
  });
});
