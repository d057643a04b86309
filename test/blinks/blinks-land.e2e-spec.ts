import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FormActionComponent, unfurlUrlToBlinkApiUrl } from '@dialectlabs/blinks-core';
import type { TransactionResponse } from '@solana/actions-spec';
import { deserialize } from '@wagmi/core';
import { decodeFunctionData, erc20Abi, type Hex, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { BestSwapModule } from '../../src/actions/best-swap/best-swap.module';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import { startTestChain, type TestChain } from '../../src/testing/local-chain';
import { createTestApp } from '../support/app.factory';
import {
  BlinkInstance,
  dialectWallet,
  type DialectWallet,
  execute,
} from '../support/blink-client.helper';

/** A blink's `transaction` as Dialect's EVM adapter reads it: wagmi's deserialize. */
interface WalletRequest {
  to: string;
  data: Hex;
  value: bigint;
  chainId: number;
}
const requestOf = (response: unknown): WalletRequest =>
  deserialize<WalletRequest>((response as TransactionResponse).transaction);

/**
 * Dialect's client (test/support/blink-client.helper.ts: @dialectlabs/blinks-core 0.20.7, and
 * the EVM adapter of @dialectlabs/blinks 0.22.5 on wagmi's mock connector) finds the blinks
 * through actions.json, reads them, posts an account and signs what they answer with the
 * adapter's own code on a local chain: every transaction lands, and each chain of actions ends
 * `completed`.
 */
describe('Blinks on a local chain, driven by Dialect’s client', () => {
  let testChain: TestChain;
  let app: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    testChain = await startTestChain();
    app = await createTestApp({
      env: testChain.env,
      actions: [SendTokenModule, BestSwapModule, CalculatorModule],
    });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
    base = base.replace('[::1]', '127.0.0.1');
  }, 120_000);
  const wallets: DialectWallet[] = [];
  const walletOf = async (index: number): Promise<DialectWallet> => {
    const wallet = await dialectWallet(testChain, testChain.users[index].address);
    wallets.push(wallet);
    return wallet;
  };
  afterAll(async () => {
    for (const wallet of wallets) await wallet.close();
    await app?.close();
    await testChain?.stop();
  });

  const blinkOf = async (actionPath: string): Promise<BlinkInstance> => {
    const apiUrl = await unfurlUrlToBlinkApiUrl(`${base}${actionPath}`);
    expect(apiUrl).toBe(`${base}/api/blinks${actionPath.slice('/api'.length)}`);
    return BlinkInstance.fetch(apiUrl as string);
  };

  it('send-token: actions.json → blink → account → a transaction that lands → completed', async () => {
    const wallet = await walletOf(0);
    const blink = await blinkOf('/api/send-token');
    expect(blink.metadata).toEqual({ version: '2.4', blockchainIds: ['eip155:43113'] });
    expect(await blink.isSupported(wallet.adapter)).toEqual({ isSupported: true });
    expect(blink.title).toBe('Send tokens');
    const [form] = blink.actions;
    expect(form).toBeInstanceOf(FormActionComponent);
    expect(form.parameters.map((p) => p.name)).toEqual(['token', 'recipient', 'amount']);
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const fields = form as FormActionComponent;
    fields.setValue('USDC', 'token');
    fields.setValue(recipient, 'recipient');
    fields.setValue('2.5', 'amount');

    const step = await execute(blink, fields, wallet);
    const tx = requestOf(step.response);
    expect(tx).toMatchObject({ chainId: 43113, value: 0n });
    expect(tx.to.toLowerCase()).toBe(testChain.fixture.usdc.toLowerCase());
    expect(decodeFunctionData({ abi: erc20Abi, data: tx.data }).args).toEqual([
      recipient,
      parseUnits('2.5', 6),
    ]);
    expect(step.response.message).toEqual(expect.any(String));
    // Signed by the adapter: from the wallet's account, with the answer's own calldata.
    expect(step.receipt).toMatchObject({ status: 'success', from: wallet.address.toLowerCase() });
    const sent = await testChain.chain.publicClient.getTransaction({
      hash: step.receipt!.transactionHash,
    });
    expect(sent.input).toBe(tx.data);
    const balance = await testChain.chain.publicClient.readContract({
      address: testChain.fixture.usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [recipient],
    });
    expect(balance).toBe(parseUnits('2.5', 6));
    expect(step.next?.type).toBe('completed');
    expect(step.next?.description).toMatch(
      /^Send tokens: The transaction (is on the chain|is confirmed)/,
    );
  });

  it('best-swap from a fresh wallet: approval → links.next → swap → completed, all landing', async () => {
    const wallet = await walletOf(1);
    const blink = await blinkOf('/api/best-swap');
    const form = blink.actions[0] as FormActionComponent;
    form.setValue('USDC', 'tokenIn');
    form.setValue('WAVAX', 'tokenOut');
    form.setValue('10', 'amountIn');

    const approval = await execute(blink, form, wallet);
    const approve = requestOf(approval.response);
    expect(approve.to.toLowerCase()).toBe(testChain.fixture.usdc.toLowerCase());
    expect(decodeFunctionData({ abi: erc20Abi, data: approve.data }).functionName).toBe('approve');
    expect(approval.response.message).toMatch(/^Step 1 of 2: approve 10 USDC/);
    expect(approval.response.links?.next).toMatchObject({ type: 'post' });
    expect(approval.receipt?.status).toBe('success');

    const swapBlink = approval.next as BlinkInstance;
    expect(swapBlink.type).toBe('action');
    expect(swapBlink.description).toMatch(/^Approval: .* Next: Best swap\.$/);
    const [swapButton] = swapBlink.actions;
    expect(swapButton.parameters).toEqual([]);
    const swap = await execute(swapBlink, swapButton, wallet);
    expect(swap.response.message).toMatch(/^Swap 10 USDC for at least/);
    expect(swap.receipt?.status).toBe('success');
    expect(swap.receipt?.from).toBe(wallet.address.toLowerCase());
    const swapTx = requestOf(swap.response);
    expect(swapTx.to.toLowerCase()).not.toBe(testChain.fixture.usdc.toLowerCase());
    expect(swap.next?.type).toBe('completed');
    expect(swap.next?.description).toMatch(/^Best swap: The transaction/);
  });

  it('a data action answers through its blink: a `post` whose message is the result', async () => {
    const wallet = await walletOf(2);
    const blink = await blinkOf('/api/calculator');
    const form = blink.actions[0] as FormActionComponent;
    form.setValue('multiply', 'operation');
    form.setValue('6', 'a');
    form.setValue('7', 'b');
    const step = await execute(blink, form, wallet);
    expect(step.response).toEqual({ type: 'post', message: expect.stringContaining('42') });
    expect([step.receipt, step.next]).toEqual([undefined, null]);
  });

  it('the adapter refuses the RLP the Sherry route answers: the two formats differ', async () => {
    const wallet = await walletOf(3);
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const sherry = await fetch(`${base}/api/send-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user-address': wallet.address },
      body: JSON.stringify({ params: { token: 'USDC', recipient, amount: '1' } }),
    });
    const { serializedTransaction } = (await sherry.json()) as { serializedTransaction: string };
    expect(serializedTransaction).toMatch(/^0x02/);
    const sentBefore = await testChain.chain.publicClient.getTransactionCount({
      address: wallet.address,
    });
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const context = {} as Parameters<typeof wallet.adapter.signTransaction>[1];
    expect(await wallet.adapter.signTransaction(serializedTransaction, context)).toEqual({
      error: 'Signing failed',
    });
    expect(logged).toHaveBeenCalledWith(
      'Blink wagmi adapter sign transaction failed:',
      expect.objectContaining({
        message: expect.stringMatching(/Unexpected non-whitespace character after JSON/),
      }),
    );
    logged.mockRestore();
    // Nothing was sent from the wallet.
    expect(
      await testChain.chain.publicClient.getTransactionCount({ address: wallet.address }),
    ).toBe(sentBefore);
  });
});
