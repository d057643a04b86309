import {
  type Address,
  createWalletClient,
  custom,
  getContractAddress,
  type Hash,
  type Hex,
  parseEventLogs,
} from 'viem';
import { sendCalls, waitForCallsStatus } from 'viem/actions';
import { entryPoint07Abi } from 'viem/account-abstraction';
import { balanceOf } from './contracts';
import { ENTRY_POINT_07_ADDRESS, erc4337Account } from './erc4337-account';
import { delegationCode, eip7702Account } from './eip7702-account';
import { SAFE_EXECUTION_ABI, safeAccount } from './safe-account';
import type { SmartAccount } from './smart-account';
import {
  AMOUNT,
  fundedOwner,
  fundUsdc,
  ownerAt,
  recipientAt,
  suffixedTransfer,
} from './smart-wallet-kit.helper';
import { startTestChain, type TestChain } from './test-chain';
import { eip5792Wallet } from './wallet-send-calls';

let testChain: TestChain;
beforeAll(async () => {
  testChain = await startTestChain();
});
afterAll(() => testChain.stop());

/** Funds the wallet, sends the suffixed transfer through it, checks balance and input. */
async function proveTransfer(wallet: SmartAccount, recipient: Address): Promise<Hash> {
  const { chain, fixture } = testChain;
  await fundUsdc(testChain, wallet.address);
  const data = suffixedTransfer(recipient);
  const hash = await wallet.execute({ to: fixture.usdc, data });
  expect(await balanceOf(chain, fixture.usdc, recipient)).toBe(AMOUNT);
  const transaction = await chain.publicClient.getTransaction({ hash });
  expect(transaction.input.toLowerCase()).toContain(data.slice(2).toLowerCase());
  return hash;
}

describe('ERC-4337 (EntryPoint v0.7, SimpleAccount)', () => {
  it('runs at the canonical address with the SenderCreator it deployed', async () => {
    const { chain } = testChain;
    const owner = ownerAt(20);
    await erc4337Account(chain, owner);
    const senderCreator = getContractAddress({ from: ENTRY_POINT_07_ADDRESS, nonce: 1n });
    expect(senderCreator).toBe('0xEFC2c1444eBCC4Db75e7613d20C6a62fF67A167C');
    expect(await chain.publicClient.getCode({ address: senderCreator })).not.toBe('0x');
  });

  it('executes a suffixed transfer, gas prepaid on the EntryPoint', async () => {
    const { chain } = testChain;
    const wallet = await erc4337Account(chain, ownerAt(21));
    const hash = await proveTransfer(wallet, recipientAt(1));
    const receipt = await chain.publicClient.getTransactionReceipt({ hash });
    const [event] = parseEventLogs({
      abi: entryPoint07Abi,
      eventName: 'UserOperationEvent',
      logs: receipt.logs,
    });
    expect(event.args).toMatchObject({ sender: wallet.address, success: true });
    expect(
      parseEventLogs({ abi: entryPoint07Abi, eventName: 'AccountDeployed', logs: receipt.logs }),
    ).toHaveLength(1);
    expect(await chain.publicClient.getBalance({ address: wallet.address })).toBe(0n);
    // A second operation: the account exists now, and the nonce moved on.
    const again = await wallet.execute({
      to: testChain.fixture.usdc,
      data: suffixedTransfer(recipientAt(1)),
    });
    expect(await balanceOf(chain, testChain.fixture.usdc, recipientAt(1))).toBe(2n * AMOUNT);
    expect(again).not.toBe(hash);
  });

  it('mines a failing inner call as success=false', async () => {
    const { chain, fixture } = testChain;
    const wallet = await erc4337Account(chain, ownerAt(22));
    // The account holds no USDC: the transfer reverts inside the operation, not the bundle.
    const hash = await wallet.execute({ to: fixture.usdc, data: suffixedTransfer(recipientAt(2)) });
    const receipt = await chain.publicClient.getTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const [event] = parseEventLogs({
      abi: entryPoint07Abi,
      eventName: 'UserOperationEvent',
      logs: receipt.logs,
    });
    expect(event.args.success).toBe(false);
  });
});

describe('Safe 1.5.0 (1-of-1)', () => {
  it('executes a suffixed transfer with ExecutionSuccess', async () => {
    const { chain } = testChain;
    const owner = ownerAt(30);
    const safe = await safeAccount(chain, owner);
    expect(await safeAccount(chain, owner)).toMatchObject({ address: safe.address });
    const hash = await proveTransfer(safe, recipientAt(3));
    const receipt = await chain.publicClient.getTransactionReceipt({ hash });
    const events = parseEventLogs({ abi: SAFE_EXECUTION_ABI, logs: receipt.logs });
    expect(events.map((event) => [event.eventName, event.address])).toEqual([
      ['ExecutionSuccess', safe.address.toLowerCase()],
    ]);
  });

  it('mines a failing inner call with ExecutionFailure when safeTxGas is set', async () => {
    const { chain, fixture } = testChain;
    const safe = await safeAccount(chain, ownerAt(31));
    const call = { to: fixture.usdc, data: suffixedTransfer(recipientAt(4)) };
    await expect(safe.execute(call)).rejects.toThrow();
    const hash = await safe.execute(call, { safeTxGas: 200_000n });
    const receipt = await chain.publicClient.getTransactionReceipt({ hash });
    const [event] = parseEventLogs({ abi: SAFE_EXECUTION_ABI, logs: receipt.logs });
    expect(event.eventName).toBe('ExecutionFailure');
  });
});

describe('EIP-7702 (an EOA delegated to ERC-7821 BatchDelegate)', () => {
  it('delegates with a type-4 transaction carrying the suffixed transfer', async () => {
    const { chain } = testChain;
    const account = await eip7702Account(chain, await fundedOwner(testChain, 40));
    const hash = await proveTransfer(account, recipientAt(5));
    const transaction = await chain.publicClient.getTransaction({ hash });
    expect(transaction).toMatchObject({
      type: 'eip7702',
      from: account.address.toLowerCase(),
      to: account.address.toLowerCase(),
    });
    expect(await chain.publicClient.getCode({ address: account.address })).toBe(
      delegationCode(account.delegate),
    );
  });

  it('runs a batch in one plain transaction once delegated', async () => {
    const { chain, fixture } = testChain;
    const account = await eip7702Account(chain, await fundedOwner(testChain, 41));
    await fundUsdc(testChain, account.address);
    const calls = [1, 2].map((n) => ({
      to: fixture.usdc,
      data: suffixedTransfer(recipientAt(10 + n)),
    }));
    await account.executeBatch(calls.slice(0, 1));
    const hash = await account.executeBatch(calls.slice(1));
    expect((await chain.publicClient.getTransaction({ hash })).type).toBe('eip1559');
    expect(await balanceOf(chain, fixture.usdc, recipientAt(12))).toBe(AMOUNT);
  });
});

describe('wallet_sendCalls (EIP-5792) over one EIP-7702 batch', () => {
  it("answers viem's sendCalls and waitForCallsStatus with the mined batch", async () => {
    const { chain, fixture } = testChain;
    const owner = await fundedOwner(testChain, 50);
    const wallet = await eip5792Wallet(chain, owner);
    const client = createWalletClient({
      account: owner.address,
      chain: chain.chain,
      transport: custom(wallet),
    });
    await fundUsdc(testChain, owner.address);
    const data = suffixedTransfer(recipientAt(20));
    const outer: Hex = `0x${'cd'.repeat(4)}${'8021'.repeat(8)}`;
    const { id } = await sendCalls(client, {
      calls: [
        { to: fixture.usdc, data },
        { to: recipientAt(21), value: 5n },
      ],
      capabilities: { dataSuffix: { value: outer } },
    });
    const status = await waitForCallsStatus(client, { id, pollingInterval: 20 });
    expect(status).toMatchObject({ status: 'success', atomic: true, chainId: chain.chainId });
    const [receipt] = status.receipts ?? [];
    const transaction = await chain.publicClient.getTransaction({ hash: receipt.transactionHash });
    expect(transaction.input).toContain(data.slice(2));
    expect(transaction.input.endsWith(outer.slice(2))).toBe(true);
    expect(await balanceOf(chain, fixture.usdc, recipientAt(20))).toBe(AMOUNT);
    expect(await chain.publicClient.getBalance({ address: recipientAt(21) })).toBe(5n);
  });
});
