import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FormActionComponent, unfurlUrlToBlinkApiUrl } from '@dialectlabs/blinks-core';
import type { TransactionResponse } from '@solana/actions-spec';
import { decodeFunctionData, erc20Abi, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { BestSwapModule } from '../../src/actions/best-swap/best-swap.module';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import {
  deserializeTransaction,
  startTestChain,
  type TestChain,
} from '../../src/testing/local-chain';
import { createTestApp } from '../support/app.factory';
import { BlinkInstance, execute, localAdapter } from '../support/blink-client.helper';

/**
 * Dialect's client (@dialectlabs/blinks-core 0.20.7, test/support/blink-client.helper.ts) finds
 * the blinks through actions.json, reads them, posts an account and signs what they answer on a
 * local chain: every transaction lands, and each chain of actions ends `completed`.
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
  afterAll(async () => {
    await app?.close();
    await testChain?.stop();
  });

  const blinkOf = async (actionPath: string): Promise<BlinkInstance> => {
    const apiUrl = await unfurlUrlToBlinkApiUrl(`${base}${actionPath}`);
    expect(apiUrl).toBe(`${base}/api/blinks${actionPath.slice('/api'.length)}`);
    return BlinkInstance.fetch(apiUrl as string);
  };

  it('send-token: actions.json → blink → account → a transaction that lands → completed', async () => {
    const [user] = testChain.users;
    const adapter = localAdapter(testChain.chain, user);
    const blink = await blinkOf('/api/send-token');
    expect(blink.metadata).toEqual({ version: '2.4', blockchainIds: ['eip155:43113'] });
    expect(await blink.isSupported(adapter)).toEqual({ isSupported: true });
    expect(blink.title).toBe('Send tokens');
    const [form] = blink.actions;
    expect(form).toBeInstanceOf(FormActionComponent);
    expect(form.parameters.map((p) => p.name)).toEqual(['token', 'recipient', 'amount']);
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const fields = form as FormActionComponent;
    fields.setValue('USDC', 'token');
    fields.setValue(recipient, 'recipient');
    fields.setValue('2.5', 'amount');

    const step = await execute(blink, fields, adapter);
    const { transaction, message } = step.response as TransactionResponse;
    const tx = deserializeTransaction(transaction);
    expect(tx.chainId).toBe(43113);
    expect(tx.to?.toLowerCase()).toBe(testChain.fixture.usdc.toLowerCase());
    expect(decodeFunctionData({ abi: erc20Abi, data: tx.data! }).args).toEqual([
      recipient,
      parseUnits('2.5', 6),
    ]);
    expect(message).toEqual(expect.any(String));
    expect(step.receipt?.status).toBe('success');
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
    const user = testChain.users[1];
    const adapter = localAdapter(testChain.chain, user);
    const blink = await blinkOf('/api/best-swap');
    const form = blink.actions[0] as FormActionComponent;
    form.setValue('USDC', 'tokenIn');
    form.setValue('WAVAX', 'tokenOut');
    form.setValue('10', 'amountIn');

    const approval = await execute(blink, form, adapter);
    const approve = deserializeTransaction((approval.response as TransactionResponse).transaction);
    expect(approve.to?.toLowerCase()).toBe(testChain.fixture.usdc.toLowerCase());
    expect(decodeFunctionData({ abi: erc20Abi, data: approve.data! }).functionName).toBe('approve');
    expect(approval.response.message).toMatch(/^Step 1 of 2: approve 10 USDC/);
    expect(approval.response.links?.next).toMatchObject({ type: 'post' });
    expect(approval.receipt?.status).toBe('success');

    const swapBlink = approval.next as BlinkInstance;
    expect(swapBlink.type).toBe('action');
    expect(swapBlink.description).toMatch(/^Approval: .* Next: Best swap\.$/);
    const [swapButton] = swapBlink.actions;
    expect(swapButton.parameters).toEqual([]);
    const swap = await execute(swapBlink, swapButton, adapter);
    expect(swap.response.message).toMatch(/^Swap 10 USDC for at least/);
    expect(swap.receipt?.status).toBe('success');
    const swapTx = deserializeTransaction((swap.response as TransactionResponse).transaction);
    expect(swapTx.to?.toLowerCase()).not.toBe(testChain.fixture.usdc.toLowerCase());
    expect(swap.next?.type).toBe('completed');
    expect(swap.next?.description).toMatch(/^Best swap: The transaction/);
  });

  it('a data action answers through its blink: a `post` whose message is the result', async () => {
    const adapter = localAdapter(testChain.chain, testChain.users[2]);
    const blink = await blinkOf('/api/calculator');
    const form = blink.actions[0] as FormActionComponent;
    form.setValue('multiply', 'operation');
    form.setValue('6', 'a');
    form.setValue('7', 'b');
    const step = await execute(blink, form, adapter);
    expect(step.response).toEqual({ type: 'post', message: expect.stringContaining('42') });
    expect([step.receipt, step.next]).toEqual([undefined, null]);
  });
});
