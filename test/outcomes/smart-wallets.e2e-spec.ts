import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  type Address,
  createWalletClient,
  custom,
  encodeFunctionData,
  erc20Abi,
  type Hex,
} from 'viem';
import { sendCalls, waitForCallsStatus } from 'viem/actions';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { deserializeTransaction } from '../../src/testing/evm/wallet';
import { erc4337Account } from '../../src/testing/evm/erc4337-account';
import { eip7702Account } from '../../src/testing/evm/eip7702-account';
import { safeAccount } from '../../src/testing/evm/safe-account';
import { kitRelayer } from '../../src/testing/evm/smart-account';
import { fundedOwner, fundUsdc, ownerAt } from '../../src/testing/evm/smart-wallet-kit.helper';
import { eip5792Wallet } from '../../src/testing/evm/wallet-send-calls';
import {
  heard,
  heardOutcomes,
  readIntent,
  sendTokenIntent,
  type IntentAnswer,
} from '../support/outcomes.helper';
import { describeWithRedis } from '../support/redis.helper';
import { outcomesSuite } from '../support/outcomes-suite.helper';

const recipient = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/** The call an answer asks the wallet to make: what a smart wallet wraps. */
function callOf(answer: IntentAnswer): { to: Address; data: Hex; value: bigint } {
  const tx = deserializeTransaction(answer.body.serializedTransaction as string);
  return { to: tx.to!, data: tx.data!, value: tx.value ?? 0n };
}

/**
 * Issue 42: an answered call executed through a smart-contract wallet settles its intent as a
 * plain transaction would, with no report: the follower finds the answer's tag inside the wallet's
 * transaction, and the wallet's own event (or its key's signature) says the user ran it. The
 * wallets are the real ones (src/testing/evm: EntryPoint v0.7 at its canonical address, Safe
 * 1.5.0, an OpenZeppelin ERC-7821 delegate behind EIP-7702, wallet_sendCalls over it).
 */
describeWithRedis()('Smart-contract wallets settle their intents with no report', () => {
  const suite = outcomesSuite('smart-wallets');
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await suite.start();
  }, 60_000);

  const usdcAnswer = (user: Address, amount = '2'): Promise<IntentAnswer> =>
    sendTokenIntent(app, { token: 'USDC', recipient: recipient(), amount }, user);

  it('an ERC-4337 account holding no coin: answered (its gas not checked), then confirmed from its user operation', async () => {
    const account = await erc4337Account(suite.testChain.chain, ownerAt(60));
    await fundUsdc(suite.testChain, account.address);
    // Deployed by its first operation: a contract from then on.
    await account.execute({ to: recipient(), value: 0n });
    const answer = await usdcAnswer(account.address);
    const summary = (answer.body.params as { args: { summary?: string } }).args.summary;
    expect(summary).toContain('Gas not checked');
    const hash = await account.execute(callOf(answer));
    const outcome = await heard(answer.intent, 'confirmed');
    expect(outcome.intent).toMatchObject({ hash, seenAs: 'user-operation' });
  });

  it('an ERC-4337 operation whose call fails inside a mined bundle: reverted, by its UserOperationEvent', async () => {
    const account = await erc4337Account(suite.testChain.chain, ownerAt(61));
    await fundUsdc(suite.testChain, account.address);
    await account.execute({ to: recipient(), value: 0n });
    const answer = await usdcAnswer(account.address, '100');
    // The USDC leaves before the operation runs: the transfer reverts, the bundle does not.
    const { to, data } = callOf(answer);
    const drain = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [recipient(), 100_000_000n],
    });
    await account.execute({ to, data: drain });
    await account.execute({ to, data });
    expect((await heard(answer.intent, 'reverted')).intent.seenAs).toBe('user-operation');
  });

  it("a Safe's execTransaction: confirmed by its ExecutionSuccess", async () => {
    const safe = await safeAccount(suite.testChain.chain, ownerAt(62));
    await fundUsdc(suite.testChain, safe.address);
    const answer = await usdcAnswer(safe.address);
    const hash = await safe.execute(callOf(answer));
    const outcome = await heard(answer.intent, 'confirmed');
    expect(outcome.intent).toMatchObject({ hash, seenAs: 'safe' });
  });

  it('an EIP-7702 account running the call in a batch with another: confirmed', async () => {
    const account = await eip7702Account(
      suite.testChain.chain,
      await fundedOwner(suite.testChain, 63),
    );
    await fundUsdc(suite.testChain, account.address);
    const answer = await usdcAnswer(account.address);
    const hash = await account.executeBatch([{ to: recipient(), value: 1n }, callOf(answer)]);
    const outcome = await heard(answer.intent, 'confirmed');
    expect(outcome.intent).toMatchObject({ hash, seenAs: 'call' });
  });

  it("calls sent as one wallet_sendCalls bundle (viem's sendCalls): each answer confirmed", async () => {
    const owner = await fundedOwner(suite.testChain, 64);
    const wallet = await eip5792Wallet(suite.testChain.chain, owner);
    await fundUsdc(suite.testChain, owner.address);
    const [first, second] = [await usdcAnswer(owner.address), await usdcAnswer(owner.address)];
    const client = createWalletClient({
      account: owner.address,
      chain: suite.testChain.chain.chain,
      transport: custom(wallet),
    });
    const { id } = await sendCalls(client, { calls: [callOf(first), callOf(second)] });
    await waitForCallsStatus(client, { id, pollingInterval: 20 });
    const [a, b] = await Promise.all([
      heard(first.intent, 'confirmed'),
      heard(second.intent, 'confirmed'),
    ]);
    expect(a.intent.hash).toBe(b.intent.hash);
  });

  it("a stranger's transaction copying the tagged call, even into the user's Safe, settles nothing", async () => {
    const safe = await safeAccount(suite.testChain.chain, ownerAt(65));
    await fundUsdc(suite.testChain, safe.address);
    const answer = await usdcAnswer(safe.address);
    const { to, data } = callOf(answer);
    const stranger = suite.testChain.users[3];
    await fundUsdc(suite.testChain, stranger.address);
    const wallet = suite.testChain.chain.wallet(stranger);
    // The stranger pays the same call from its own account, then calls the Safe with the bytes.
    const copies = [
      await wallet.sendTransaction({ to, data }),
      await wallet.sendTransaction({ to: safe.address, data: `0xa0e67e2b${data.slice(2)}` }),
    ];
    for (const hash of copies)
      await suite.testChain.chain.publicClient.waitForTransactionReceipt({ hash });
    // Then the Safe pays it: that, and only that, confirms it.
    const relayer = await kitRelayer(suite.testChain.chain);
    expect(relayer.address).not.toBe(stranger.address);
    const paid = await safe.execute({ to, data });
    expect((await heard(answer.intent, 'confirmed')).intent.hash).toBe(paid);
    expect((await readIntent(app, answer.intent)).body.data?.hash).toBe(paid);
    expect(heardOutcomes.filter((o) => o.intent.id === answer.intent)).toHaveLength(1);
  });
});
